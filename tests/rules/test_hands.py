"""Hand evaluation from tiles (scoring.rules.hands, scoring.rules.tiles) beyond the WRC vectors.

Every correction the adapter makes to the ``mahjong`` library has tests here, with its WRCR 2015 section.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.rules.hands import (
    YAKU_ORDER,
    HandInputError,
    HandResult,
    evaluate_hand,
    parse_hand,
    score_hand,
)
from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.tiles import dora_of, parse_tile, parse_tiles, tile_str, tiles_str

WRC = get_ruleset("WRC2015")
EMA2016 = get_ruleset("EMA2016")
EMA2025 = get_ruleset("EMA2025")


def hand(concealed: str, win_tile: str, win: str = "ron", **fields: Any) -> dict[str, Any]:
    """A hand in the vectors' JSON form: non-dealer (South) in the East round unless told otherwise.

    ``melds`` may be given as ``[("pon", "555z"), ...]``; any flag name is a keyword (``riichi=True``).
    """
    flags = {name: fields.pop(name) for name in list(fields) if name in FLAG_NAMES}
    melds = [{"type": kind, "tiles": tiles} for kind, tiles in fields.pop("melds", [])]
    data: dict[str, Any] = {
        "concealed": concealed,
        "melds": melds,
        "win_tile": win_tile,
        "win": win,
        "seat_wind": "S",
        "round_wind": "E",
        "dora_indicators": [],
        "ura_dora_indicators": [],
        "flags": flags,
        "honba": 0,
        "riichi_sticks": 0,
    }
    data.update(fields)
    return data


FLAG_NAMES = {
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
}


def evaluate(
    concealed: str, win_tile: str, win: str = "ron", *, ruleset: Ruleset = WRC, **fields: Any
) -> Any:
    return evaluate_hand(hand(concealed, win_tile, win, **fields), ruleset)


def yaku_names(result: dict[str, Any]) -> list[str]:
    return [name for name, _han in result["yaku"]]


# ---------------------------------------------------------------------------------------------------
# Tile notation


def test_parse_tiles_reads_suits_and_honours() -> None:
    assert parse_tiles("123m456p789s1234567z", "concealed") == [*range(0, 3), *range(12, 15), *range(24, 34)]
    assert parse_tiles("12m 3m", "concealed") == [0, 1, 2]
    assert parse_tile("5z", "win_tile") == 31


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12x", 'concealed: "12x" is not a tile'),
        ("123m4x5p", 'concealed: "4x5p" is not a tile'),
        ("123", 'concealed: "123" is not a tile'),
        ("m", 'concealed: "m" is not a tile (no number'),
        ("0m", 'concealed: "0m" is not a tile (red fives are not used'),
        ("8z", 'concealed: "8z" is not a tile (honours are 1z-7z)'),
        ("", "concealed: no tiles"),
        (123, 'concealed: expected a tile string such as "123m11z", got 123'),
    ],
)
def test_bad_notation_names_the_field_and_the_tile(text: object, message: str) -> None:
    with pytest.raises(HandInputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        parse_tiles(text, "concealed")


def test_a_single_tile_field_takes_one_tile() -> None:
    with pytest.raises(HandInputError, match='win_tile: "12m" is 2 tiles, expected one'):
        parse_tile("12m", "win_tile")


def test_hand_input_error_is_a_value_error() -> None:
    assert issubclass(HandInputError, ValueError)


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("1z", "2z"),
        ("4z", "1z"),
        ("5z", "6z"),
        ("6z", "7z"),
        ("7z", "5z"),
    ],
)
def test_dora_order_wraps_in_suits_winds_and_dragons(indicator: str, dora: str) -> None:
    # WRCR 2015 §4.8: 9 -> 1, North -> East, Red -> White.
    assert tile_str(dora_of(parse_tile(indicator, "i"))) == dora


def test_tiles_str_sorts_and_groups() -> None:
    assert tiles_str(parse_tiles("5z9s11m3p", "t")) == "11m3p9s5z"


# ---------------------------------------------------------------------------------------------------
# Input errors


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"concealed": "234678m345p567s9s"}, "concealed: 13 concealed tiles and 0 declared groups"),
        ({"concealed": "22222m345p567s999s", "win_tile": "5p"}, "concealed: 5 tiles 2m"),
        ({"win_tile": "1m"}, 'win_tile: "1m" is not among the concealed tiles'),
        ({"win": "draw"}, 'win: expected "ron" or "tsumo"'),
        ({"seat_wind": "X"}, 'seat_wind: expected "E", "S", "W" or "N"'),
        ({"flags": {"riichi": "yes"}}, "flags.riichi: expected true or false"),
        ({"flags": {"nagashi": True}}, "flags: 'nagashi' is not a flag"),
        ({"honba": -1}, "honba: expected a whole number"),
        ({"riichi_sticks": 1.5}, "riichi_sticks: expected a whole number"),
        ({"dora_indicators": ["10z"]}, 'dora_indicators\\[0\\]: "0z" is not a tile'),
        ({"robbed_kong": "added"}, "robbed_kong: only meaningful with the chankan flag"),
        ({"last_tile": True}, "last_tile: marks a win on a replacement tile"),
        ({"liability": {"yaku": "Big Three Dragon"}}, "liability: 'Big Three Dragon' is not a yaku"),
        ({"concealed": None}, "concealed: expected a tile string"),
    ],
)
def test_input_errors_name_the_field(fields: dict[str, Any], message: str) -> None:
    data = hand("234678m345p567s99s", "3p", "tsumo") | fields
    with pytest.raises(HandInputError, match=message):
        evaluate_hand(data)


@pytest.mark.parametrize(
    ("meld", "message"),
    [
        (("chi", "135m"), 'melds\\[0\\].tiles: "135m" is not a chow'),
        (("chi", "89m1p"), 'melds\\[0\\].tiles: "89m1p" is not a chow'),
        (("chi", "123z"), 'melds\\[0\\].tiles: "123z" is not a chow'),
        (("pon", "112m"), 'melds\\[0\\].tiles: "112m" is not a pung'),
        (("kan_open", "222m"), 'melds\\[0\\].tiles: a kan_open has 4 tiles, "222m" has 3'),
        (
            ("kan", "2222m"),
            "melds\\[0\\].type: 'kan' is not one of chi, pon, kan_open, kan_added, kan_closed",
        ),
    ],
)
def test_meld_errors_name_the_meld(meld: tuple[str, str], message: str) -> None:
    with pytest.raises(HandInputError, match=message):
        evaluate("678m34588p567s", "3p", melds=[meld])


def test_more_than_four_of_a_tile_counts_the_melds() -> None:
    with pytest.raises(HandInputError, match="concealed: 5 tiles 5z"):
        evaluate("234m345p678s45z", "4m", melds=[("kan_open", "5555z")])


def test_other_fields_of_a_vector_are_ignored() -> None:
    data = hand("234678m345p567s99s", "3p", "tsumo") | {"id": "X", "expected": {}, "notes": ""}
    assert evaluate_hand(data)["valid"] is True


# ---------------------------------------------------------------------------------------------------
# Result shape


def test_valid_result_has_the_vector_fields() -> None:
    result = evaluate("234678m345p567s99s", "3p", "tsumo")
    assert set(result) == {
        "valid",
        "han",
        "fu",
        "limit",
        "yaku",
        "dora",
        "ura_dora",
        "payments",
        "total_gain",
        "basic_points",
    }


def test_invalid_result_gives_a_reason() -> None:
    result = evaluate("123m456p789s12344z", "4z")
    assert result == {
        "valid": False,
        "reason": "not a winning hand: the tiles do not form four groups and a pair, seven different pairs "
        "or Thirteen Orphans (WRCR 2015 §5.2)",
    }


def test_score_hand_returns_a_hand_result() -> None:
    result = score_hand(parse_hand(hand("234678m345p567s99s", "3p", "tsumo")))
    assert isinstance(result, HandResult)
    assert result.han == 2 and result.fu == 20 and result.basic_points == 320


def test_yaku_come_in_the_fixed_order() -> None:
    result = evaluate("123456789m11z", "9m", melds=[("pon", "777z")])
    assert result["yaku"] == [["Pure Straight", 1], ["Half Flush", 2], ["Yakuhai (Red Dragon)", 1]]
    assert all(name in YAKU_ORDER for name in yaku_names(result))


# ---------------------------------------------------------------------------------------------------
# Yakuman are not cumulative (WRCR 2015 §6.1, §6.5)


@pytest.mark.parametrize(
    ("concealed", "win_tile", "win", "fields", "names"),
    [
        (
            "19m19p19s12345677z",
            "7z",
            "tsumo",
            {"seat_wind": "E", "tenhou": True},
            ["Blessing of Heaven", "Thirteen Orphans"],
        ),
        (
            "44455z",
            "4z",
            "tsumo",
            {"melds": [("pon", "111z"), ("pon", "222z"), ("kan_open", "3333z")]},
            ["Big Four Winds", "All Honours"],
        ),
        (
            "55z",
            "5z",
            "tsumo",
            {
                "melds": [
                    ("kan_closed", "2222m"),
                    ("kan_closed", "4444p"),
                    ("kan_closed", "6666s"),
                    ("kan_closed", "8888s"),
                ],
                "rinshan": True,
            },
            ["Four Concealed Pungs", "Four Kongs"],
        ),
    ],
)
def test_several_yakuman_pay_one_yakuman(
    concealed: str, win_tile: str, win: str, fields: dict[str, Any], names: list[str]
) -> None:
    result = evaluate(concealed, win_tile, win, **fields)
    assert yaku_names(result) == names
    assert result["basic_points"] == 8000 and result["limit"] == "yakuman"
    assert result["han"] is None and result["fu"] is None


@pytest.mark.parametrize(
    ("concealed", "win_tile", "name"),
    [
        ("19m19p19s12345677z", "7z", "Thirteen Orphans"),  # 13-sided wait
        ("111m222p333s444z55z", "5z", "Four Concealed Pungs"),  # pair wait
        ("11123455678999m", "5m", "Nine Gates"),  # 9-sided wait
    ],
)
def test_no_double_yakuman(concealed: str, win_tile: str, name: str) -> None:
    result = evaluate(concealed, win_tile)
    assert result["yaku"] == [[name, None]]
    assert result["payments"] == {"ron": 32000}


def test_a_ruleset_may_accumulate_yakuman() -> None:
    accumulate = Ruleset.custom(yakuman_accumulate=True)
    result = evaluate("11122777z", "1z", ruleset=accumulate, melds=[("pon", "555z"), ("pon", "666z")])
    assert result["basic_points"] == 16000
    assert result["payments"] == {"ron": 64000}


def test_dora_do_not_count_on_a_yakuman() -> None:
    result = evaluate("19m19p19s12345677z", "7z", dora_indicators=["6z"])
    assert result["dora"] == 0 and result["basic_points"] == 8000


def test_counted_han_without_yakuman_is_only_sanbaiman() -> None:
    # WRCR 2015 §6.1: "There is no counted yakuman".
    result = evaluate(
        "22234455667899p", "9p", "tsumo", riichi=True, ippatsu=True, dora_indicators=["1p", "1p", "4p"]
    )
    assert result["han"] == 17 and result["limit"] == "sanbaiman" and result["basic_points"] == 6000


# ---------------------------------------------------------------------------------------------------
# Blessing of Man (WRCR 2015 §6.5.4)


def test_blessing_of_man_is_a_mangan_without_other_yaku_or_dora() -> None:
    result = evaluate("234567m345p55678s", "3p", renhou=True, dora_indicators=["4m"], riichi_sticks=1)
    assert result["yaku"] == [["Blessing of Man", None]]
    assert (result["han"], result["fu"], result["dora"], result["limit"]) == (None, None, 0, "mangan")
    assert result["payments"] == {"ron": 8000} and result["total_gain"] == 9000


def test_blessing_of_man_gives_way_to_a_higher_value() -> None:
    result = evaluate("22234455667899p", "9p", renhou=True)
    assert result["yaku"] == [["Full Flush", 6]]
    assert result["limit"] == "haneman" and result["payments"] == {"ron": 12000}


def test_blessing_of_man_equal_to_the_hand_shows_blessing_of_man() -> None:
    # Pinfu, all simples, pure double chow and a dora: 4 han 30 fu, a mangan (kiriage) like Blessing of Man.
    result = evaluate("223344m345p55678s", "8s", renhou=True, dora_indicators=["4p"])
    assert result["yaku"] == [["Blessing of Man", None]] and result["basic_points"] == 2000


def test_blessing_of_man_is_a_yaku_on_its_own() -> None:
    result = evaluate("123m456p789s33444z", "3z", renhou=True)
    assert result["valid"] and result["yaku"] == [["Blessing of Man", None]]


def test_blessing_of_man_does_not_lower_a_yakuman() -> None:
    result = evaluate("111m222p333s444z55z", "5z", renhou=True)
    assert result["yaku"] == [["Four Concealed Pungs", None]] and result["basic_points"] == 8000


def test_ema_blessing_of_man_is_five_han_that_add_up() -> None:
    for ruleset in (EMA2016, EMA2025):
        result = evaluate("234567m345p55678s", "3p", ruleset=ruleset, renhou=True, dora_indicators=["4m"])
        assert ["Blessing of Man", 5] in result["yaku"]
        assert result["han"] == 8 and result["dora"] == 1 and result["limit"] == "baiman"


@pytest.mark.parametrize(
    ("win", "fields", "reason"),
    [
        (
            "ron",
            {"seat_wind": "E"},
            "Blessing of Man is a win by a player other than East (WRCR 2015 §6.5.4)",
        ),
        ("tsumo", {}, "Blessing of Man is not a win by self-draw (WRCR 2015 §6.5.4)"),
        ("ron", {"riichi": True}, "no riichi can have been declared"),
    ],
)
def test_blessing_of_man_situations(win: str, fields: dict[str, Any], reason: str) -> None:
    result = evaluate("234567m345p55678s", "3p", win, renhou=True, **fields)
    assert result["valid"] is False and reason in result["reason"]


def test_blessing_of_man_needs_a_closed_hand() -> None:
    result = evaluate("567m345p55678s", "3p", melds=[("chi", "234m")], renhou=True)
    assert result["valid"] is False and "§6.5.4" in result["reason"]


# ---------------------------------------------------------------------------------------------------
# Robbing a Kong (WRCR 2015 §5.4.8, §6.5.1)


def test_robbing_a_concealed_kong_wins_on_thirteen_orphans() -> None:
    result = evaluate("119m19p19s1234567z", "9m", chankan=True, robbed_kong="concealed")
    assert result["yaku"] == [["Thirteen Orphans", None]] and result["payments"] == {"ron": 32000}


def test_robbing_a_concealed_kong_with_another_hand_is_no_win() -> None:
    result = evaluate("234567m345p67899s", "8s", chankan=True, riichi=True, robbed_kong="concealed")
    assert result["valid"] is False and "Thirteen Orphans" in result["reason"]


def test_ema_never_robs_a_concealed_kong() -> None:
    result = evaluate("119m19p19s1234567z", "9m", ruleset=EMA2016, chankan=True, robbed_kong="concealed")
    assert result["valid"] is False


def test_robbing_an_added_kong_is_the_default() -> None:
    result = evaluate("234567m345p67899s", "8s", chankan=True)
    assert yaku_names(result) == ["Robbing a Kong", "Pinfu"] and result["fu"] == 30


@pytest.mark.parametrize(
    ("concealed", "win_tile", "win", "fields", "reason"),
    [
        ("234567m345p67899s", "9s", "ron", {}, "the other three 9s are in the robbed kong"),
        ("234567m345p67899s", "8s", "tsumo", {}, "Robbing a Kong is not a win by self-draw"),
        ("234567m345p67899s", "8s", "ron", {"houtei": True}, "Robbing a Kong excludes Last Tile Claim"),
    ],
)
def test_impossible_robbed_kongs(
    concealed: str, win_tile: str, win: str, fields: dict[str, Any], reason: str
) -> None:
    result = evaluate(concealed, win_tile, win, chankan=True, **fields)
    assert result["valid"] is False and reason in result["reason"]


# ---------------------------------------------------------------------------------------------------
# After a Kong, Last Tile Draw, Last Tile Claim (WRCR 2015 §6.5.1)

REPLACEMENT_WIN: dict[str, Any] = {"melds": [("kan_added", "5555z")], "rinshan": True}


def test_replacement_tile_that_is_the_last_tile_is_after_a_kong_only() -> None:
    extras: list[dict[str, Any]] = [
        {"haitei": True},
        {"last_tile": True},
        {"haitei": True, "last_tile": True},
    ]
    for extra in extras:
        result = evaluate("234567m345p88s", "5p", "tsumo", **REPLACEMENT_WIN, **extra)
        assert yaku_names(result) == ["Yakuhai (White Dragon)", "After a Kong"]
        assert result["han"] == 2 and result["fu"] == 40


def test_last_tile_may_be_given_among_the_flags() -> None:
    data = hand("234567m345p88s", "5p", "tsumo", **REPLACEMENT_WIN)
    data["flags"]["last_tile"] = True
    assert evaluate_hand(data)["han"] == 2


def test_last_tile_draw_and_claim() -> None:
    draw = evaluate("234567m345p88s", "5p", "tsumo", melds=[("pon", "555z")], haitei=True)
    claim = evaluate("234567m345p88s", "5p", melds=[("pon", "555z")], houtei=True)
    assert ["Last Tile Draw", 1] in draw["yaku"] and ["Last Tile Claim", 1] in claim["yaku"]


@pytest.mark.parametrize(
    ("win", "fields", "reason"),
    [
        ("tsumo", {"melds": [("pon", "555z")], "rinshan": True}, "the hand has none"),
        ("ron", REPLACEMENT_WIN, "After a Kong is a win by self-draw"),
        ("ron", {"melds": [("pon", "555z")], "haitei": True}, "Last Tile Draw is a win by self-draw"),
        ("tsumo", {"melds": [("pon", "555z")], "houtei": True}, "Last Tile Claim is not a win by self-draw"),
    ],
)
def test_impossible_last_tile_situations(win: str, fields: dict[str, Any], reason: str) -> None:
    result = evaluate("234567m345p88s", "5p", win, **fields)
    assert result["valid"] is False and reason in result["reason"]


def test_ippatsu_cannot_come_with_after_a_kong() -> None:
    # A concealed kong declaration interrupts the round (WRCR 2015 §6.5.1, Ippatsu).
    result = evaluate(
        "234567m345p88s",
        "5p",
        "tsumo",
        melds=[("kan_closed", "9999m")],
        riichi=True,
        ippatsu=True,
        rinshan=True,
    )
    assert result["valid"] is False and "Ippatsu" in result["reason"]


# ---------------------------------------------------------------------------------------------------
# Liability (WRCR 2015 §6.2)

DRAGONS = [("pon", "555z"), ("pon", "666z"), ("pon", "777z")]
BIG_THREE = {"yaku": "Big Three Dragons", "liable": "the player who discarded the third dragon"}


def test_liable_player_shares_a_ron_and_the_discarder_pays_the_counters() -> None:
    result = evaluate("234m99p", "4m", melds=DRAGONS, liability=BIG_THREE, honba=1)
    assert result["payments"] == {"ron_discarder": 16300, "ron_liable": 16000}
    assert result["total_gain"] == 32300


def test_liable_player_shares_a_dealer_ron() -> None:
    result = evaluate("234m99p", "4m", melds=DRAGONS, liability=BIG_THREE, seat_wind="E")
    assert result["payments"] == {"ron_discarder": 24000, "ron_liable": 24000}


def test_liable_player_pays_a_self_draw_with_the_counters() -> None:
    result = evaluate("234m99p", "4m", "tsumo", melds=DRAGONS, liability="daisangen", honba=2)
    assert result["payments"] == {"tsumo_liable": 32600}


def test_liability_stands_when_the_hand_has_another_yakuman() -> None:
    winds = [("pon", "111z"), ("pon", "222z"), ("kan_open", "3333z")]
    result = evaluate("44455z", "4z", "tsumo", melds=winds, liability={"yaku": "Big Four Winds"})
    assert yaku_names(result) == ["Big Four Winds", "All Honours"]
    assert result["payments"] == {"tsumo_liable": 32000}


@pytest.mark.parametrize(
    ("concealed", "melds", "liability", "ruleset"),
    [
        ("234m99p", [("pon", "555z"), ("pon", "666z"), ("pon", "111z")], BIG_THREE, WRC),  # not the yakuman
        ("234m99p", DRAGONS, BIG_THREE, EMA2016),  # the EMA texts have no liability
    ],
)
def test_no_liability(concealed: str, melds: list[tuple[str, str]], liability: Any, ruleset: Ruleset) -> None:
    result = evaluate(concealed, "4m", melds=melds, liability=liability, ruleset=ruleset)
    assert set(result["payments"]) == {"ron"}


def test_no_liability_for_four_kongs() -> None:
    kongs = [("kan_open", "2222m"), ("kan_closed", "4444p"), ("kan_added", "6666s"), ("kan_open", "8888s")]
    result = evaluate("55z", "5z", "tsumo", melds=kongs, rinshan=True, liability={"yaku": "Four Kongs"})
    assert result["payments"] == {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}


# ---------------------------------------------------------------------------------------------------
# Limits (WRCR 2015 §6.1): a riichi hand of 1 han 40 fu plus dora (each 2p indicator shows one dora)


@pytest.mark.parametrize(
    ("dora", "limit", "basic"),
    [
        (0, "", 320),
        (2, "", 1280),
        (3, "mangan", 2000),  # 4 han 40 fu: 2,560 is capped
        (4, "mangan", 2000),
        (5, "haneman", 3000),
        (7, "baiman", 4000),
        (10, "sanbaiman", 6000),
        (12, "sanbaiman", 6000),
        (15, "sanbaiman", 6000),
    ],
)
def test_limits(dora: int, limit: str, basic: int) -> None:
    # 222m concealed pung + pair wait: 30 + 4 + 2 = 36 -> 40 fu.
    result = evaluate("222m345p678s23499s", "9s", riichi=True, dora_indicators=["2p"] * dora)
    assert (result["han"], result["fu"]) == (1 + dora, 40)
    assert (result["limit"], result["basic_points"]) == (limit, basic)


def test_without_kiriage_4_han_30_fu_is_not_a_mangan() -> None:
    # The EMA 2016 card: 4 han 30 fu = 7,700 / 11,600.
    non_dealer = evaluate("123789m12355p123s", "1s", ruleset=EMA2016, riichi=True)
    dealer = evaluate("123789m12355p123s", "1s", ruleset=EMA2016, riichi=True, seat_wind="E")
    assert non_dealer["limit"] == "" and non_dealer["payments"] == {"ron": 7700}
    assert dealer["payments"] == {"ron": 11600}
    assert evaluate("123789m12355p123s", "1s", ruleset=EMA2025, riichi=True)["payments"] == {"ron": 8000}


# ---------------------------------------------------------------------------------------------------
# Minipoints (WRCR 2015 §6.3)


@pytest.mark.parametrize(
    ("concealed", "win_tile", "win", "fields", "fu"),
    [
        ("234678m345p567s99s", "3p", "tsumo", {}, 20),  # pinfu self-draw: no 2 for self-draw
        ("234678m345p567s99s", "3p", "ron", {"riichi": True}, 30),  # 20 + 10 closed ron
        ("234678m345p56799s", "6s", "tsumo", {}, 30),  # 20 + 2 self-draw + 2 closed wait
        ("224466m3355p7788s", "8s", "ron", {"riichi": True}, 25),  # seven pairs, not rounded
        ("678m34588p567s", "3p", "tsumo", {"melds": [("chi", "234m")]}, 30),  # open: 20 + 2 self-draw
        ("678m34588p567s", "3p", "ron", {"melds": [("chi", "234m")]}, 30),  # open pinfu: 20 + 2
        (
            "234m345p88s",
            "5p",
            "tsumo",
            {"melds": [("kan_closed", "1111m"), ("kan_open", "9999p")], "rinshan": True},
            70,
        ),
        ("111m456p234789s11z", "4p", "ron", {"riichi": True, "seat_wind": "E"}, 50),  # 30 + 8 + 4 double wind
        ("123m456p234789s11z", "4p", "ron", {"riichi": True}, 40),  # 30 + 2 prevalent wind pair
        ("123m456p234789s55z", "4p", "ron", {"riichi": True}, 40),  # 30 + 2 dragon pair
        ("123m456p234789s44z", "4p", "ron", {"riichi": True}, 30),  # North pair for South: no fu
        ("123m456p789s22244z", "2z", "ron", {}, 40),  # seat wind pung completed on a discard: 30 + 4
        ("123m456p789s22244z", "2z", "tsumo", {}, 30),  # completed by self-draw: 20 + 8 + 2
    ],
)
def test_minipoints(concealed: str, win_tile: str, win: str, fields: dict[str, Any], fu: int) -> None:
    assert evaluate(concealed, win_tile, win, **fields)["fu"] == fu


def test_double_wind_pair_follows_the_ruleset() -> None:
    two = Ruleset.custom(double_wind_pair_fu=2)
    result = evaluate("111m456p234789s11z", "4p", ruleset=two, riichi=True, seat_wind="E")
    assert result["fu"] == 40 and result["payments"] == {"ron": 2000}


def test_the_highest_reading_of_the_wait_is_scored() -> None:
    # WRCR 2015 §5.7.6, §6: 111222333m read as three chows (pure double chow) beats three pungs on a ron,
    # and as three concealed pungs on a self-draw.
    ron = evaluate("111222333m456p77s", "3m", riichi=True)
    tsumo = evaluate("111222333m456p77s", "3m", "tsumo")
    assert yaku_names(ron) == ["Riichi", "Pure Double Chow"] and ron["payments"] == {"ron": 2600}
    assert yaku_names(tsumo) == ["Fully Concealed Hand", "Three Concealed Pungs"]


# ---------------------------------------------------------------------------------------------------
# Dora (WRCR 2015 §6.4)


def test_ura_dora_count_only_with_riichi() -> None:
    without = evaluate("234567m345p88s", "5p", melds=[("pon", "555z")], ura_dora_indicators=["4p"])
    riichi = evaluate("234567m345p88s555z", "5p", riichi=True, ura_dora_indicators=["4p"])
    double = evaluate("234567m345p88s555z", "5p", double_riichi=True, ura_dora_indicators=["4p"])
    assert without["ura_dora"] == 0 and without["han"] == 1
    assert riichi["ura_dora"] == 1 and riichi["han"] == 3
    assert double["ura_dora"] == 1 and double["han"] == 4


def test_each_indicator_counts_including_kan_dora() -> None:
    # WRCR 2015 §6.4: two indicators pointing to the same tile count twice.
    result = evaluate("123m456p789s222z33z", "3z", riichi=True, dora_indicators=["1z", "1z"])
    assert result["dora"] == 6 and result["han"] == 8


def test_kan_dora_on_a_kong() -> None:
    result = evaluate(
        "234m456p66s",
        "6s",
        "tsumo",
        melds=[("kan_open", "3333s"), ("chi", "456s")],
        rinshan=True,
        dora_indicators=["2s", "5s"],
    )
    assert result["dora"] == 7 and result["han"] == 9 and result["limit"] == "baiman"


def test_dora_alone_is_no_yaku() -> None:
    result = evaluate("567m345p67899s", "8s", melds=[("chi", "234m")], dora_indicators=["8s"])
    assert result["valid"] is False and "dora are not yaku" in result["reason"]


# ---------------------------------------------------------------------------------------------------
# Riichi, Double Riichi, Ippatsu, Blessings of Heaven and Earth


def test_double_riichi_replaces_riichi() -> None:
    result = evaluate("234678m345p567s99s", "3p", "tsumo", riichi=True, double_riichi=True, ippatsu=True)
    assert result["yaku"] == [["Double Riichi", 2], ["Ippatsu", 1], ["Fully Concealed Hand", 1], ["Pinfu", 1]]


def test_riichi_needs_a_closed_hand_but_a_concealed_kong_keeps_it_closed() -> None:
    open_hand = evaluate("234567m345p88s", "5p", melds=[("pon", "555z")], riichi=True)
    concealed_kong = evaluate("234567m345p88s", "5p", melds=[("kan_closed", "5555z")], riichi=True)
    assert open_hand["valid"] is False and "§6.5.1" in open_hand["reason"]
    assert yaku_names(concealed_kong) == ["Riichi", "Yakuhai (White Dragon)"]


def test_ippatsu_needs_riichi() -> None:
    result = evaluate("234567m345p88s555z", "5p", ippatsu=True)
    assert result["valid"] is False and "Ippatsu needs Riichi" in result["reason"]


def test_blessings_of_heaven_and_earth_are_yakuman() -> None:
    heaven = evaluate("234678m345p567s99s", "3p", "tsumo", seat_wind="E", tenhou=True)
    earth = evaluate("234678m345p567s99s", "3p", "tsumo", chiihou=True)
    assert heaven["yaku"] == [["Blessing of Heaven", None]] and heaven["payments"] == {"tsumo_all": 16000}
    assert earth["yaku"] == [["Blessing of Earth", None]]
    assert earth["payments"] == {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}


@pytest.mark.parametrize(
    ("win", "fields", "reason"),
    [
        ("tsumo", {"tenhou": True}, "Blessing of Heaven is a win by East"),
        ("ron", {"tenhou": True, "seat_wind": "E"}, "Blessing of Heaven is a win by self-draw"),
        (
            "tsumo",
            {"chiihou": True, "seat_wind": "E"},
            "Blessing of Earth is a win by a player other than East",
        ),
        ("tsumo", {"chiihou": True, "riichi": True}, "no riichi can have been declared"),
    ],
)
def test_impossible_blessings(win: str, fields: dict[str, Any], reason: str) -> None:
    result = evaluate("234678m345p567s99s", "3p", win, **fields)
    assert result["valid"] is False and reason in result["reason"]


def test_blessing_of_heaven_is_void_after_a_concealed_kong() -> None:
    result = evaluate(
        "234m345p567s99s", "3p", "tsumo", melds=[("kan_closed", "1111z")], seat_wind="E", tenhou=True
    )
    assert result["valid"] is False and "§6.5.6" in result["reason"]


# ---------------------------------------------------------------------------------------------------
# Open hands lose a han on some yaku (WRCR 2015 §6.5.2, §6.5.3, §6.5.5)


@pytest.mark.parametrize(
    ("concealed", "win_tile", "melds", "expected"),
    [
        ("789p999s11z", "1z", [("chi", "123m"), ("chi", "789s")], ["Outside Hand", 1]),
        (
            "789p99s",
            "9s",
            [("chi", "123m"), ("chi", "789s"), ("pon", "111p")],
            ["Terminals in All Groups", 2],
        ),
        ("123456m11z", "1z", [("pon", "777z"), ("chi", "789m")], ["Half Flush", 2]),
        ("123456m11m", "1m", [("pon", "999m"), ("chi", "789m")], ["Full Flush", 5]),
        ("123p123s55m", "5m", [("chi", "123m"), ("pon", "999m")], ["Mixed Triple Chow", 1]),
    ],
)
def test_open_hands(concealed: str, win_tile: str, melds: list[tuple[str, str]], expected: list[Any]) -> None:
    assert expected in evaluate(concealed, win_tile, melds=melds)["yaku"]


# ---------------------------------------------------------------------------------------------------
# Continuance counters and riichi sticks (WRCR 2015 §5.7.7, §6.1)


def test_total_gain_adds_counters_and_riichi_sticks() -> None:
    result = evaluate("234678m345p567s99s", "3p", "tsumo", seat_wind="E", honba=3, riichi_sticks=2)
    assert result["payments"] == {"tsumo_all": 1000}  # 700 + 300
    assert result["total_gain"] == 3 * 1000 + 2000


# ---------------------------------------------------------------------------------------------------
# Properties


@st.composite
def complete_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A complete hand of four groups and a pair, some groups declared, with a random situation."""
    groups: list[tuple[str, list[int]]] = []
    for _ in range(4):
        if draw(st.booleans()):
            suit = draw(st.sampled_from([0, 9, 18]))
            start = suit + draw(st.integers(0, 6))
            groups.append(("chow", [start, start + 1, start + 2]))
        else:
            kind = draw(st.integers(0, 33))
            groups.append(("pung", [kind] * 3))
    pair = draw(st.integers(0, 33))
    concealed: list[int] = [pair, pair]
    melds: list[dict[str, str]] = []
    for shape, tiles in groups:
        how = draw(st.sampled_from(["concealed", "declared", "kong"]))
        if how == "concealed":
            concealed.extend(tiles)
        elif shape == "chow":
            melds.append({"type": "chi", "tiles": tiles_str(tiles)})
        elif how == "declared":
            melds.append({"type": "pon", "tiles": tiles_str(tiles)})
        else:
            kong = draw(st.sampled_from(["kan_open", "kan_added", "kan_closed"]))
            melds.append({"type": kong, "tiles": tiles_str(tiles + tiles[:1])})
    counts = Counter(concealed)
    for meld in melds:
        counts.update(parse_tiles(meld["tiles"], "melds"))
    assume(max(counts.values()) <= 4)
    is_open = any(meld["type"] != "kan_closed" for meld in melds)
    riichi = not is_open and draw(st.booleans())
    win = draw(st.sampled_from(["ron", "tsumo"]))
    return {
        "concealed": tiles_str(concealed),
        "melds": melds,
        "win_tile": tile_str(draw(st.sampled_from(concealed))),
        "win": win,
        "seat_wind": draw(st.sampled_from("ESWN")),
        "round_wind": draw(st.sampled_from("ES")),
        "dora_indicators": [tile_str(draw(st.integers(0, 33)))],
        "ura_dora_indicators": [tile_str(draw(st.integers(0, 33)))],
        "flags": {
            "riichi": riichi,
            "ippatsu": riichi and draw(st.booleans()),
            "haitei": win == "tsumo" and draw(st.booleans()),
            "houtei": win == "ron" and draw(st.booleans()),
        },
        "honba": draw(st.integers(0, 5)),
        "riichi_sticks": draw(st.integers(0, 3)),
    }


PAYERS = {"tsumo_non_dealer": 2, "tsumo_all": 3}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands())
def test_complete_hands_evaluate_consistently(data: dict[str, Any]) -> None:
    result = evaluate_hand(data)
    if not result["valid"]:
        assert result["reason"].startswith("no yaku")  # every generated hand is complete
        return
    received = sum(amount * PAYERS.get(key, 1) for key, amount in result["payments"].items())
    assert result["total_gain"] == received + 1000 * data["riichi_sticks"]
    assert result["yaku"] and all(name in YAKU_ORDER for name in yaku_names(result))
    if result["limit"] == "yakuman":
        assert result["basic_points"] == 8000 and result["han"] is None
        return
    assert result["han"] == sum(han for _name, han in result["yaku"]) + result["dora"] + result["ura_dora"]
    assert result["fu"] == 25 or (result["fu"] >= 20 and result["fu"] % 10 == 0)
    assert result["basic_points"] <= 6000
    if data["win"] == "ron":
        factor = 6 if data["seat_wind"] == "E" else 4
        assert (
            result["payments"]["ron"]
            == -(-factor * result["basic_points"] // 100) * 100 + 300 * data["honba"]
        )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands(), st.data())
def test_a_matching_dora_indicator_adds_han_and_never_lowers_the_value(
    data: dict[str, Any], more: Any
) -> None:
    before = evaluate_hand(data)
    tiles = parse_hand(data)
    held = list(tiles.concealed) + [kind for meld in tiles.melds for kind in meld.tiles]
    dora = more.draw(st.sampled_from(held))
    indicator = next(kind for kind in range(34) if dora_of(kind) == dora)
    after = evaluate_hand(data | {"dora_indicators": [*data["dora_indicators"], tile_str(indicator)]})
    assert after["valid"] == before["valid"]  # dora are not yaku
    if not before["valid"] or before["limit"] == "yakuman":
        return
    assert after["dora"] == before["dora"] + held.count(dora)
    # The reading may change when both readings reach a limit; it is then the one with more han.
    assert after["han"] >= before["han"] + held.count(dora)
    assert after["basic_points"] >= before["basic_points"]
