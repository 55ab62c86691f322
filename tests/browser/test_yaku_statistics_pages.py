"""The yaku tables of a player's page and of the organisers' statistics page on a 360 px phone in the six
languages, from a signed sheet entered with its yaku (``tests/rules/test_yaku_statistics.py``): the
table is there and nothing on the page is cut, overlapping or too small. Screenshots go to
tests/artifacts/phone/ (not committed)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import layout_problems, log_in, shoot
from tests.browser.test_sheet_phone import SHOTS
from tests.conftest import make_user, seat_table
from tests.rules.test_yaku_statistics import HANDS
from tournament.models import Player, Round, Tournament

LANGUAGES = ["en", "ja", "ru", "fr", "de", "zh-hans"]
PHONE = {"width": 360, "height": 780}


@pytest.fixture
def with_yaku(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Yaku Cup",
        slug="yaku-cup",
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
    entry = {"form": "hands", "hands": [dict(hand) for hand in HANDS], "ended_by_time": True}
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_yaku_tables_fit_a_phone_in_every_language(
    new_context: Any, live_server: Any, with_yaku: Tournament
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_context(viewport=PHONE, has_touch=True).new_page()
    log_in(page, live_server, "organiser", "pw-for-tests-only", "/t/yaku-cup/manage/statistics/")
    ben = with_yaku.players.get(name="Ben").pk
    found: dict[str, list[str]] = {}
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for name, path, rows in (
            ("statistics", "/t/yaku-cup/manage/statistics/", 4),
            ("player", f"/t/yaku-cup/players/{ben}/", 3),
        ):
            page.set_viewport_size(PHONE)
            page.goto(live_server.url + path)
            expect(page.locator("[data-yaku-table] tbody tr")).to_have_count(rows)
            height = page.evaluate("document.documentElement.scrollHeight")
            page.set_viewport_size({"width": PHONE["width"], "height": height})
            shoot(page, SHOTS / f"yaku-{name}-360-{language}.png", language=language)
            if problems := layout_problems(page):
                found[f"{name} {language}"] = problems
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())
