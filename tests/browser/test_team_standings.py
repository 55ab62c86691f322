"""Team standings in Chromium: the standings page keeps its Teams table through the live redraws, and the
projector's team pages take turns with the standings' pages, under the content security policy."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import drawn_after
from tests.browser.test_content_security import watch
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Tournament

FULL_HD = {"width": 1920, "height": 1080}
POLL_MS = 2500  # static/js/standings.js: the standings poll's interval
PAGE_MS = 12000  # and the projector's page turn's


@pytest.fixture
def team_cup(transactional_db: None) -> Tournament:
    """Hanchan 1, one table signed: Kyoto's Aki 45,000 (+30) and Ayu 25,000 (-10) add up to 20; Osaka's
    Ben 32,000 (+7) and Bo 18,000 (-27) to -20."""
    tournament = Tournament.objects.create(
        name="Team Cup",
        slug="team-cup",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=2,
        team_ranking=Tournament.TeamRanking.SUM,
    )
    referee = make_user("referee", tournament, "referee")
    teams = {"Aki": "Kyoto", "Ben": "Osaka", "Ayu": "Kyoto", "Bo": "Osaka"}
    players = [Player.objects.create(tournament=tournament, name=n, team=t) for n, t in teams.items()]
    table = seat_table(Round.objects.create(tournament=tournament, number=1, status="started"), 1, players)
    points = {"Aki": 45000, "Ben": 32000, "Ayu": 25000, "Bo": 18000}
    entry = {"form": "final", "riichi_sticks_left": 0, "final_points": points}
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_teams_show_beside_the_standings_and_on_the_projector(
    new_context: Any, live_server: Any, team_cup: Tournament, screenshot: Any
) -> None:
    page = new_context().new_page()
    page.clock.install()  # the page's timers, moved on by the test instead of waited for
    violations = watch(page)
    drawn_after(page, "/standings.json", page.goto, f"{live_server.url}/t/{team_cup.slug}/standings/")
    kyoto = page.locator('[data-team-rows] tr[data-team="Kyoto"]')
    expect(kyoto).to_contain_text("Aki 30")
    drawn_after(page, "/standings.json", page.clock.run_for, POLL_MS)  # the next poll, drawn
    expect(kyoto.locator(".total")).to_have_text("20.0")
    expect(page.locator('[data-team-rows] tr[data-team="Osaka"] .total')).to_have_text("-20.0")
    screenshot(page, "standings-teams")

    projector = new_context(viewport=FULL_HD).new_page()
    projector.clock.install()
    projector_violations = watch(projector)
    projector.goto(f"{live_server.url}/t/{team_cup.slug}/projector/")
    expect(projector.locator("[data-page-label]")).to_have_text("Standings 1/1")
    expect(projector.locator('[data-view="teams"]')).to_be_hidden()
    projector.clock.run_for(PAGE_MS)  # the page turns
    expect(projector.locator("[data-page-label]")).to_have_text("Teams 1/1")
    expect(projector.locator('[data-view="standings"]')).to_be_hidden()
    rows = projector.locator("[data-team-columns] tr[data-team]")
    expect(rows).to_have_count(2)
    expect(rows.first.locator(".total")).to_have_text("20.0")
    expect(rows.first.locator(".played")).to_have_text("1")
    screenshot(projector, "projector-teams", full_page=False)
    assert violations == [] and projector_violations == []
