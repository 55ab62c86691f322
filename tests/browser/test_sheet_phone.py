"""The score sheet on phones of 360 px in all seven languages (and 414 px in German), with long names, once
hands are entered (a ron with its discarder, a tsumo with its yaku, a draw, a chombo): as the referee who
edits and signs it, and as a seated player asked to confirm it (players' entry). Nothing wider than the
screen, no tap target too small, overlapping or covering a text, no name cut (``layout_problems``); the
confirming player reads the results and the hands (the tsumo's yaku under it) before "I agree", and the
editor only after choosing to change the sheet; the chombo's penalty is in the results summary; an error
after a bad entry is scrolled into sight, above the sticky save bar. Screenshots go to
tests/artifacts/phone/ (not committed) for people to look at."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import layout_problems, log_in, shoot, wait_until
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Table, Tournament
from tournament.services import player_login

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "phone"
LANGUAGES = ["en", "ja", "ru", "fr", "de", "zh-hans", "ko"]
NAMES = [
    "Maximilian Schwarzenberger-Kl",  # 29 characters
    "François Dubois-Lefèvre",
    "Nguyễn Thị Minh Khai",
    "Natalia Wiśniewska-Kowalska",
    "Jukka-Pekka Räsänen",
    "Oskar Ebert",
]
# Every language on the narrowest phone; the widest of the common phones in the language of the longest
# words (a layout that holds at 360 px in German rarely breaks at 414).
SIZES = [({"width": 360, "height": 780}, LANGUAGES), ({"width": 414, "height": 860}, ["de"])]
SHEET = "/t/phone-open/sheet/1/1/"
EAST, SOUTH, WEST, NORTH = NAMES[:4]
HANDS = [
    {"result": "ron", "winner": SOUTH, "loser": WEST, "han": 2, "fu": 30, "riichi": []},
    # Entered with its yaku: the read-only hands show them under the hand, long names wrapping.
    {
        "result": "tsumo",
        "winner": WEST,
        "yaku": ["riichi", "ippatsu", "menzen_tsumo", "tanyao", "sanshoku"],
        "fu": 30,
        "dora": 2,
        "riichi": [WEST],
    },
    {"result": "draw", "tenpai": [EAST, NORTH], "riichi": [NORTH]},
    {"result": "chombo", "offender": WEST, "riichi": []},
]
# The verdict drawn: no "Checking…" left in the page.
CHECKED = "!document.querySelector('[data-verdict]') || !document.querySelector('[data-verdict].wait')"


@pytest.fixture
def submitted(transactional_db: None) -> dict[str, Any]:
    """A sheet submitted by the East player (players' entry), waiting for the other three."""
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2026",
        slug="phone-open",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
        entry_mode=Tournament.EntryMode.PLAYERS,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [Player.objects.create(tournament=tournament, name=name) for name in NAMES[:4]]
    table: Table = seat_table(round_, 1, players)
    organiser = make_user("organiser", tournament, "organiser")
    make_user("referee", tournament, "referee")
    entry = {"form": "hands", "hands": HANDS, "ended_by_time": True}
    sheets.player_save_sheet(table, entry, players[0], submit=True)
    link = player_login.issue_for_player(players[1], organiser).token  # South confirms
    return {"tournament": tournament, "link": link}


def look(page: Any, name: str, found: dict[str, list[str]]) -> None:
    """The page measured and photographed on a screen as tall as the page: the sticky clock and save bar
    sit where they belong, not over the text scrolled under them."""
    wait_until(page, CHECKED)
    size = page.viewport_size
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    shoot(page, SHOTS / f"{name}.png")
    if problems := layout_problems(page):
        found[name] = problems
    page.set_viewport_size(size)


def in_sight(page: Any, selector: str) -> bool:
    """The first element matching ``selector`` lies whole within the screen, above the sticky save bar."""
    return bool(
        page.evaluate(
            """(selector) => {
              const box = document.querySelector(selector).getBoundingClientRect();
              const bar = document.querySelector('.actions.sticky');
              const bottom = bar ? bar.getBoundingClientRect().top : innerHeight;
              return box.height > 0 && box.top >= 0 && box.bottom <= Math.min(bottom, innerHeight);
            }""",
            selector,
        )
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sheet_fits_phones_for_the_referee_and_the_confirming_player(
    new_context: Any, live_server: Any, submitted: dict[str, Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    referee = new_context(viewport=SIZES[0][0], has_touch=True).new_page()
    log_in(referee, live_server, "referee", "pw-for-tests-only", SHEET)
    player = new_context(viewport=SIZES[0][0], has_touch=True).new_page()
    player.goto(f"{live_server.url}/t/phone-open/in/{submitted['link']}/")
    for size, languages in SIZES:
        width = size["width"]
        for page in (referee, player):
            page.set_viewport_size(size)
        for language in languages:
            for page in (referee, player):
                page.context.add_cookies(
                    [{"name": "django_language", "value": language, "url": live_server.url}]
                )
                page.goto(live_server.url + SHEET)
                assert page.locator("html").get_attribute("lang") == language

            # The referee: the Sign card with the results and the chombo, then the editor, hand 1 open.
            referee.locator('[data-hand="1"] [data-hand-summary]').click()
            look(referee, f"sheet-referee-{width}-{language}", found)
            penalties = referee.locator("[data-sign-card] [data-penalties]")
            expect(penalties).to_contain_text(WEST)
            expect(penalties).to_contain_text("-20")

            # The confirming player: results, then the hands, then "I agree"; no editor until asked for.
            agree = player.locator("[data-agree]")
            expect(agree).to_be_visible()
            results = player.locator("[data-confirm-results]")
            assert results.bounding_box()["y"] < agree.bounding_box()["y"]
            assert player.locator("[data-confirm-results] [data-hands-table]").count() == 1
            expect(results.locator("[data-hand-yaku]")).to_have_count(1)
            expect(results.locator("[data-hand-yaku]")).to_contain_text(WEST)
            expect(results.locator("[data-penalties]")).to_contain_text(WEST)
            expect(player.locator("button[value=submit]")).to_be_hidden()
            look(player, f"sheet-confirming-{width}-{language}", found)
            if language in ("en", "de"):  # the editor the referee's look has measured in every language
                player.locator("[data-change-sheet-open]").click()
                expect(player.locator("button[value=submit]")).to_be_visible()
                player.locator('[data-hand="4"] [data-hand-summary]').click()
                look(player, f"sheet-player-editing-{width}-{language}", found)

        # A bad entry (1 han 20 fu): its error is beside its hand, in sight above the sticky save bar.
        hand = referee.locator('[data-hand="1"]')
        hand.locator('[data-han] input[value="1"]').click()
        hand.locator('[data-fu] input[value="20"]').click()
        expect(hand.locator("[data-hand-errors] li")).to_have_count(1)
        wait_until(referee, "document.querySelector('[data-hand=\"1\"] [data-hand-errors] li')")
        referee.wait_for_timeout(100)
        assert in_sight(referee, '[data-hand="1"] [data-hand-errors] li')
        shoot(referee, SHOTS / f"sheet-referee-error-{width}.png")
        hand.locator('[data-han] input[value="2"]').click()  # as it was: the phone keeps nothing
        hand.locator('[data-fu] input[value="30"]').click()
        expect(hand.locator("[data-hand-errors] li")).to_have_count(0)
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_folded_hands_are_named_by_the_text_they_show(
    new_context: Any, live_server: Any, submitted: dict[str, Any]
) -> None:
    """Each folded hand's button ("1. East 1 · Ron …") has a name that starts with what it shows (WCAG 2.5.3):
    axe finds no ``label-content-name-mismatch`` on the sheet."""
    context = new_context(viewport=SIZES[0][0], has_touch=True)
    context.add_init_script(AXE_SCRIPT)
    referee = context.new_page()
    log_in(referee, live_server, "referee", "pw-for-tests-only", SHEET)
    wait_until(referee, CHECKED)  # the hands' rounds drawn into their buttons
    summaries = referee.locator("[data-hand-summary]:visible")
    expect(summaries.first).to_be_visible()
    for index in range(summaries.count()):
        button = summaries.nth(index)
        assert (button.get_attribute("aria-label") or "").startswith(button.inner_text().strip())
    result = referee.evaluate(
        "() => axe.run(document, {runOnly: {type: 'rule', values: ['label-content-name-mismatch']}})"
    )
    assert result["passes"], "axe looked at the hands' buttons"
    assert [node["target"] for rule in result["violations"] for node in rule["nodes"]] == []
