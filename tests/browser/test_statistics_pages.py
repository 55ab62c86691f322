"""The statistics pages in Chromium under the content security policy: a player's page with its points
chart (SVG drawn on the server) and the organisers' statistics page, with no policy violation."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import DESKTOP, log_in
from tests.browser.test_content_security import PASSWORD, watch
from tests.conftest import make_user, seat_table
from tests.scoring import hanchan
from tournament.models import Player, Round, Tournament


@pytest.fixture
def signed(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Autumn Cup",
        slug="autumn-cup",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
    )
    players = [
        Player.objects.create(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    table = seat_table(Round.objects.create(tournament=tournament, number=1, status="started"), 1, players)
    referee = make_user("referee", tournament, "referee")
    make_user("organiser", tournament, "organiser")
    sheets.sign_sheet(sheets.save_sheet(table, hanchan.entry("outcomes"), referee, submit=True), referee)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_player_and_statistics_pages_under_the_policy(
    new_context: Any, live_server: Any, signed: Tournament, screenshot: Any
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    violations = watch(page)
    ana = signed.players.get(name="Ana")
    page.goto(f"{live_server.url}/t/{signed.slug}/players/{ana.pk}/")
    expect(page.locator("svg.points-chart polyline")).to_have_count(1)
    expect(page.locator('[data-stat="win_rate"]')).to_have_text("30.0 % (3)")  # 3 wins in 10 hands
    screenshot(page, "player-statistics")
    log_in(page, live_server, "organiser", PASSWORD, f"/t/{signed.slug}/manage/statistics/")
    expect(page.locator('[data-total="hands"]')).to_have_text("10")
    expect(page.locator("[data-biggest] tbody tr").first).to_contain_text("12,000")
    screenshot(page, "tournament-statistics")
    assert violations == []
