"""A multiple ron entered with each winner's yaku (``{"result": "ron", "loser": ..., "wins": [{"winner":
..., "yaku": [...], "dora": ...}, ...]}``): the engine gives each winner's han from his own yaku, dora and
riichi, pays each (EMA 2016 card, "Multiple winners"; the counters to each winner,
``multiple_ron_honba_each``), keeps each winner's yaku for the record, and names the winner in every
refusal of his win. Values computed by hand in the comments (EMA 2016: no kiriage)."""

from __future__ import annotations

from typing import Any

from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from scoring.rules.yaku import RULE_YAKU_CLOSED, RULE_YAKU_RIICHI

EMA2016 = get_ruleset("EMA2016")
PLAYERS = ["Ana", "Ben", "Cho", "Dai"]  # East 1: Ana East (dealer), Ben South, Cho West, Dai North

# East 1: nobody tenpai, the deal passes with a counter: East 2, Ben deals, 1 honba.
DRAW: dict[str, Any] = {"result": "draw", "tenpai": [], "riichi": []}
# East 2-1, Cho discards. Dai (riichi): Riichi, Pinfu, All Simples, 1 dora = 4 han 30 fu, base
# 30 x 2^6 = 1,920 (no kiriage), ron 7,680 -> 7,700, + 300 for the counter = 8,000; his stake comes back
# to him (a winner who declared). Ben (dealer): Seven Pairs, 2 dora = 4 han 25 fu, base 1,600, x 6 =
# 9,600 + 300 = 9,900. Cho pays 17,900. Ben won: he keeps the deal, 2 honba.
DOUBLE: dict[str, Any] = {
    "result": "ron",
    "loser": "Cho",
    "wins": [
        {"winner": "Dai", "yaku": ["pinfu", "tanyao"], "dora": 1},
        {"winner": "Ben", "yaku": ["chiitoitsu"], "dora": 2},
    ],
    "riichi": ["Dai"],
}
# East 2-2, Ana discards; three winners (EMA 2016 has no abortive triple ron). Ben (dealer): Red Dragon,
# 1 han 40 fu, base 320, x 6 = 1,920 -> 2,000 + 600 = 2,600. Cho: open All Simples, 1 han 30 fu, base
# 240, x 4 = 960 -> 1,000 + 600 = 1,600. Dai: open Half Flush, 2 han 40 fu, base 640, x 4 = 2,560 ->
# 2,600 + 600 = 3,200. Ana pays 7,400.
TRIPLE: dict[str, Any] = {
    "result": "ron",
    "loser": "Ana",
    "wins": [
        {"winner": "Ben", "yaku": ["yakuhai_chun"], "fu": 40},
        {"winner": "Cho", "yaku": ["tanyao"], "open": True, "fu": 30},
        {"winner": "Dai", "yaku": ["honitsu"], "open": True, "fu": 40},
    ],
    "riichi": [],
}


def sheet(*hands: dict[str, Any]) -> dict[str, Any]:
    return {"players": PLAYERS, "hands": list(hands), "ended_by_time": True}


def test_each_winner_of_a_double_ron_is_paid_the_han_of_his_own_yaku() -> None:
    verdict = replay(sheet(DRAW, DOUBLE), EMA2016)
    assert verdict.errors == ()
    hand = verdict.as_json()["hands"][1]
    assert (hand["round"], hand["honba"], hand["result"]) == ("East 2", 1, "multiple ron")
    assert hand["deltas"] == {"Ana": 0, "Ben": 9900, "Cho": -17900, "Dai": 8000}
    assert hand["winners"] == ["Dai", "Ben"]  # from the discarder's right
    assert hand["yaku"] == {
        "Dai": {"yaku": ["riichi", "pinfu", "tanyao"], "han": 4, "fu": 30, "dora": 1, "source": "entered"},
        "Ben": {"yaku": ["chiitoitsu"], "han": 4, "fu": 25, "dora": 2, "source": "entered"},
    }


def test_a_triple_ron_with_yaku_pays_three_winners_where_the_rules_allow_it() -> None:
    verdict = replay(sheet(DRAW, DOUBLE, TRIPLE), EMA2016)
    assert verdict.errors == ()
    hand = verdict.as_json()["hands"][2]
    assert (hand["honba"], hand["result"]) == (2, "multiple ron")
    assert hand["deltas"] == {"Ana": -7400, "Ben": 2600, "Cho": 1600, "Dai": 3200}
    assert {name: (won["han"], won["fu"]) for name, won in hand["yaku"].items()} == {
        "Ben": (1, 40),
        "Cho": (1, 30),
        "Dai": (2, 40),
    }
    assert verdict.final_points == {"Ana": 22600, "Ben": 42500, "Cho": 13700, "Dai": 41200}


def test_each_refusal_of_a_multiple_ron_names_the_winner_whose_yaku_it_refuses() -> None:
    wins = [
        {"winner": "Dai", "yaku": ["pinfu"], "open": True},  # Pinfu is closed only (§6.5.1)
        {"winner": "Ben", "yaku": ["ippatsu", "tanyao"], "fu": 30},  # Ippatsu without riichi
    ]
    verdict = replay(sheet({"result": "ron", "loser": "Cho", "wins": wins, "riichi": []}), EMA2016)
    assert [(error.hand, error.rule, error.message) for error in verdict.errors] == [
        (
            1,
            RULE_YAKU_CLOSED,
            "hand 1 (East 1, 0 honba): Dai: Pinfu: the hand must be closed, and Dai's hand is open "
            "(WRCR 2015 §6.5.1)",
        ),
        (
            1,
            RULE_YAKU_RIICHI,
            "hand 1 (East 1, 0 honba): Ben: Ippatsu needs Riichi or Double Riichi (WRCR 2015 §6.5.1)",
        ),
    ]


def test_a_single_win_keeps_its_refusals_without_a_name_in_front() -> None:
    hand = {"result": "ron", "loser": "Cho", "wins": [{"winner": "Ben", "yaku": ["ippatsu", "tanyao"]}]}
    verdict = replay(sheet({**hand, "riichi": []}), EMA2016)
    assert [error.message for error in verdict.errors] == [
        "hand 1 (East 1, 0 honba): Ippatsu needs Riichi or Double Riichi (WRCR 2015 §6.5.1)"
    ]
