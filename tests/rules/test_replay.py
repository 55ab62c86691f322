"""Hanchan replay: sheets with final points computed by hand, in both entry forms, and invalid sheets."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.rules.replay import replay
from scoring.rules.ruleset import Ruleset, get_ruleset

P = ["Ana", "Ben", "Cho", "Dai"]


def ron(winner: str, loser: str, han: int, fu: int | None = None, riichi: tuple[str, ...] = (), **more: Any):
    hand = {"result": "ron", "winner": winner, "loser": loser, "han": han, "riichi": list(riichi), **more}
    if fu is not None:
        hand["fu"] = fu
    return hand


def tsumo(winner: str, han: int, fu: int | None = None, riichi: tuple[str, ...] = (), **more: Any):
    hand = {"result": "tsumo", "winner": winner, "han": han, "riichi": list(riichi), **more}
    if fu is not None:
        hand["fu"] = fu
    return hand


def draw(tenpai: tuple[str, ...], riichi: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"result": "draw", "tenpai": list(tenpai), "riichi": list(riichi)}


def deltas(ana: int, ben: int, cho: int, dai: int, riichi: tuple[str, ...] = (), **more: Any):
    return {"deltas": {"Ana": ana, "Ben": ben, "Cho": cho, "Dai": dai}, "riichi": list(riichi), **more}


def sheet(hands: list[dict[str, Any]], ruleset: str = "WRC2015", **more: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "players": P, "hands": hands, **more}


def as_deltas(outcome_sheet: dict[str, Any]) -> dict[str, Any]:
    """The same sheet entered as the deltas of each hand (draws and chombo keep what deltas cannot show)."""
    replayed = replay(outcome_sheet).as_json()
    hands = []
    for hand in replayed["hands"]:
        entry = {"deltas": hand["deltas"], "riichi": hand["riichi"]}
        if hand["result"] == "draw":
            entry["tenpai"] = hand["tenpai"]
        if hand["result"] == "chombo":
            entry["chombo"] = hand["offenders"]
        hands.append(entry)
    return {**outcome_sheet, "hands": hands}


def rules(result: dict[str, Any]) -> list[tuple[int | None, str]]:
    return [(error["hand"], error["rule"]) for error in result["errors"]]


# --- A full hanchan, WRCR 2015 ------------------------------------------------------------------------
# Worked by hand (seat order Ana, Ben, Cho, Dai; Ana starts East):
#  1 E1 0h: Ben ron Cho 2h30f 2,000                      -> 30000 32000 28000 30000, deal passes
#  2 E2 0h: Ben (dealer) tsumo 3h30f 1,920 -> 2,000 all   -> 28000 38000 26000 28000, Ben stays
#  3 E2 1h: Dai ron Ana 1h30f 1,000 + 300                 -> 26700 38000 26000 29300
#  4 E3 0h: draw, Cho and Dai tenpai: 1,500 each way      -> 25200 36500 27500 30800, Cho stays
#  5 E3 1h: Ana riichi, ron Ben 4h30f = mangan (kiriage) 8,000 + 300, takes back her stick
#                                                         -> 33500 28200 27500 30800
#  6 E4 0h: Cho tsumo 1h30f 300/500                       -> 33200 27900 28600 30300
#  7 S1 0h: draw, nobody tenpai                           -> unchanged, Ana noten: deal passes
#  8 S2 1h: draw, Ben riichi and alone tenpai: +3,000 - 1,000 stake, 1 stick on the table
#                                                         -> 32200 29900 27600 29300
#  9 S2 2h: Cho ron Dai 3h40f 5,200 + 600, + 1,000 stick  -> 32200 29900 34400 23500
# 10 S3 0h: Ana ron Cho 1h40f 1,300                       -> 33500 29900 33100 23500
# 11 S4 0h: Dai (dealer) tsumo 2h40f 1,300 all            -> 32200 28600 31800 27400
# 12 S4 1h: Ben ron Ana 2h30f 2,000 + 300: end            -> 29900 30900 31800 27400
FULL = [
    ron("Ben", "Cho", 2, 30),
    tsumo("Ben", 3, 30),
    ron("Dai", "Ana", 1, 30),
    draw(("Cho", "Dai")),
    ron("Ana", "Ben", 4, 30, riichi=("Ana",)),
    tsumo("Cho", 1, 30),
    draw(()),
    draw(("Ben",), riichi=("Ben",)),
    ron("Cho", "Dai", 3, 40),
    ron("Ana", "Cho", 1, 40),
    tsumo("Dai", 2, 40),
    ron("Ben", "Ana", 2, 30),
]
FULL_DELTAS = [
    deltas(0, 2000, -2000, 0),
    deltas(-2000, 6000, -2000, -2000),
    deltas(-1300, 0, 0, 1300),
    deltas(-1500, -1500, 1500, 1500),
    deltas(8300, -8300, 0, 0, riichi=("Ana",)),
    deltas(-300, -300, 1100, -500),
    deltas(0, 0, 0, 0),
    deltas(-1000, 2000, -1000, -1000, riichi=("Ben",)),
    deltas(0, 0, 6800, -5800),
    deltas(1300, 0, -1300, 0),
    deltas(-1300, -1300, -1300, 3900),
    deltas(-2300, 2300, 0, 0),
]
FULL_FINAL = {"Ana": 29900, "Ben": 30900, "Cho": 31800, "Dai": 27400}


@pytest.mark.parametrize("hands", [FULL, FULL_DELTAS], ids=["outcomes", "deltas"])
def test_full_hanchan(hands: list[dict[str, Any]]) -> None:
    result = replay(sheet(hands, final_points=FULL_FINAL, riichi_sticks_left=0)).as_json()
    assert result["errors"] == []
    assert result["valid"] and result["finished"]
    assert result["final_points"] == FULL_FINAL
    assert [(hand["round"], hand["dealer"], hand["honba"], hand["sticks"]) for hand in result["hands"]] == [
        ("East 1", "Ana", 0, 0),
        ("East 2", "Ben", 0, 0),
        ("East 2", "Ben", 1, 0),
        ("East 3", "Cho", 0, 0),
        ("East 3", "Cho", 1, 0),
        ("East 4", "Dai", 0, 0),
        ("South 1", "Ana", 0, 0),
        ("South 2", "Ben", 1, 0),
        ("South 2", "Ben", 2, 1),
        ("South 3", "Cho", 0, 0),
        ("South 4", "Dai", 0, 0),
        ("South 4", "Dai", 1, 0),
    ]
    assert result["hands"][4]["points"] == {"Ana": 33500, "Ben": 28200, "Cho": 27500, "Dai": 30800}
    assert result["ranks"] == {"Ana": 3, "Ben": 2, "Cho": 1, "Dai": 4}
    assert result["uma"] == {"Ana": "-5", "Ben": "5", "Cho": "15", "Dai": "-15"}
    assert result["scores"] == {"Ana": "-5.1", "Ben": "5.9", "Cho": "16.8", "Dai": "-17.6"}
    assert result["chombo"] == []
    assert result["riichi_sticks_left"] == 0


# --- More sheets, each worked by hand ---------------------------------------------------------------------

SHEETS: dict[str, tuple[dict[str, Any], dict[str, int], dict[str, str]]] = {
    # EMA 2016, no kiriage: 4h30f ron 7,700; dealer 3h60f ron 11,600; 4h30f tsumo 2,000/3,900 + 100 each.
    # 22300 37700 30000 30000 -> 22300 49300 18400 30000 -> 20200 45300 16300 38200, ended by time.
    "ema2016-no-kiriage": (
        sheet([ron("Ben", "Ana", 4, 30), ron("Ben", "Cho", 3, 60), tsumo("Dai", 4, 30)], "EMA2016",
              ended_by_time=True),
        {"Ana": 20200, "Ben": 45300, "Cho": 16300, "Dai": 38200},
        {"Ana": "-14.8", "Ben": "30.3", "Cho": "-28.7", "Dai": "13.2"},
    ),
    # Liability (WRCR 2015 §6.2): Cho's yakuman ron on Dai, Ben liable: 16,000 each; then Ana's yakuman
    # self-draw with Dai liable: Dai pays all 32,000 and goes below zero (§4.1). Ana and Cho tie first.
    "liability": (
        sheet([ron("Cho", "Dai", 0, yakuman=1, liable="Ben"), tsumo("Ana", 0, yakuman=1, liable="Dai")],
              ended_by_time=True),
        {"Ana": 62000, "Ben": 14000, "Cho": 62000, "Dai": -18000},
        {"Ana": "42", "Ben": "-21", "Cho": "42", "Dai": "-63"},
    ),
    # Chombo (§7.1): Cho's chombo returns Ben's stake; Ben alone tenpai with riichi: +2,000 and a stick;
    # Dai's noten riichi entered as chombo: no change, the stick stays; Ana riichi ron on Dai 2h40f
    # 2,600 + 300 with 2 sticks.  29000 32000 29000 29000 -> 32900 32000 29000 26100.
    "chombo": (
        sheet([{"result": "chombo", "offender": "Cho", "riichi": ["Ben"]},
               draw(("Ben",), riichi=("Ben",)),
               {"result": "chombo", "offender": "Dai", "riichi": ["Dai"]},
               ron("Ana", "Dai", 2, 40, riichi=("Ana",))], ended_by_time=True),
        {"Ana": 32900, "Ben": 32000, "Cho": 29000, "Dai": 26100},
        {"Ana": "17.9", "Ben": "7", "Cho": "-6", "Dai": "-18.9"},
    ),
    # South 4: the dealer keeps the deal (no agari yame, §5.9.1) until a non-dealer wins.
    "south-4-continues": (
        sheet([ron("Ben", "Ana", 1, 30), ron("Cho", "Ben", 1, 30), ron("Dai", "Cho", 1, 30),
               ron("Ana", "Dai", 1, 30), ron("Ben", "Ana", 1, 30), ron("Cho", "Ben", 1, 30),
               ron("Dai", "Cho", 1, 30), tsumo("Dai", 1, 30), ron("Dai", "Ana", 1, 30),
               ron("Ana", "Ben", 1, 30)]),
        {"Ana": 28300, "Ben": 27900, "Cho": 29500, "Dai": 34300},
        {"Ana": "-6.7", "Ben": "-17.1", "Cho": "4.5", "Dai": "19.3"},
    ),
    # A stick left on the table at the end is collected by nobody (§5.7.4, §5.9); Cho and Dai tie third.
    "stick-left": (
        sheet([draw(("Ana", "Ben"), riichi=("Ana",))], ended_by_time=True, riichi_sticks_left=1),
        {"Ana": 30500, "Ben": 31500, "Cho": 28500, "Dai": 28500},
        {"Ana": "5.5", "Ben": "16.5", "Cho": "-11.5", "Dai": "-11.5"},
    ),
    # EMA 2016 double ron: Cho (closest to Ben) takes the sticks, Dai takes back his own stake; then
    # Ben (dealer) and Dai on Ana, Ben takes his own stick and keeps the deal; Cho ron Dai 1,000 + 300.
    "multiple-ron": (
        sheet([{"result": "ron", "loser": "Ben", "riichi": ["Dai"],
                "wins": [{"winner": "Dai", "han": 1, "fu": 40}, {"winner": "Cho", "han": 2, "fu": 30}]},
               {"result": "ron", "loser": "Ana", "riichi": ["Ben"],
                "wins": [{"winner": "Ben", "han": 2, "fu": 30}, {"winner": "Dai", "han": 1, "fu": 30}]},
               ron("Cho", "Dai", 1, 30)], "EMA2016", ended_by_time=True),
        {"Ana": 26100, "Ben": 29600, "Cho": 33300, "Dai": 31000},
        {"Ana": "-18.9", "Ben": "-5.4", "Cho": "18.3", "Dai": "6"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SHEETS))
@pytest.mark.parametrize("form", ["outcomes", "deltas"])
def test_sheets(name: str, form: str) -> None:
    original, final, scores = SHEETS[name]
    entered = original if form == "outcomes" else as_deltas(original)
    result = replay({**entered, "final_points": final}).as_json()
    assert result["errors"] == []
    assert result["final_points"] == final
    assert result["scores"] == scores


def test_chombo_penalties_are_listed_not_paid() -> None:
    result = replay(SHEETS["chombo"][0]).as_json()
    assert result["chombo"] == [
        {"player": "Cho", "hand": 1, "points": -20},
        {"player": "Dai", "hand": 3, "points": -20},
    ]
    # No counter, no rotation, the stick of hand 2 waits (§7.1).
    assert [(hand["round"], hand["honba"], hand["sticks"]) for hand in result["hands"]] == [
        ("East 1", 0, 0), ("East 1", 0, 0), ("East 2", 1, 1), ("East 2", 1, 1),
    ]  # fmt: skip


def test_multiple_ron_dealer_keeps_the_deal() -> None:
    result = replay(SHEETS["multiple-ron"][0]).as_json()
    assert [hand["winners"] for hand in result["hands"][:2]] == [["Cho", "Dai"], ["Ben", "Dai"]]
    assert result["hands"][0]["deltas"] == {"Ana": 0, "Ben": -3300, "Cho": 2000, "Dai": 1300}
    assert (result["hands"][2]["round"], result["hands"][2]["honba"]) == ("East 2", 1)


def test_multiple_ron_is_a_head_bump_under_wrcr() -> None:
    wrc = {**SHEETS["multiple-ron"][0], "ruleset": "WRC2015"}
    result = replay(wrc).as_json()
    assert rules(result)[:2] == [(1, "head-bump (WRCR 2015 §5.7.6)"), (2, "head-bump (WRCR 2015 §5.7.6)")]
    assert result["errors"][0]["message"] == (
        "hand 1 (East 1, 0 honba): Cho and Dai won on the same discard, but under WRC2015 only the player "
        "closest to the discarder in turn order wins: Cho (head bump)"
    )
    # Only Cho is paid; Dai's riichi stick goes to Cho.
    assert result["hands"][0]["deltas"] == {"Ana": 0, "Ben": -2000, "Cho": 3000, "Dai": -1000}


def test_the_same_sheet_under_another_ruleset() -> None:
    original, final, _ = SHEETS["ema2016-no-kiriage"]
    result = replay({**original, "final_points": final}, get_ruleset("WRC2015")).as_json()
    assert not result["valid"]
    assert {rule for _, rule in rules(result)} == {"final-points (WRCR 2015 §5.9)"}


def test_sticks_left_to_first_variant() -> None:
    custom = Ruleset.custom(sticks_left_to_first=True)
    result = replay(SHEETS["stick-left"][0] | {"riichi_sticks_left": 0}, custom).as_json()
    assert result["final_points"] == {"Ana": 30500, "Ben": 32500, "Cho": 28500, "Dai": 28500}
    assert result["valid"]


def test_ambiguous_zero_deltas_follow_the_rest_of_the_sheet() -> None:
    # Hand 1 changes nothing: everybody tenpai (Ana keeps the deal) or nobody (the deal passes to Ben).
    # Hand 2 is a 1,000-all self-draw by Ben with one counter: only the second reading makes Ben the dealer.
    hands = [deltas(0, 0, 0, 0), deltas(-1100, 3300, -1100, -1100)]
    result = replay(sheet(hands)).as_json()
    assert result["errors"] == []
    assert [(hand["round"], hand["result"], hand.get("tenpai")) for hand in result["hands"]] == [
        ("East 1", "draw", []),
        ("East 2", "tsumo", None),
    ]


# --- Invalid sheets ---------------------------------------------------------------------------------------


def test_every_error_is_reported() -> None:
    hands = [
        ron("Ben", "Cho", 1, 20),  # illegal han/fu
        deltas(0, 3800, -3800, 0),  # 3,800 is no ron
        ron("Eve", "Ana", 2, 30),  # unknown player
        draw(("Ana",), riichi=("Dai",)),  # noten riichi
        deltas(150, -150, 0, 0),  # not a multiple of 100
    ]
    result = replay(
        sheet(hands, final_points={"Ana": 30000, "Ben": 30000, "Cho": 30000, "Dai": 31000})
    ).as_json()
    assert not result["valid"]
    assert rules(result) == [
        (1, "han-fu (WRCR 2015 §6.1, §6.3)"),
        (2, "payment (WRCR 2015 §6.1)"),
        (3, "unknown-player"),
        (4, "noten-riichi (WRCR 2015 §7.2)"),
        (5, "points-multiple (WRCR 2015 §6.1)"),
        (5, "riichi-sticks (WRCR 2015 §5.7.4, §6.1)"),
        (None, "points-total (WRCR 2015 §5.7.4, §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
    ]
    messages = [error["message"] for error in result["errors"]]
    assert messages[0] == (
        "hand 1 (East 1, 0 honba): 1 han 20 fu is not a legal ron: 20 fu is only a pinfu self-draw; "
        "a win on a discard has at least 30 fu"
    )
    assert messages[1] == (
        "hand 2 (East 2, 0 honba): +3,800 is not a legal dealer ron payment (the nearest are 3,400 or 3,900)"
    )
    assert messages[2] == "hand 3 (East 2, 1 honba): the winner 'Eve' is not a player of this table"
    assert messages[3].startswith(
        "hand 4 (East 2, 1 honba): Dai declared riichi but is noten at the exhaustive draw: that is a chombo"
    )
    assert messages[4] == "hand 5 (East 3, 2 honba): the change of Ana and Ben is not a multiple of 100"
    assert messages[5] == (
        "hand 5 (East 3, 2 honba): Ana collects 0 in riichi sticks, but 1,000 lie on the table "
        "(1 from earlier hands); the winner takes them all"
    )
    assert messages[6] == "final points add up to 121,000, not 120,000"
    assert messages[7] == "Ana ends with 33,150 by the hands, the sheet says 30,000"


def test_illegal_han_fu() -> None:
    result = replay(
        sheet([tsumo("Ben", 2, 25), ron("Cho", "Ana", 1, 25), ron("Ana", "Dai", 3, 35)])
    ).as_json()
    assert [error["message"].split(": ", 1)[1] for error in result["errors"]] == [
        "2 han 25 fu is not a legal self-draw: a Seven Pairs self-draw also has Fully Concealed Hand, "
        "so it has at least 3 han",
        "1 han 25 fu is not a legal ron: 25 fu is Seven Pairs, which has at least 2 han",
        "3 han 35 fu is not a legal ron: 35 fu does not exist (fu are 20, 25 or 30 to 110 in steps of 10)",
    ]


def test_dealer_rotation_broken_in_deltas() -> None:
    # Hand 3 is East 2 with 1 counter, Ben deals; the sheet pays Dai's self-draw as a dealer's.
    hands = copy.deepcopy(FULL_DELTAS[:3])
    hands[2] = deltas(-600, -600, -600, 1800)
    result = replay(sheet(hands)).as_json()
    assert result["errors"] == [
        {
            "hand": 3,
            "rule": "dealer-rotation (WRCR 2015 §5.7.8)",
            "message": "hand 3 (East 2, 1 honba): Dai is paid as the dealer, "
            "but the dealer of this hand is Ben",
        }
    ]


def test_dealer_rotation_broken_in_a_ron() -> None:
    # After Ben's win in hand 1 the deal passes to Ben; the sheet still pays Ana as the dealer.
    result = replay(sheet([deltas(0, 2000, -2000, 0), deltas(7700, -7700, 0, 0)])).as_json()
    assert result["errors"][0]["rule"] == "dealer-rotation (WRCR 2015 §5.7.8)"
    assert result["errors"][0]["message"] == (
        "hand 2 (East 2, 0 honba): +7,700 is a dealer's ron payment, but the dealer of this hand is Ben"
    )


def test_missing_counters_in_deltas() -> None:
    result = replay(sheet([draw(()), deltas(0, 2000, -2000, 0)])).as_json()
    assert result["errors"] == [
        {
            "hand": 2,
            "rule": "honba (WRCR 2015 §5.7.7)",
            "message": "hand 2 (East 2, 1 honba): the payments count 0 honba, but 1 lie on the table: "
            "the ron pays 300 per counter on top of the hand's value",
        }
    ]


def test_winner_must_collect_the_sticks() -> None:
    result = replay(
        sheet([draw(("Ana",), riichi=("Ana",)), deltas(-1000, 2000, -1000, 0, riichi=("Cho",))])
    ).as_json()
    assert rules(result) == [(2, "riichi-sticks (WRCR 2015 §5.7.4, §6.1)")]
    assert result["errors"][0]["message"] == (
        "hand 2 (East 1, 1 honba): Ben collects 1,000 in riichi sticks, but 2,000 lie on the table "
        "(1 from earlier hands and 1 declared in this hand); the winner takes them all"
    )


def test_noten_riichi_in_deltas() -> None:
    result = replay(sheet([deltas(500, 1500, -1500, -2500, riichi=("Ana", "Dai"))])).as_json()
    assert rules(result) == [(1, "noten-riichi (WRCR 2015 §7.2)")]


def test_hands_after_the_end() -> None:
    original = SHEETS["south-4-continues"][0]
    result = replay(
        {**original, "hands": [*original["hands"], ron("Cho", "Ana", 1, 30), tsumo("Ben", 1, 30)]}
    ).as_json()
    assert rules(result) == [(11, "hand-after-end (WRCR 2015 §5.8)")]
    assert result["errors"][0]["message"].startswith("hand 11 (West 1, 0 honba): the hanchan ended")


def test_unfinished_sheet_without_time_limit() -> None:
    result = replay(sheet(FULL[:5], ended_by_time=False)).as_json()
    assert rules(result) == [(None, "hanchan-not-finished (WRCR 2015 §5.8, §8.2)")]
    assert replay(sheet(FULL[:5])).as_json()["valid"]  # not said: not checked
    assert not replay(sheet(FULL[:5])).as_json()["finished"]


def test_wrong_final_points_and_sticks() -> None:
    final = dict(FULL_FINAL, Ana=30900, Ben=29900)
    result = replay(sheet(FULL, final_points=final, riichi_sticks_left=1)).as_json()
    assert rules(result) == [
        (None, "riichi-sticks-left (WRCR 2015 §5.9)"),
        (None, "points-total (WRCR 2015 §5.7.4, §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
        (None, "final-points (WRCR 2015 §5.9)"),
    ]
    assert result["errors"][2]["message"] == "Ana ends with 29,900 by the hands, the sheet says 30,900"


def test_outcome_with_written_deltas_must_agree() -> None:
    hand = ron("Ben", "Cho", 2, 30) | {"deltas": {"Ana": 0, "Ben": 2900, "Cho": -2900, "Dai": 0}}
    result = replay(sheet([hand])).as_json()
    assert result["errors"][0]["message"] == (
        "hand 1 (East 1, 0 honba): the sheet writes Ana 0, Ben +2,900, Cho -2,900, Dai 0 but this ron gives "
        "Ana 0, Ben +2,000, Cho -2,000, Dai 0"
    )


def test_liability_errors() -> None:
    result = replay(sheet([ron("Cho", "Dai", 3, 30, liable="Ben")])).as_json()
    assert rules(result) == [(1, "liability (WRCR 2015 §6.2)")]
    result = replay(sheet([ron("Cho", "Dai", 0, yakuman=1, liable="Ben")], "EMA2016")).as_json()
    assert (
        result["errors"][0]["message"]
        == "hand 1 (East 1, 0 honba): the EMA2016 rules have no liability payment"
    )


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"players": ["Ana", "Ana", "Cho", "Dai"], "hands": []}, "a sheet names 4 different players"),
        ({"players": P, "hands": {}}, "the sheet needs a list of hands"),
        ({"players": P, "hands": [], "ruleset": "JPML"}, "unknown ruleset 'JPML'"),
    ],
)
def test_unreadable_sheets(bad: dict[str, Any], message: str) -> None:
    result = replay(bad).as_json()
    assert not result["valid"]
    assert message in result["errors"][0]["message"]


def test_unreadable_hands_are_reported_and_skipped() -> None:
    result = replay(sheet(["ron", {"result": "kan"}, {"riichi": []}, ron("Ben", "Cho", 2, 30)])).as_json()
    assert [error["hand"] for error in result["errors"]] == [1, 2, 3]
    assert result["final_points"]["Ben"] == 32000


def test_custom_ruleset_in_the_sheet() -> None:
    custom = Ruleset.custom(uma=(20, 10, -10, -20), name="Club").to_dict()
    result = replay({"ruleset": custom, "players": P, "hands": [ron("Ben", "Cho", 2, 30)]}).as_json()
    assert result["ruleset"] == "Club"
    assert result["uma"] == {"Ana": "0", "Ben": "20", "Cho": "-20", "Dai": "0"}


def test_tiles_are_scored_and_checked_against_the_sheet() -> None:
    # Vector V013: riichi, pinfu, all simples = 3 han 30 fu; the replay fills in seat and round winds,
    # counters, sticks and the riichi flag from the moment of the hand.
    tiles = {
        "concealed": "23444m234567p678s",
        "melds": [],
        "win_tile": "4m",
        "dora_indicators": ["1z"],
        "ura_dora_indicators": [],
    }
    hands = [
        ron("Ben", "Cho", 3, 30, riichi=("Ben",), tiles=tiles),
        ron("Cho", "Ana", 2, 30, riichi=("Cho",), tiles=tiles),
        {"result": "ron", "winner": "Dai", "loser": "Ana", "riichi": ["Dai"], "tiles": tiles},
        ron("Ana", "Ben", 1, 30, tiles=tiles | {"win_tile": "9p"}),
    ]
    result = replay(sheet(hands, ended_by_time=True)).as_json()
    assert [(error["hand"], error["rule"]) for error in result["errors"]] == [
        (2, "hand-tiles (WRCR 2015 §6.1)"),
        (4, "sheet-format"),
    ]
    assert result["errors"][0]["message"] == (
        "hand 2 (East 2, 0 honba): the tiles score 3 han 30 fu (Riichi, Pinfu, All Simples), "
        "not the value on the sheet"
    )
    assert result["hands"][2]["deltas"] == {"Ana": -3900, "Ben": 0, "Cho": 0, "Dai": 3900}  # from the tiles


@pytest.mark.parametrize("flags", [["riichi"], [["riichi", True]], "riichi", 1, True])
def test_tiles_whose_flags_are_no_object_are_refused_naming_the_field(flags: Any) -> None:
    """The tiles' flags are an object of true/false flags; a list, a text or a number is refused as the
    hand evaluator refuses it in a hand given alone, naming the field, and the win is not paid."""
    tiles = {"concealed": "23444m234567p678s", "win_tile": "4m", "dora_indicators": ["1z"], "flags": flags}
    result = replay(sheet([ron("Ben", "Cho", 3, 30, riichi=("Ben",), tiles=tiles)], ended_by_time=True))
    assert [(error.hand, error.rule) for error in result.errors] == [(1, "sheet-format")]
    assert result.errors[0].message == (
        "hand 1 (East 1, 0 honba): the tiles do not describe a hand: flags: expected an object of "
        f"true/false flags, got {flags!r}"
    )
    # Flags left empty are no flags, as before.
    for empty in ({}, [], None):
        assert replay(
            sheet([ron("Ben", "Cho", 3, 30, riichi=("Ben",), tiles=tiles | {"flags": empty})])
        ).valid


def test_naming_the_tenpai_players_makes_the_hand_a_draw_not_a_multiple_ron() -> None:
    # Under EMA2016 (several winners on one discard) +1,000 / +1,000 / -3,000 / +1,000 is also three
    # 1 han 30 fu rons on Cho; the tenpai list says it was a draw, so the counter goes up.
    names = ["Ana", "Ben", "Cho", "Dai"]
    draw = {"deltas": dict(zip(names, [1000, 1000, -3000, 1000], strict=True)), "riichi": []}
    result = replay(
        {
            "ruleset": "EMA2016",
            "players": names,
            "ended_by_time": True,
            "hands": [
                {**draw, "tenpai": ["Ana", "Ben", "Dai"]},
                {"result": "draw", "tenpai": [], "riichi": []},
            ],
        }
    ).as_json()
    assert result["errors"] == []
    assert [(h["result"], h["honba"]) for h in result["hands"]] == [("draw", 0), ("draw", 1)]
