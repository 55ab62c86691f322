"""A typical 11-hand hanchan entered with its yaku on a 390 px phone, every tap counted (each key of a
search counts as a tap): at most 60 (the issue's target; 50 here, see ``TAPS``). The common yaku are one
tap each, a rarer one found by a search (Last Tile Draw, typed "hai"), the dora counted with +, Riichi
and Fully Concealed Hand counted from the hand; the engine gives the han, so the sheet stores the yaku
and the replay the values. Nothing on the page is cut, overlapping or too small to tap. A multiple ron
(EMA 2016) is entered winner by winner, each with his own yaku or han, and a saved one opens so again."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.browser.conftest import layout_problems, shoot, unstuck_layout_problems
from tests.browser.test_offline_entry import Taps, open_sheet
from tests.browser.test_sheet_phone import SHOTS
from tournament.models import Table

MAX_TAPS = 60  # issue 36: "a typical 11-hand hanchan with yaku in at most 60 taps"
TAPS = 50  # counted by this test (what docs/tournament.md states)

# Seats: Ana East, Ben South, Cho West, Dai North. Each hand as the engine stores it (the tapping is
# in ``enter``: the win, the riichi declarers, the yaku, "open hand", the dora, the fu when not 30).
HANCHAN: list[dict[str, Any]] = [
    # E1: Ana (dealer) riichi, Pinfu, All Simples, 1 dora: 4 han 30 fu, 12,000.
    {
        "result": "ron",
        "winner": "Ana",
        "loser": "Cho",
        "yaku": ["pinfu", "tanyao"],
        "dora": 1,
        "riichi": ["Ana"],
    },
    # E1-1: Ben tsumo, open White Dragon, 30 fu.
    {"result": "tsumo", "winner": "Ben", "yaku": ["yakuhai_haku"], "open": True, "fu": 30, "riichi": []},
    # E2: Cho on Dai's discard, open All Simples.
    {
        "result": "ron",
        "winner": "Cho",
        "loser": "Dai",
        "yaku": ["tanyao"],
        "open": True,
        "fu": 30,
        "riichi": [],
    },
    # E3: draw, Ana and Dai tenpai; the dealer (Cho) noten: the deal passes.
    {"result": "draw", "tenpai": ["Ana", "Dai"], "riichi": []},
    # E4-1: Dai (dealer) riichi, Seven Pairs, 2 dora: 5 han, a mangan.
    {"result": "ron", "winner": "Dai", "loser": "Ben", "yaku": ["chiitoitsu"], "dora": 2, "riichi": ["Dai"]},
    # E4-2: Ana, open Red Dragon and All Pungs, 40 fu.
    {
        "result": "ron",
        "winner": "Ana",
        "loser": "Ben",
        "yaku": ["toitoi", "yakuhai_chun"],
        "open": True,
        "fu": 40,
        "riichi": [],
    },
    # S1: Ben riichi, Pinfu self-draw (Fully Concealed Hand counted, 20 fu fixed).
    {"result": "tsumo", "winner": "Ben", "yaku": ["pinfu"], "riichi": ["Ben"]},
    # S2: Cho, open Half Flush and White Dragon, 40 fu.
    {
        "result": "ron",
        "winner": "Cho",
        "loser": "Ana",
        "yaku": ["honitsu", "yakuhai_haku"],
        "open": True,
        "fu": 40,
        "riichi": [],
    },
    # S3: Dai riichi, All Simples, 2 dora, 40 fu: a mangan.
    {
        "result": "ron",
        "winner": "Dai",
        "loser": "Cho",
        "yaku": ["tanyao"],
        "dora": 2,
        "fu": 40,
        "riichi": ["Dai"],
    },
    # S4: draw, the dealer (Dai) tenpai: he keeps the deal.
    {"result": "draw", "tenpai": ["Dai"], "riichi": []},
    # S4-1: Ana tsumo on the last tile, open All Simples and Last Tile Draw (found by a search): the end.
    {"result": "tsumo", "winner": "Ana", "yaku": ["tanyao", "haitei"], "open": True, "fu": 30, "riichi": []},
]
SEARCHED = {"haitei": "hai"}  # the yaku found by typing, and what is typed


def enter(tap: Taps, page: Any, hand: Any, outcome: dict[str, Any], count_keys: list[int]) -> None:
    """One hand as a referee taps it: the result first (the rest of a new hand shows after it)."""
    for name in outcome.get("riichi", []) if outcome["result"] == "draw" else []:
        tap(hand.locator("[data-riichi]").get_by_role("button", name=name, exact=True))
    if outcome["result"] == "draw":
        tap(hand.get_by_label("Exhaustive draw"))
        for name in outcome["tenpai"]:
            tap(hand.get_by_role("group", name="Tenpai").get_by_role("button", name=name))
        return
    source = outcome["loser"] if outcome["result"] == "ron" else "tsumo"
    tap(hand.locator(f'[data-win="{outcome["winner"]}|{source}"]'))
    for name in outcome.get("riichi", []):
        tap(hand.locator("[data-riichi]").get_by_role("button", name=name, exact=True))
    if not hand.locator('[data-mode-choice="yaku"]').is_checked():
        tap(hand.locator('[data-mode-choice="yaku"]'))
    for yaku in outcome["yaku"]:
        if yaku in SEARCHED:
            search = hand.locator("[data-yaku-search]")
            tap(search)
            for key in SEARCHED[yaku]:
                search.press(key)
                count_keys.append(1)
            tap(hand.locator(f'[data-yaku-results] [data-yaku="{yaku}"]'))
        else:
            tap(hand.locator(f'[data-yaku="{yaku}"]').first)
    if outcome.get("open"):
        tap(hand.locator("[data-open-hand]"))
    for _ in range(outcome.get("dora", 0)):
        tap(hand.locator('[data-stepper="dora"] [data-step="+1"]'))
    if "fu" in outcome and outcome["fu"] != 30:
        tap(hand.get_by_label(f"{outcome['fu']} fu", exact=True))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_typical_hanchan_with_yaku_takes_at_most_60_taps(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    _, page = open_sheet(new_context, live_server)
    tap = Taps(page)
    keys: list[int] = []
    for number, outcome in enumerate(HANCHAN, start=1):
        hand = page.locator(f'[data-hand="{number}"]')
        enter(tap, page, hand, outcome, keys)
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    # What the yaku are worth, under the chips: hand 1 is 4 han 30 fu, hand 7 has its fu fixed by Pinfu.
    assert page.locator('[data-hand="1"] [data-yaku-value]').text_content() == "4 han 30 fu"
    assert page.locator('[data-hand="7"] [data-yaku-value]').text_content() == "3 han 20 fu"
    # Measured on a screen as tall as the page, so that the sticky clock and save bar sit where they
    # belong, not over the text scrolled under them (as tests/browser/test_sheet_phone.py does).
    size = page.viewport_size
    page.set_viewport_size(
        {"width": size["width"], "height": page.evaluate("document.documentElement.scrollHeight")}
    )
    problems = layout_problems(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, SHOTS / "sheet-yaku-390.png")
    page.set_viewport_size(size)
    tap(page.get_by_role("button", name="Submit", exact=True))
    expect(page.locator(".messages")).to_contain_text("Submitted (version 1)")
    taps = tap.count + len(keys)
    sheet = ScoreSheet.objects.get(table=open_table)
    assert sheet.entry["hands"] == HANCHAN
    assert sheet.replay["finished"] is True
    replayed = sheet.replay["hands"]
    assert replayed[0]["deltas"]["Ana"] == 12000  # Riichi, Pinfu, All Simples, 1 dora: 4 han 30 fu
    assert replayed[0]["yaku"]["Ana"]["yaku"] == ["riichi", "pinfu", "tanyao"]
    assert replayed[6]["yaku"]["Ben"] == {
        "yaku": ["riichi", "menzen_tsumo", "pinfu"], "han": 3, "fu": 20, "source": "entered",
    }  # fmt: skip
    print(f"\nyaku entry on a 390 px phone: {len(HANCHAN)} hands, {taps} taps ({len(keys)} of them keys)")
    assert taps <= MAX_TAPS
    assert taps == TAPS  # the figure the documentation states
    assert problems == [], problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_combination_is_shown_beside_its_hand(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    hand.locator('[data-win="Ben|Cho"]').click()
    hand.locator('[data-mode-choice="yaku"]').click()
    hand.locator('[data-yaku="pinfu"]').click()
    hand.locator("[data-open-hand]").click()
    errors = hand.locator("[data-hand-errors] li")
    expect(errors).to_have_count(1)
    expect(errors).to_contain_text("Pinfu: the hand must be closed")
    expect(errors).to_contain_text("§6.5.1")
    hand.locator("[data-open-hand]").click()
    expect(errors).to_have_count(0)
    expect(hand.locator("[data-yaku-value]")).to_have_text("1 han 30 fu")
    expect(hand.locator("[data-add-winner]")).to_be_hidden()  # WRCR 2015 §5.7.6: one winner (head bump)


# Under EMA 2016 (multiple ron, three winners allowed). Hand 1 (East 1, Ana deals), Cho discards: Dai
# (riichi) Pinfu, All Simples, 1 dora = 4 han 30 fu, 7,680 -> 7,700 (no kiriage), his stake back; Ben
# Seven Pairs, 2 dora = 4 han 25 fu, 1,600 x 4 = 6,400. Hand 2 (East 2, Ben deals), Ana discards: Ben Red
# Dragon 1 han 40 fu, 320 x 6 = 1,920 -> 2,000; Cho open All Simples 1 han 30 fu, 1,000; Dai open Half
# Flush 2 han 40 fu, 2,560 -> 2,600.
DOUBLE_RON = {
    "result": "ron",
    "loser": "Cho",
    "wins": [
        {"winner": "Dai", "yaku": ["pinfu", "tanyao"], "dora": 1},
        {"winner": "Ben", "yaku": ["chiitoitsu"], "dora": 2},
    ],
    "riichi": ["Dai"],
}
TRIPLE_RON = {
    "result": "ron",
    "loser": "Ana",
    "wins": [
        {"winner": "Ben", "yaku": ["yakuhai_chun"], "fu": 40},
        {"winner": "Cho", "yaku": ["tanyao"], "open": True, "fu": 30},
        {"winner": "Dai", "yaku": ["honitsu"], "open": True, "fu": 40},
    ],
    "riichi": [],
}


def enter_win(hand: Any, win: dict[str, Any]) -> None:
    """One win's yaku, dora, "open hand" and fu, in the block it is entered in."""
    for yaku in win["yaku"]:
        hand.locator(f'[data-yaku="{yaku}"]').first.click()
    if win.get("open"):
        hand.locator("[data-open-hand]").first.click()
    for _ in range(win.get("dora", 0)):
        hand.locator('[data-stepper="dora"] [data-step="+1"]').first.click()
    if win.get("fu", 30) != 30:
        hand.get_by_label(f"{win['fu']} fu", exact=True).first.click()


def enter_multiple_ron(hand: Any, outcome: dict[str, Any]) -> None:
    first, *others = outcome["wins"]
    hand.locator(f'[data-win="{first["winner"]}|{outcome["loser"]}"]').click()
    for name in outcome["riichi"]:
        hand.locator("[data-riichi]").get_by_role("button", name=name, exact=True).click()
    if not hand.locator('[data-mode-choice="yaku"]').is_checked():
        hand.locator('[data-mode-choice="yaku"]').click()
    enter_win(hand, first)
    for number, win in enumerate(others, start=2):
        hand.locator("[data-add-winner]").click()
        block = hand.locator(f'[data-extra-win="{number}"]')
        block.locator(f'[data-pick-winner="{win["winner"]}"]').click()
        enter_win(block, win)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_double_and_a_triple_ron_are_entered_with_each_winners_yaku(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    tournament = open_table.round.tournament
    tournament.ruleset_preset = "EMA2016"
    tournament.save(update_fields=["ruleset_preset"])
    _, page = open_sheet(new_context, live_server)
    first = page.locator('[data-hand="1"]')
    enter_multiple_ron(first, DOUBLE_RON)
    ben = first.locator('[data-extra-win="2"]')
    expect(first.locator("[data-yaku-value]").first).to_have_text("4 han 30 fu")  # Riichi counted for Dai
    expect(ben.locator("[data-yaku-value]")).to_have_text("4 han 25 fu")  # Seven Pairs fixes the fu
    expect(ben.locator('[data-stepper="ura"]')).to_have_count(0)  # Ben did not declare riichi
    # A refusal of Ben's yaku is named for Ben, beside the hand; his value comes back once it is gone.
    ben.locator("[data-open-hand]").click()
    errors = first.locator("[data-hand-errors] li")
    expect(errors).to_have_count(1)
    expect(errors).to_contain_text("Ben: Seven Pairs: the hand must be closed")
    ben.locator("[data-open-hand]").click()
    expect(errors).to_have_count(0)
    expect(first.locator("[data-running]")).to_contain_text("Ben 36,400 · Cho 15,900 · Dai 37,700")
    second = page.locator('[data-hand="2"]')
    enter_multiple_ron(second, TRIPLE_RON)
    expect(second.locator("[data-add-winner]")).to_be_hidden()  # three winners: the most EMA 2016 allows
    # The three winners' blocks on a 390 px phone: nothing cut, overlapping or too small to tap.
    size = page.viewport_size
    page.set_viewport_size(
        {"width": size["width"], "height": page.evaluate("document.documentElement.scrollHeight")}
    )
    problems = layout_problems(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, SHOTS / "sheet-triple-ron-390.png")
    page.set_viewport_size(size)
    assert problems == [], problems
    expect(first.locator("[data-hand-summary]")).to_have_text(
        "1. E1 · Ron: Dai, Ben from Cho; Dai: Pinfu, All Simples, 1 dora; Ben: Seven Pairs, 2 dora"
        " · riichi Dai"
    )
    page.locator("[data-ended-by-time]").check()
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    page.get_by_role("button", name="Submit", exact=True).click()
    # The submission replays the sheet and loads the page again: on a loaded machine, more than 5 s.
    expect(page.locator(".messages")).to_contain_text("Submitted (version 1)", timeout=20_000)
    sheet = ScoreSheet.objects.get(table=open_table)
    assert sheet.entry["hands"] == [DOUBLE_RON, TRIPLE_RON]
    double, triple = sheet.replay["hands"]
    assert double["deltas"] == {"Ana": 0, "Ben": 6400, "Cho": -14100, "Dai": 7700}
    assert {name: (won["yaku"], won["han"], won["fu"]) for name, won in double["yaku"].items()} == {
        "Dai": (["riichi", "pinfu", "tanyao"], 4, 30),
        "Ben": (["chiitoitsu"], 4, 25),
    }
    assert triple["deltas"] == {"Ana": -5600, "Ben": 2000, "Cho": 1000, "Dai": 2600}
    assert {name: (won["han"], won["fu"]) for name, won in triple["yaku"].items()} == {
        "Ben": (1, 40), "Cho": (1, 30), "Dai": (2, 40),
    }  # fmt: skip
    assert sheet.replay["final_points"] == {"Ana": 24400, "Ben": 38400, "Cho": 16900, "Dai": 40300}


LANGUAGES = ["en", "ja", "ru", "fr", "de", "zh-hans", "ko"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_yaku_form_fits_a_360_px_phone_in_every_language(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """A win being entered by its yaku (chips pressed, a search with its results, the dora stepper, the
    value line), on the narrowest phone in each language: nothing cut, overlapping or too small."""
    found: dict[str, list[str]] = {}
    for language in LANGUAGES:
        _, page = open_sheet(new_context, live_server)  # a phone of its own: nothing kept from the last
        page.set_viewport_size({"width": 360, "height": 780})
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(live_server.url + "/t/harbour-open/sheet/1/1/")
        assert page.locator("html").get_attribute("lang") == language
        hand = page.locator('[data-hand="1"]')
        hand.locator('[data-win="Ben|Cho"]').click()
        hand.locator("[data-riichi]").get_by_role("button", name="Ben", exact=True).click()
        hand.locator('[data-mode-choice="yaku"]').click()
        hand.locator('[data-yaku="yakuhai_seat_wind"]').click()
        hand.locator('[data-yaku="honitsu"]').click()
        hand.locator('[data-stepper="dora"] [data-step="+1"]').click()
        hand.locator("[data-yaku-search]").fill("ta")
        expect(hand.locator("[data-yaku-results] [data-yaku]").first).to_be_visible()
        # The sticky save bar where it stands at the page's end, not over the results a person scrolls
        # under it (the engine's check may still be redrawing them).
        if problems := unstuck_layout_problems(page):
            found[language] = problems
        size = page.viewport_size
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": height})
        shoot(page, SHOTS / f"sheet-yaku-360-{language}.png", language=language)
        page.set_viewport_size(size)
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_saved_win_with_yaku_and_han_opens_by_its_yaku(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """A hand read from a game log carries its yaku and the han they give: the editor opens it by its
    yaku (not as a hand entered elsewhere), and the han follow from them again."""
    log_hand = {
        "result": "ron", "winner": "Ben", "loser": "Cho", "han": 3, "fu": 30,
        "yaku": ["riichi", "pinfu"], "dora": 1, "riichi": ["Ben"],
    }  # fmt: skip
    referee = open_table.round.tournament.staff.get().user
    sheets.save_sheet(open_table, {"form": "hands", "hands": [log_hand], "ended_by_time": True}, referee)
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    expect(hand.locator("[data-hand-summary]")).to_contain_text("Ron: Ben from Cho, Pinfu, 1 dora")
    hand.locator("[data-hand-summary]").click()
    expect(hand.locator('[data-mode-choice="yaku"]')).to_be_checked()
    expect(hand.locator('[data-yaku="pinfu"]')).to_have_attribute("aria-pressed", "true")
    expect(hand.locator("[data-yaku-value]")).to_have_text("3 han 30 fu")
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_saved_double_ron_from_a_game_log_opens_by_its_winners(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """The double ron of tests/data/tenhou/double-ron.json as the log import stores it (each win with its
    yaku and the han they give): the editor opens it winner by winner, not as a hand entered elsewhere.
    East 1, Ana discards: Cho All Simples, 1 dora, 2 han 30 fu, 2,000, and Ben's riichi stick (Cho is
    the closest winner); Dai Red Dragon, 1 han 30 fu, 1,000."""
    tournament = open_table.round.tournament
    tournament.ruleset_preset = "EMA2016"
    tournament.save(update_fields=["ruleset_preset"])
    log_hand = {
        "result": "ron", "loser": "Ana", "riichi": ["Ben"],
        "wins": [
            {"winner": "Cho", "han": 2, "fu": 30, "yaku": ["tanyao"], "dora": 1},
            {"winner": "Dai", "han": 1, "fu": 30, "yaku": ["yakuhai_chun"]},
        ],
    }  # fmt: skip
    referee = tournament.staff.get().user
    sheets.save_sheet(open_table, {"form": "hands", "hands": [log_hand], "ended_by_time": True}, referee)
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    expect(hand.locator("[data-hand-summary]")).to_have_text(
        "1. E1 · Ron: Cho, Dai from Ana; Cho: All Simples, 1 dora; Dai: Yakuhai (Red Dragon) · riichi Ben"
    )
    hand.locator("[data-hand-summary]").click()
    expect(hand.locator('[data-win="Cho|Ana"]')).to_be_checked()
    expect(hand.locator("[data-yaku-value]").first).to_have_text("2 han, and the fu below")
    dai = hand.locator('[data-extra-win="2"]')
    expect(dai.locator('[data-pick-winner="Dai"]')).to_be_checked()
    expect(dai.locator('[data-yaku="yakuhai_chun"]')).to_have_attribute("aria-pressed", "true")
    expect(dai.locator("[data-yaku-value]")).to_have_text("1 han, and the fu below")
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    expect(hand.locator("[data-running]")).to_have_text(
        "After: Ana 27,000 · Ben 29,000 · Cho 33,000 · Dai 31,000"
    )
    # Removing the second winner leaves a single ron, stored as one again.
    dai.locator("[data-remove-winner]").click()
    expect(hand.locator("[data-extra-win]")).to_have_count(0)
    expect(hand.locator("[data-running]")).to_contain_text("Cho 33,000 · Dai 30,000")
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("[data-save-status]")).to_have_text("Saved (version 2)")
    assert ScoreSheet.objects.get(table=open_table).entry["hands"] == [
        {
            "result": "ron",
            "winner": "Cho",
            "loser": "Ana",
            "yaku": ["tanyao"],
            "dora": 1,
            "fu": 30,
            "riichi": ["Ben"],
        }
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_double_ron_by_han_and_fu_gives_each_winner_his_own_value(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """Entered by han and fu, each winner of a double ron has his own rows (EMA 2016, East 1, Cho
    discards): Ben 2 han 30 fu, 480 x 4 = 1,920 -> 2,000; Dai 3 han 40 fu, 1,280 x 4 = 5,120 -> 5,200."""
    tournament = open_table.round.tournament
    tournament.ruleset_preset = "EMA2016"
    tournament.save(update_fields=["ruleset_preset"])
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    hand.locator('[data-win="Ben|Cho"]').click()
    hand.get_by_label("2 han", exact=True).click()
    hand.locator("[data-add-winner]").click()
    dai = hand.locator('[data-extra-win="2"]')
    expect(dai.locator("[data-pick-winner]")).to_have_count(3)  # every player but the discarder
    dai.locator('[data-pick-winner="Dai"]').click()
    dai.get_by_label("3 han", exact=True).click()
    dai.get_by_label("40 fu", exact=True).click()
    expect(hand.locator("[data-running]")).to_have_text(
        "After: Ana 30,000 · Ben 32,000 · Cho 22,800 · Dai 35,200"
    )
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("[data-save-status]")).to_have_text("Saved (version 1)")
    assert ScoreSheet.objects.get(table=open_table).entry["hands"] == [
        {
            "result": "ron",
            "loser": "Cho",
            "wins": [{"winner": "Ben", "han": 2, "fu": 30}, {"winner": "Dai", "han": 3, "fu": 40}],
            "riichi": [],
        }
    ]
