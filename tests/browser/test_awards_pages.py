"""The awards with their winners as a person sees them: names of up to 30 characters in four scripts, the
page on phones and desktop and the projector's screen at its sizes, nothing cut, overlapping or scrolling
sideways (``layout_problems``), and the winners' sentences there. (``test_every_page`` checks these pages
in every language, but its tournament's sheets are final points only: no winner to show.)

The sheet is ``tests/scoring/hanchan.py`` (worked out in its docstring) with the four names replaced: the
best hand is Ana's dealer mangan tsumo, 12,000 (South 1, hand 6); Ana also wins most (3)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import layout_problems
from tests.conftest import make_user, seat_table
from tests.scoring import hanchan
from tournament.core.awards import AWARDS
from tournament.models import Player, Round, Tournament

NAMES = {
    "Ana": "Александра Константинопольская",
    "Ben": "Bartholomew van der Westhuizen",
    "Cho": "長谷川 麻衣子",
    "Dai": "Maximilian Schwarzenberger-Kl",
}
SIZES = [(360, 780), (390, 844), (1366, 768), (1920, 1080), (1280, 720)]


def renamed(value: Any) -> Any:
    """The sheet's entry with each of the four names replaced, wherever it stands (keys too)."""
    if isinstance(value, str):
        return NAMES.get(value, value)
    if isinstance(value, list):
        return [renamed(item) for item in value]
    if isinstance(value, dict):
        return {renamed(key): renamed(item) for key, item in value.items()}
    return value


@pytest.fixture
def ceremony(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2026",
        slug="ceremony",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
        awards=list(AWARDS),
    )
    players = [Player.objects.create(tournament=tournament, name=NAMES[name]) for name in NAMES]
    table = seat_table(Round.objects.create(tournament=tournament, number=1, status="started"), 1, players)
    referee = make_user("referee", tournament, "referee")
    sheets.sign_sheet(
        sheets.save_sheet(table, renamed(hanchan.entry("outcomes")), referee, submit=True), referee
    )
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_winners_fit_every_screen(new_context: Any, live_server: Any, ceremony: Tournament) -> None:
    page = new_context().new_page()
    problems = {}
    for path in ("awards/", "projector/awards/"):
        page.goto(f"{live_server.url}/t/{ceremony.slug}/{path}")
        best = page.locator('[data-award="best_hand"] li')
        expect(best).to_have_count(1)
        expect(best).to_contain_text(NAMES["Ana"])
        expect(best).to_contain_text("12,000 points: hanchan 1, table 1, South 1 (hand 6)")
        expect(page.locator('[data-award="most_wins"] li')).to_contain_text("3 wins")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
            found = layout_problems(page)
            if found:
                problems[f"{path} at {width} px"] = found
    assert not problems, problems
