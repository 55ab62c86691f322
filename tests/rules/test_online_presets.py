"""The online presets (TENHOU, MAHJONGSOUL): their values, the outcomes they allow (abortive draws, nagashi
mangan) checked by the replay, busting, red fives, counted yakuman and the oka; and the same outcomes
refused under WRCR 2015 and EMA, each refusal naming the hand and the rule."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from scoring.rules.hands import evaluate_hand
from scoring.rules.legal import Moment, is_legal, legal_outcomes
from scoring.rules.replay import replay
from scoring.rules.ruleset import ABORTIVE_DRAWS, ONLINE_PRESETS, PRESETS, Ruleset, get_ruleset, problems_of
from scoring.rules.scores import table_scores
from scoring.rules.sheet import RULE_ABORTIVE, RULE_BUSTING, RULE_NAGASHI, RULE_TILES

P = ["Ana", "Ben", "Cho", "Dai"]
TENHOU, MAHJONGSOUL, WRC = get_ruleset("TENHOU"), get_ruleset("MAHJONGSOUL"), get_ruleset("WRC2015")


def play(ruleset: str, *hands: dict[str, Any], **sheet: Any) -> Any:
    return replay({"players": P, "hands": list(hands), **sheet}, get_ruleset(ruleset))


def test_the_online_presets_follow_their_operators_rules() -> None:
    assert set(ONLINE_PRESETS) <= set(PRESETS)
    # Tenhou: 25,000 start, 30,000 returned (oka +20), uma 10-20, red fives, every abortive draw including
    # three rons, nagashi mangan, double ron with the counters and sticks to the closest winner, no kiriage,
    # busting, the sticks left to first place.
    assert (TENHOU.starting_points, TENHOU.return_points, TENHOU.oka) == (25000, 30000, 20000)
    assert TENHOU.uma == (20, 10, -10, -20)
    assert TENHOU.red_fives == 3 and TENHOU.abortive_draws == frozenset(ABORTIVE_DRAWS)
    assert TENHOU.nagashi_mangan and TENHOU.busting and TENHOU.sticks_left_to_first
    assert TENHOU.multiple_ron and not TENHOU.multiple_ron_honba_each and not TENHOU.kiriage
    assert TENHOU.counted_yakuman and TENHOU.yakuman_accumulate and TENHOU.liability
    # Mahjong Soul: 25,000 each, no oka, uma 15/5/-5/-15; three rons are paid, not an abortive draw.
    assert (MAHJONGSOUL.starting_points, MAHJONGSOUL.oka, MAHJONGSOUL.uma) == (25000, 0, (15, 5, -5, -15))
    assert "triple-ron" not in MAHJONGSOUL.abortive_draws and len(MAHJONGSOUL.abortive_draws) == 4
    assert (TENHOU.agari_yame, MAHJONGSOUL.agari_yame) == ("always", "optional")
    assert TENHOU.west_round_points == MAHJONGSOUL.west_round_points == 30000
    assert WRC.oka == 0 and not WRC.abortive_draws and not WRC.nagashi_mangan and not WRC.red_fives
    assert WRC.agari_yame == "" and WRC.west_round_points == 0  # WRCR 2015 §5.9.1, §5.8


def test_new_fields_are_validated_and_stored_as_json() -> None:
    stored = json.loads(json.dumps(TENHOU.to_dict()))
    assert stored["abortive_draws"] == sorted(ABORTIVE_DRAWS)
    assert Ruleset.from_dict(stored) == TENHOU
    club = Ruleset.custom("WRC2015", abortive_draws=["four-riichi"], nagashi_mangan=True, name="Club")
    assert club.abortive_draws == frozenset({"four-riichi"}) and club.nagashi_mangan
    assert problems_of("WRC2015", abortive_draws=["four-riichis"]) == [
        "abortive_draws: four-riichis is no abortive draw (the kinds: nine-terminals, four-winds, "
        "four-riichi, four-kongs, triple-ron)"
    ]
    assert problems_of("WRC2015", abortive_draws=["triple-ron"]) == [
        "abortive_draws: triple-ron needs multiple_ron (without it, the head bump wins)"
    ]
    assert problems_of("WRC2015", abortive_draws="four-riichi")[0].startswith("abortive_draws must be a list")
    assert problems_of("WRC2015", red_fives=5) == ["red_fives must be from 0 to 4, not 5"]
    assert problems_of("WRC2015", busting="yes") == ["busting must be true or false"]
    assert problems_of("WRC2015", agari_yame="sometimes") == ['agari_yame must be "", "always" or "optional"']
    assert problems_of("WRC2015", west_round_points=30050) == ["west_round_points must be a multiple of 100"]
    with pytest.raises(ValueError, match="abortive_draws"):
        Ruleset.from_dict({"base": "TENHOU", "abortive_draws": ["nine terminals"]})


def test_an_abortive_draw_keeps_the_dealer_adds_a_counter_and_leaves_the_stakes_on_the_table() -> None:
    verdict = play(
        "TENHOU",
        {"result": "abortive", "kind": "four-riichi", "riichi": P},
        {"result": "abortive", "kind": "nine-terminals", "riichi": []},
        {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 1, "fu": 30, "riichi": []},
    )
    assert verdict.valid, verdict.errors
    records = verdict.hands
    assert [(r.round, r.honba, r.sticks) for r in records] == [
        ("East 1", 0, 0),
        ("East 1", 1, 4),
        ("East 1", 2, 4),
    ]
    assert records[0].deltas == {name: -1000 for name in P}  # the four stakes go onto the table
    assert records[0].as_json()["kind"] == "four-riichi" and records[1].result == "abortive"
    # The winner collects the four sticks and the two counters: 1,000 + 600 + 4,000.
    assert records[2].deltas == {"Ana": 0, "Ben": 5600, "Cho": -1600, "Dai": 0}


def test_abortive_draws_are_checked_against_the_rulesets_kinds() -> None:
    four_riichi_of_two = play(
        "TENHOU", {"result": "abortive", "kind": "four-riichi", "riichi": ["Ana", "Ben"]}
    )
    assert [error.rule for error in four_riichi_of_two.errors] == [RULE_ABORTIVE]
    assert "all four players declared riichi" in four_riichi_of_two.errors[0].message
    triple = play("MAHJONGSOUL", {"result": "abortive", "kind": "triple-ron", "riichi": []})
    assert [error.rule for error in triple.errors] == [RULE_ABORTIVE]
    assert triple.errors[0].message == (
        "hand 1 (East 1, 0 honba): three players winning on one discard is no abortive draw under "
        "MAHJONGSOUL; its abortive draws: nine different terminals and honours, four identical winds "
        "discarded, four riichi, four kongs by several players"
    )
    unnamed = play("TENHOU", {"result": "abortive", "riichi": []})
    assert [error.rule for error in unnamed.errors] == ["sheet-format"]


@pytest.mark.parametrize("preset", ["TENHOU", "MAHJONGSOUL", "WRC2015"])
@pytest.mark.parametrize("kind", [["four-winds"], [], {"kind": "four-winds"}, {}, 4, None])
def test_an_abortive_draws_kind_that_is_no_text_is_refused_like_an_unknown_kind(
    preset: str, kind: Any
) -> None:
    """A kind given as a list or an object (a broken editor, a hand-written sheet) is refused by the sheet
    check, naming the field, as an unknown kind is; the hand is replayed as an abortive draw of no kind."""
    verdict = play(preset, {"result": "abortive", "kind": kind, "riichi": ["Ana"]}, ended_by_time=True)
    assert [(error.hand, error.rule) for error in verdict.errors] == [(1, "sheet-format")]
    assert verdict.errors[0].message == (
        "hand 1 (East 1, 0 honba): an abortive draw names its kind: nine-terminals, four-winds, four-riichi, "
        "four-kongs, triple-ron"
    )
    unknown = play(
        preset, {"result": "abortive", "kind": "five-winds", "riichi": ["Ana"]}, ended_by_time=True
    )
    assert unknown.errors == verdict.errors
    (record,) = verdict.hands
    assert record.result == "abortive" and "kind" not in record.as_json()
    assert record.deltas == {"Ana": -1000, "Ben": 0, "Cho": 0, "Dai": 0}


@pytest.mark.parametrize("kind", [["four-winds"], {"kind": "four-winds"}, 4, None])
def test_a_ruleset_allows_no_abortive_draw_of_a_kind_that_is_no_text(kind: Any) -> None:
    assert not TENHOU.allows_abortive(kind)
    assert TENHOU.allows_abortive("four-winds")


@pytest.mark.parametrize("preset", ["WRC2015", "EMA2016", "EMA2025"])
def test_wrcr_and_ema_refuse_an_abortive_draw_naming_the_hand_and_the_rule(preset: str) -> None:
    verdict = play(
        preset,
        {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 1, "fu": 30, "riichi": []},
        {"result": "abortive", "kind": "four-winds", "riichi": []},
    )
    assert not verdict.valid
    (error,) = verdict.errors
    assert (error.hand, error.rule) == (2, "abortive-draw (WRCR 2015 §5.7.3)")
    assert error.message == (
        f"hand 2 (East 2, 0 honba): {preset} has no abortive draws (four identical winds discarded): a hand "
        "ends by a win or an exhaustive draw"
    )


def test_a_nagashi_mangan_is_paid_as_a_mangan_self_draw_without_counters() -> None:
    verdict = play(
        "TENHOU",
        {"result": "draw", "tenpai": [], "riichi": []},  # 1 honba on the table
        {"result": "nagashi", "nagashi": ["Cho"], "tenpai": ["Cho"], "riichi": ["Cho"]},
        {"result": "nagashi", "nagashi": ["Ben"], "tenpai": ["Ben"], "riichi": []},
    )
    assert verdict.valid, verdict.errors
    _first, second, third = verdict.hands
    # Ben deals: 4,000 from him, 2,000 from the others, no counters; Cho's riichi stake goes onto the table.
    assert second.deltas == {"Ana": -2000, "Ben": -4000, "Cho": 7000, "Dai": -2000}
    assert (second.round, second.honba, second.sticks) == ("East 2", 1, 0)
    # Ben (the dealer) was noten: the deal passes, a counter is added, Cho's stick stays on the table.
    assert (third.round, third.honba, third.sticks) == ("East 3", 2, 1)
    # Cho deals and is noten: the deal passes again, though Ben, the nagashi player, is tenpai.
    assert third.deltas == {"Ana": -2000, "Ben": 8000, "Cho": -4000, "Dai": -2000}
    assert third.as_json()["nagashi"] == ["Ben"] and third.as_json()["tenpai"] == ["Ben"]
    # Tenhou: the stick left at the end goes to first place, Ben (25,000 - 4,000 + 8,000 + 1,000).
    assert verdict.riichi_sticks_left == 0 and (verdict.final_points or {})["Ben"] == 30000


def test_a_dealer_tenpai_at_a_nagashi_keeps_the_deal() -> None:
    verdict = play(
        "MAHJONGSOUL",
        {"result": "nagashi", "nagashi": ["Dai"], "tenpai": ["Ana"], "riichi": []},
        {"result": "draw", "tenpai": [], "riichi": []},
    )
    assert verdict.valid and [(r.round, r.honba) for r in verdict.hands] == [("East 1", 0), ("East 1", 1)]


@pytest.mark.parametrize("preset", ["WRC2015", "EMA2016"])
def test_wrcr_and_ema_refuse_a_nagashi_and_replay_it_as_the_exhaustive_draw(preset: str) -> None:
    verdict = play(preset, {"result": "nagashi", "nagashi": ["Cho"], "tenpai": ["Cho"], "riichi": []})
    (error,) = verdict.errors
    assert (error.hand, error.rule) == (1, RULE_NAGASHI)
    assert error.message.startswith(f"hand 1 (East 1, 0 honba): {preset} has no nagashi mangan")
    assert verdict.hands[0].result == "draw"
    assert verdict.hands[0].deltas == {"Ana": -1000, "Ben": -1000, "Cho": 3000, "Dai": -1000}


def test_a_triple_ron_is_an_abortive_draw_under_tenhou_and_paid_under_mahjong_soul() -> None:
    wins = [{"winner": "Ben", "han": 2, "fu": 30}, {"winner": "Cho", "han": 2, "fu": 30}]
    triple = {
        "result": "ron",
        "loser": "Ana",
        "wins": [*wins, {"winner": "Dai", "han": 2, "fu": 30}],
        "riichi": [],
    }
    soul = play("MAHJONGSOUL", triple)
    assert soul.valid and soul.hands[0].deltas == {"Ana": -6000, "Ben": 2000, "Cho": 2000, "Dai": 2000}
    tenhou = play("TENHOU", triple)
    assert [error.rule for error in tenhou.errors] == [RULE_ABORTIVE]
    assert "abortive draw (sanchahou)" in tenhou.errors[0].message
    assert tenhou.hands[0].result == "abortive" and tenhou.hands[0].honba == 0
    # The payments of a triple ron are no legal change where it is an abortive draw; a double ron is.
    moment = Moment(dealer=0)
    assert is_legal(moment, (-6000, 2000, 2000, 2000), MAHJONGSOUL)
    assert not is_legal(moment, (-6000, 2000, 2000, 2000), TENHOU)
    assert (-6000, 2000, 2000, 2000) not in legal_outcomes(moment, TENHOU)
    assert is_legal(moment, (-4000, 2000, 2000, 0), TENHOU)


def test_busting_ends_the_hanchan_and_a_hand_after_it_is_an_error() -> None:
    bust = {"result": "ron", "winner": "Ben", "loser": "Ana", "yakuman": 1, "riichi": []}
    verdict = play("TENHOU", bust)
    assert verdict.valid and verdict.finished is True
    assert verdict.final_points == {"Ana": -7000, "Ben": 57000, "Cho": 25000, "Dai": 25000}
    after = play("TENHOU", bust, {"result": "draw", "tenpai": [], "riichi": []})
    (error,) = after.errors
    assert (error.hand, error.rule) == (2, RULE_BUSTING)
    assert "Ana went below zero" in error.message
    # Exactly zero is no bust: the game goes on.
    assert (
        play("TENHOU", {"deltas": {"Ana": -25000, "Ben": 25000, "Cho": 0, "Dai": 0}, "riichi": []}).finished
        is False
    )
    # WRCR 2015 §4.1: "The game continues when a player's score goes below zero."
    wrc = play("WRC2015", bust, {"result": "draw", "tenpai": [], "riichi": []}, ended_by_time=True)
    assert wrc.valid and wrc.final_points["Ana"] == -2000


def test_red_fives_count_as_dora_where_the_set_has_them_and_are_refused_where_not() -> None:
    hand = {
        "concealed": "234678m345p567s99s",
        "win_tile": "3p",
        "win": "tsumo",
        "seat_wind": "S",
        "round_wind": "E",
        "melds": [],
        "dora_indicators": ["1z"],
        "flags": {},
        "red_fives": 2,
    }
    tenhou = evaluate_hand(hand, TENHOU)
    assert (tenhou["han"], tenhou["fu"], tenhou["red_fives"]) == (4, 20, 2)
    assert tenhou["payments"] == {"tsumo_dealer": 2600, "tsumo_non_dealer": 1300}
    assert evaluate_hand(hand, WRC) == {
        "valid": False,
        "reason": "WRC2015 plays without red fives (WRCR 2015 §3.3): the hand has 2",
    }
    # On a sheet: the tiles are checked against the han; under WRCR the red fives make it no hand.
    tiles = {key: value for key, value in hand.items() if key not in ("win", "seat_wind", "round_wind")}
    entry = {"result": "tsumo", "winner": "Ben", "han": 4, "fu": 20, "tiles": tiles, "riichi": []}
    assert play("TENHOU", entry).valid
    wrc = play("WRC2015", entry)
    assert [error.rule for error in wrc.errors] == [RULE_TILES]
    assert "without red fives (WRCR 2015 §3.3)" in wrc.errors[0].message


def test_thirteen_han_is_a_counted_yakuman_online_and_sanbaiman_under_wrcr() -> None:
    ron = {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 13, "riichi": []}
    assert play("TENHOU", ron).hands[0].deltas["Ben"] == 32000
    assert play("WRC2015", ron).hands[0].deltas["Ben"] == 24000


# Riichi, Ippatsu, Fully Concealed Hand and Full Flush with 8 dora: 17 han 30 fu, no yakuman among them.
COUNTED = {
    "concealed": "22234455667899p",
    "win_tile": "9p",
    "melds": [],
    "dora_indicators": ["1p", "1p", "4p"],
    "flags": {"ippatsu": True},
}


@pytest.mark.parametrize("preset", ["TENHOU", "MAHJONGSOUL"])
def test_tiles_of_thirteen_han_or_more_are_named_a_yakuman_online(preset: str) -> None:
    """The online presets count 13 han or more as a yakuman (``counted_yakuman``): the hand evaluator
    names it "yakuman" and pays it as one; WRCR 2015 §6.1 and EMA 2016 keep it a sanbaiman."""
    hand = {
        **COUNTED,
        "win": "tsumo",
        "seat_wind": "S",
        "round_wind": "E",
        "flags": {"riichi": True, "ippatsu": True},
    }
    result = evaluate_hand(hand, get_ruleset(preset))
    assert (result["han"], result["fu"], result["limit"], result["basic_points"]) == (17, 30, "yakuman", 8000)
    assert result["payments"] == {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}
    for other in ("WRC2015", "EMA2016"):
        assert evaluate_hand(hand, get_ruleset(other))["limit"] == "sanbaiman"


@pytest.mark.parametrize("preset", ["TENHOU", "MAHJONGSOUL"])
def test_a_sheet_with_the_tiles_of_a_counted_yakuman_is_paid_a_yakuman_and_keeps_its_han(preset: str) -> None:
    """On a sheet the tiles of a counted yakuman give the yakuman's payment, whether the sheet writes the
    han, a yakuman or no value; the win is recorded with its han and fu, its yaku no yakuman."""
    for value in ({}, {"han": 17, "fu": 30}, {"yakuman": 1}):
        entry = {"result": "tsumo", "winner": "Ben", "tiles": COUNTED, "riichi": ["Ben"], **value}
        verdict = play(preset, entry, ended_by_time=True)
        assert verdict.errors == (), value
        (record,) = verdict.hands
        assert record.deltas == {"Ana": -16000, "Ben": 32000, "Cho": -8000, "Dai": -8000}
        assert record.yaku is not None
        win = record.yaku["Ben"]
        assert (win.han, win.fu, win.yakuman) == (17, 30, 0)
    # A sheet writing fewer han than the tiles give is told the tiles' value.
    short = play(preset, {"result": "tsumo", "winner": "Ben", "tiles": COUNTED, "riichi": ["Ben"], "han": 12})
    assert [error.rule for error in short.errors] == [RULE_TILES]
    assert "the tiles score 17 han 30 fu (Riichi, Ippatsu" in short.errors[0].message


def test_first_place_takes_the_oka() -> None:
    verdict = play(
        "TENHOU",
        {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 5, "riichi": []},
        ended_by_time=True,
    )
    # Ben: (33,000 - 30,000) / 1,000 + 20 uma + 20 oka. Ana and Dai tie at 25,000: Tenhou places the earlier
    # seat first ("the tie is broken in favor of the person having the earlier dealership"), Ana second
    # (-5 + 10), Dai third (-5 - 10).
    assert verdict.ranks == {"Ana": 2, "Ben": 1, "Cho": 4, "Dai": 3}
    assert verdict.scores == {
        "Ana": Decimal("5"),
        "Ben": Decimal("43"),
        "Cho": Decimal("-33"),
        "Dai": Decimal("-15"),
    }
    assert sum((verdict.scores or {}).values()) == 0


def test_with_shared_places_tied_players_split_the_uma_of_their_places() -> None:
    """WRCR 2015 §5.9.2's way, on Tenhou's points: Ana and Dai share second and split +10 and -10."""
    ruleset = Ruleset.custom("TENHOU", ties_by_seat=False)
    ranks, _uma, scores = table_scores({"Ana": 25000, "Ben": 33000, "Cho": 17000, "Dai": 25000}, ruleset)
    assert ranks == {"Ana": 2, "Ben": 1, "Cho": 4, "Dai": 2}
    assert scores == {"Ana": Decimal("-5"), "Ben": Decimal("43"), "Cho": Decimal("-33"), "Dai": Decimal("-5")}


def test_tenhou_scores_the_places_to_the_tenth_on_the_points_as_played() -> None:
    """The real Tenhou game of 2 October 2023 in tests/data/tenhou/real-tenhou-2023.json: points 19,400 /
    61,100 / 4,600 / 14,900 and `sc` -0.6 / 71.1 / -45.4 / -25.1: (19,400 - 30,000) / 1,000 + 10 = -0.6;
    (61,100 - 30,000) / 1,000 + 20 uma + 20 oka = 71.1; (4,600 - 30,000) / 1,000 - 20 = -45.4;
    (14,900 - 30,000) / 1,000 - 10 = -25.1. Rounded to thousands they would be -1 / 71 / -45 / -25 (19,000,
    5,000, 15,000, and first the 61,000 left)."""
    points = {"A": 19400, "B": 61100, "C": 4600, "D": 14900}
    _ranks, _uma, scores = table_scores(points, TENHOU)
    exact = {"A": Decimal("-0.6"), "B": Decimal("71.1"), "C": Decimal("-45.4"), "D": Decimal("-25.1")}
    assert scores == exact
    older = Ruleset.custom("TENHOU", round_to_thousand=True)
    assert table_scores(points, older)[2] == {"A": -1, "B": 71, "C": -45, "D": -25}


def test_tenhous_older_rounding_counts_the_points_rounded_to_thousands_and_first_takes_the_rest() -> None:
    """Tenhou's older scores (``round_to_thousand``): "points are rounded to the closest thousand, '4
    down, 5 up'"; the worked example of the Japanese mahjong scoring rules ("Final points and place"):
    25,000 each, A 43,600, B 14,500, C 15,400, D 26,500 count as B 15,000, C 15,000, D 27,000 and A the
    43,000 they leave of 100,000: A +33 before the uma, D -3, C -15, B -15, placed as played (C's 15,400
    above B's 14,500)."""
    older = Ruleset.custom("TENHOU", round_to_thousand=True)
    points = {"A": 43600, "B": 14500, "C": 15400, "D": 26500}
    ranks, _uma, scores = table_scores(points, older)
    assert ranks == {"A": 1, "B": 4, "C": 3, "D": 2}
    assert scores == {
        "A": Decimal(33 + 20),
        "B": Decimal(-15 - 20),
        "C": Decimal(-15 - 10),
        "D": Decimal(-3 + 10),
    }
    # Below zero a half thousand goes up too: -1,500 counts as -1,000, -1,600 as -2,000.
    _ranks, _uma, scores = table_scores({"A": -1500, "B": 33000, "C": -1600, "D": 70100}, older)
    assert scores == {
        "A": Decimal(-31 - 10),
        "B": Decimal(3 + 10),
        "C": Decimal(-32 - 20),
        "D": Decimal(40 + 40),
    }
    assert sum(scores.values()) == 0
    # Without the rounding (Mahjong Soul's scores, to the tenth), the same points count as played.
    assert table_scores(points, get_ruleset("MAHJONGSOUL"))[2]["A"] == Decimal("18.6") + 15


def passing(count: int) -> list[dict[str, Any]]:
    """``count`` hands in which the player after the dealer wins 1 han 30 fu from the one after him: the
    deal passes each time, and after 8 hands everyone has the points he started with."""
    return [
        {
            "result": "ron",
            "winner": P[(index + 1) % 4],
            "loser": P[(index + 2) % 4],
            "han": 1,
            "fu": 30,
            "riichi": [],
        }
        for index in range(count)
    ]


def test_the_last_dealer_first_with_30000_ends_the_game_under_tenhou_and_may_end_it_under_mahjong_soul() -> (
    None
):
    # South 4: Dai deals at 25,000 and wins a mangan from Ana: 37,000, first.
    dealer_wins = {"result": "ron", "winner": "Dai", "loser": "Ana", "han": 5, "riichi": []}
    more = {"result": "draw", "tenpai": [], "riichi": []}
    tenhou = play("TENHOU", *passing(7), dealer_wins)
    assert tenhou.valid and tenhou.finished is True  # Tenhou: "the game automatically stops"
    after = play("TENHOU", *passing(7), dealer_wins, more)
    (error,) = after.errors
    assert (error.hand, error.rule) == (9, "hand-after-end (WRCR 2015 §5.8)")
    assert "Dai, the last dealer, kept the deal in first place with 30,000 or more" in error.message
    # Mahjong Soul: the dealer may end it or play on.
    assert play("MAHJONGSOUL", *passing(7), dealer_wins).finished is True
    assert play("MAHJONGSOUL", *passing(7), dealer_wins, more).valid
    # WRCR 2015 §5.9.1: no agari yame, the dealer plays on.
    assert play("WRC2015", *passing(7), dealer_wins).finished is False
    # Not first, or below 30,000: the game goes on under Tenhou too.
    small = {"result": "ron", "winner": "Dai", "loser": "Ana", "han": 1, "fu": 30, "riichi": []}
    assert play("TENHOU", *passing(7), small).finished is False


def test_the_west_round_is_played_when_nobody_has_30000_after_south_4() -> None:
    # After South 4 everyone has 25,000: Tenhou plays the West round (sudden death).
    assert play("TENHOU", *passing(8)).finished is False
    west = play("TENHOU", *passing(8), {"result": "draw", "tenpai": ["Ana"], "riichi": []})
    assert west.valid and [record.round for record in west.hands][-1] == "West 1"
    # West 1: Ben wins a mangan from Cho, the deal passes with Ben at 33,000: the game ends there.
    ben = {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 5, "riichi": []}
    ended = play("TENHOU", *passing(8), ben)
    assert ended.valid and ended.finished is True
    after = play("TENHOU", *passing(8), ben, {"result": "draw", "tenpai": [], "riichi": []})
    assert [error.rule for error in after.errors] == ["hand-after-end (WRCR 2015 §5.8)"]
    message = after.errors[0].message
    assert "the extension round is sudden death, and after it Ben had 30,000 or more" in message
    # Nobody reaches 30,000: the West round ends with West 4.
    assert play("TENHOU", *passing(12)).finished is True
    beyond = play("TENHOU", *passing(13))
    assert "under TENHOU the extension round ends with West 4" in beyond.errors[0].message
    # WRCR 2015 §5.8: no West round.
    assert play("WRC2015", *passing(8)).finished is True


def test_a_nagashi_written_as_the_four_changes_is_read_as_one_where_the_rules_have_it() -> None:
    nagashi = {"deltas": {"Ana": -4000, "Ben": -2000, "Cho": 8000, "Dai": -2000}, "riichi": []}
    verdict = play("TENHOU", {"result": "draw", "tenpai": ["Ana"], "riichi": []}, nagashi, ended_by_time=True)
    assert verdict.valid and verdict.hands[1].result == "nagashi" and verdict.hands[1].honba == 1
    # Naming the tenpai players says who deals next: Ana (the dealer) tenpai keeps the deal.
    named = {**nagashi, "tenpai": ["Ana"]}
    after = play(
        "TENHOU",
        {"result": "draw", "tenpai": ["Ana"], "riichi": []},
        named,
        {"result": "draw", "tenpai": [], "riichi": []},
    )
    assert after.valid and [(r.round, r.honba) for r in after.hands][-1] == ("East 1", 2)
    # WRCR 2015: no nagashi; at 1 honba these changes are no legal outcome.
    assert not play("WRC2015", {"result": "draw", "tenpai": ["Ana"], "riichi": []}, nagashi).valid


def test_a_west_round_dealer_who_wins_to_30000_ends_the_game() -> None:
    """Tenhou's West round is sudden death: "As soon as someone attains 30,000 points [...] the game ends"
    (Tenhou.net rules), also when the dealer keeps the deal; a real game ended so
    (tests/rules/test_tenhou.py, real-tenhou-2017-west.json). Before, the dealer played on."""
    # West 1: Ana deals at 25,000 and wins a mangan from Cho: 37,000, first; the deal stays with her.
    ana = {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 5, "riichi": []}
    ended = play("TENHOU", *passing(8), ana)
    assert ended.valid and ended.finished is True
    after = play("TENHOU", *passing(8), ana, {"result": "draw", "tenpai": [], "riichi": []})
    (error,) = after.errors
    assert error.rule == "hand-after-end (WRCR 2015 §5.8)" and error.hand == 10
    assert "the extension round is sudden death, and after it Ana had 30,000 or more" in error.message
    # Below 30,000 the dealer plays on: 25,000 + 1,500.
    small = {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 1, "fu": 30, "riichi": []}
    assert play("TENHOU", *passing(8), small).finished is False
    # A non-dealer over 30,000 while the dealer keeps the deal by a draw: over too (someone has 30,000).
    ben = {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 5, "riichi": []}
    assert play("TENHOU", *passing(9), ben).finished is True


EAST_ONLY = Ruleset.custom("TENHOU", east_only=True, name="Tenhou East-only")


def east(*hands: dict[str, Any], **sheet: Any) -> Any:
    return replay({"players": P, "hands": list(hands), **sheet}, EAST_ONLY)


def test_an_east_only_game_ends_after_east_4_and_goes_into_the_south_round_below_30000() -> None:
    """East-only (東風戦): the game ends after East 4; when nobody has 30,000 then, the South round is its
    sudden-death extension, South 4 at most ("Sudden death must end at South 4 for tonpuusen", Tenhou.net
    rules; "Tonpuusen can go into south round", mjstars.net)."""
    assert EAST_ONLY.east_only and not TENHOU.east_only and not WRC.east_only
    # East 1 to 3 pass the deal; in East 4 Ana wins a mangan from Cho: 33,000 as the deal passes: over.
    ana = {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 5, "riichi": []}
    three = passing(3)
    ended = east(*three, ana)
    assert ended.valid and ended.finished is True and [r.round for r in ended.hands][-1] == "East 4"
    more = east(*three, ana, {"result": "draw", "tenpai": [], "riichi": []})
    assert [error.rule for error in more.errors] == ["hand-after-end (WRCR 2015 §5.8)"]
    assert "the extension round is sudden death" not in more.errors[0].message
    # The same hands are half a hanchan under TENHOU.
    assert play("TENHOU", *three, ana).finished is False
    # Nobody at 30,000 after East 4 (each passing hand moves 1,000): the South round is played, and ends
    # with South 4.
    assert east(*passing(8)).finished is True
    assert east(*passing(4)).finished is False
    beyond = east(*passing(9))
    assert "under Tenhou East-only the extension round ends with South 4" in beyond.errors[0].message
    # In South 1 Ben wins a mangan: 30,000 or more, sudden death.
    ben = {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 5, "riichi": []}
    assert east(*passing(4), ben).finished is True
    # Without the West round's points (WRCR-like rules made East-only), East 4 ends it whatever the points.
    plain = Ruleset.custom("WRC2015", east_only=True)
    assert replay({"players": P, "hands": passing(4)}, plain).finished is True
    after = replay({"players": P, "hands": passing(5)}, plain)
    assert "an East-only game ends after East 4" in after.errors[0].message


def test_east_only_is_a_ruleset_field_like_the_others() -> None:
    assert Ruleset.from_dict(EAST_ONLY.to_dict()) == EAST_ONLY
    assert EAST_ONLY.to_dict()["east_only"] is True
    assert problems_of("TENHOU", east_only="yes") == ["east_only must be true or false"]
