"""Wins entered by their yaku (scoring.rules.yaku and the replay): han from the WRCR 2015 yaku list
(§6.5, closed and open values), the combinations the rules exclude (each refusal naming its hand and its
rule), the fu Pinfu and Seven Pairs fix (§6.3), dora (§6.4), and the agreement with the hand evaluator
on the WRCR hand vectors (tests/data/wrc-hands.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.rules.hand_input import YAKU_ORDER
from scoring.rules.hands import evaluate_hand
from scoring.rules.replay import replay
from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.yaku import (
    CATALOGUE,
    RULE_DORA,
    RULE_YAKU,
    RULE_YAKU_CLOSED,
    RULE_YAKU_COMBINATION,
    RULE_YAKU_NONE,
    RULE_YAKU_RIICHI,
    RULE_YAKU_VALUE,
    RULE_YAKU_WIN,
    RULE_YAKU_YAKUMAN,
    YAKU,
    WinYaku,
    hand_wins,
    read_win_yaku,
    tiles_yaku,
    win_summary,
    yaku_of_names,
)

WRC = get_ruleset("WRC2015")
EMA2025 = get_ruleset("EMA2025")
PLAYERS = ["Ana", "Ben", "Cho", "Dai"]
VECTORS = Path(__file__).resolve().parents[1] / "data" / "wrc-hands.json"


def entered(
    yaku: list[str],
    *,
    tsumo: bool = False,
    dealer: bool = False,
    riichi: bool = False,
    ruleset: Ruleset = WRC,
    **fields: Any,
) -> tuple[WinYaku | None, list[str]]:
    found, problems = read_win_yaku(
        {"yaku": yaku, **fields}, tsumo=tsumo, dealer=dealer, declared_riichi=riichi, ruleset=ruleset
    )
    return found, [problem.rule for problem in problems]


def han(yaku: list[str], **fields: Any) -> int | None:
    found, problems = entered(yaku, **fields)
    assert problems == [], problems
    assert found is not None
    return found.han


# WRCR 2015 §6.5: the han of each yaku, closed and open ("[Worth only one han if the hand is open]").
@pytest.mark.parametrize(
    ("yaku", "closed", "opened"),
    [
        ("tanyao", 1, 1),  # §6.5.1 "The hand can be open or closed"
        ("yakuhai_haku", 1, 1),
        ("chankan", 1, 1),
        ("sanshoku", 2, 1),  # §6.5.2 "[Worth only one han if the hand is open]"
        ("ittsu", 2, 1),
        ("chanta", 2, 1),
        ("toitoi", 2, 2),
        ("sanankou", 2, 2),  # "the entire hand is not required to be closed"
        ("honroutou", 2, 2),
        ("shousangen", 2, 2),
        ("honitsu", 3, 2),  # §6.5.3 "[Worth only two han if the hand is open]"
        ("junchan", 3, 2),
        ("chinitsu", 6, 5),  # §6.5.5 "[Worth only five han if the hand is open]"
    ],
)
def test_a_yaku_is_worth_its_closed_or_open_han(yaku: str, closed: int, opened: int) -> None:
    assert han([yaku], fu=40) == closed
    assert han([yaku], fu=40, open=True) == opened


@pytest.mark.parametrize(
    ("yaku", "value"),
    [("pinfu", 1), ("iipeikou", 1), ("chiitoitsu", 2), ("ryanpeikou", 3), ("double_riichi", 2)],
)
def test_closed_only_yaku_have_their_han_and_no_open_value(yaku: str, value: int) -> None:
    riichi = yaku == "double_riichi"
    assert han([yaku], riichi=riichi) == value
    _found, problems = entered([yaku], open=True, riichi=riichi)
    assert RULE_YAKU_CLOSED in problems


def test_the_han_add_up_with_the_dora() -> None:
    # Riichi (declared) + Pinfu + All Simples + 2 dora + 1 ura dora = 6 han.
    assert han(["pinfu", "tanyao"], riichi=True, dora=2, ura_dora=1) == 6


def test_riichi_and_fully_concealed_hand_follow_from_the_hand() -> None:
    found, _problems = entered(["tanyao"], riichi=True, tsumo=True, fu=30)
    assert found is not None and found.yaku == ("riichi", "menzen_tsumo", "tanyao") and found.han == 3
    # An open self-draw has no Fully Concealed Hand (§6.5.1 "[The hand must be closed]").
    found, _problems = entered(["tanyao"], tsumo=True, open=True, fu=30)
    assert found is not None and found.yaku == ("tanyao",) and found.han == 1
    # A yakuman takes neither.
    found, _problems = entered(["suuankou"], tsumo=True, riichi=True)
    assert found is not None and found.yaku == ("suuankou",) and found.yakuman == 1


@pytest.mark.parametrize(
    ("yaku", "fields", "rule"),
    [
        # §6.5: "[The hand must be closed]"
        (["pinfu"], {"open": True}, RULE_YAKU_CLOSED),
        (["tanyao", "iipeikou"], {"open": True}, RULE_YAKU_CLOSED),
        (["chiitoitsu"], {"open": True}, RULE_YAKU_CLOSED),
        (["kokushi"], {"open": True}, RULE_YAKU_CLOSED),
        # §6.5.2 Seven Pairs is seven pairs: no groups, so no Twice Pure Double Chows.
        (["chiitoitsu", "ryanpeikou"], {}, RULE_YAKU_COMBINATION),
        (["chiitoitsu", "toitoi"], {}, RULE_YAKU_COMBINATION),
        (["chiitoitsu", "pinfu"], {}, RULE_YAKU_COMBINATION),
        # §6.5.3 Twice Pure Double Chows "Does not combine with Pure Double Chow".
        (["iipeikou", "ryanpeikou"], {}, RULE_YAKU_COMBINATION),
        # §6.5.3 Terminals in All Groups and §6.5.2 All Terminals and Honours "Does not combine with
        # Outside Hand"; §6.5.5 Full Flush "Does not combine with Half Flush".
        (["chanta", "junchan"], {}, RULE_YAKU_COMBINATION),
        (["chanta", "honroutou", "toitoi"], {}, RULE_YAKU_COMBINATION),
        (["honitsu", "chinitsu"], {}, RULE_YAKU_COMBINATION),
        # §6.5.1: All Simples has no terminals or honours.
        (["tanyao", "yakuhai_chun"], {}, RULE_YAKU_COMBINATION),
        # §6.5.1: Pinfu is four chows and a valueless pair.
        (["pinfu", "yakuhai_seat_wind"], {}, RULE_YAKU_COMBINATION),
        # §6.5.1: Double Riichi takes the place of Riichi; Ippatsu needs a riichi.
        (["riichi", "double_riichi"], {"riichi": True}, RULE_YAKU_COMBINATION),
        (["ippatsu", "tanyao"], {}, RULE_YAKU_RIICHI),
        # A riichi yaku needs the winner's declaration in the hand (the sheet's riichi list).
        (["riichi", "tanyao"], {}, RULE_YAKU_RIICHI),
        # §6.1, §6.5: a yakuman is the limit; no ordinary yaku beside it, and dora do not count.
        (["daisangen", "honitsu"], {}, RULE_YAKU_YAKUMAN),
        (["kokushi"], {"dora": 1}, RULE_DORA),
        # §6.5.1: the way of winning.
        (["haitei", "tanyao"], {}, RULE_YAKU_WIN),
        (["houtei", "tanyao"], {"tsumo": True}, RULE_YAKU_WIN),
        (["menzen_tsumo"], {}, RULE_YAKU_WIN),
        (["haitei", "rinshan"], {"tsumo": True}, RULE_YAKU_COMBINATION),
        # §6.5.6 Blessing of Heaven is the dealer's; §6.5.4 Blessing of Man a non-dealer's on a discard.
        (["tenhou"], {"tsumo": True}, RULE_YAKU_WIN),
        (["renhou"], {"dealer": True}, RULE_YAKU_WIN),
        # §6.5.4: Blessing of Man is not cumulative with other yaku and dora (WRCR).
        (["renhou", "tanyao"], {}, RULE_YAKU_COMBINATION),
        # §5.2: at least one yaku; dora are not yaku (§6.4).
        ([], {"dora": 3}, RULE_YAKU_NONE),
        # §6.4: ura dora only for a riichi declarer; §3.3: no red fives in WRCR.
        (["tanyao"], {"ura_dora": 1}, RULE_DORA),
        (["tanyao"], {"aka_dora": 1}, RULE_DORA),
        (["tanyao", "not_a_yaku"], {}, RULE_YAKU),
        (["tanyao", "tanyao"], {}, RULE_YAKU),
    ],
)
def test_the_rules_refuse_impossible_combinations(yaku: list[str], fields: dict[str, Any], rule: str) -> None:
    found, problems = entered(yaku, fu=30, **fields)
    assert found is None
    assert rule in problems


@pytest.mark.parametrize(
    ("yaku", "fields"),
    [
        (["chiitoitsu", "honroutou"], {}),  # §6.5.2 "Add two han for All Pungs or Seven Pairs"
        (["toitoi", "honroutou"], {}),
        (["shousangen", "yakuhai_haku", "yakuhai_hatsu"], {}),  # "Add the two han for the pungs"
        (["yakuhai_seat_wind", "yakuhai_round_wind"], {}),  # §6.5.1 a double wind pung scores twice
        (["pinfu", "junchan", "sanshoku"], {}),
        (["chinitsu", "iipeikou"], {}),
        (["chiitoitsu", "chinitsu"], {}),
        (["chankan", "pinfu"], {}),
        (["ippatsu", "pinfu"], {"riichi": True}),
        (["daisangen", "tsuuiisou"], {}),  # §6.5: several yakuman are listed, paid as one
    ],
)
def test_combinations_the_rules_allow(yaku: list[str], fields: dict[str, Any]) -> None:
    found, problems = entered(yaku, **fields)
    assert problems == []
    assert found is not None


def test_pinfu_and_seven_pairs_fix_the_fu() -> None:
    # §6.3: a pinfu self-draw is 20 fu (no self-draw minipoints), a pinfu ron 30; Seven Pairs 25.
    found, _problems = entered(["pinfu"], tsumo=True)
    assert found is not None and (found.han, found.fu) == (2, 20)
    found, _problems = entered(["pinfu", "tanyao"])
    assert found is not None and (found.han, found.fu) == (2, 30)
    found, _problems = entered(["chiitoitsu"])
    assert found is not None and (found.han, found.fu) == (2, 25)
    _found, problems = entered(["pinfu"], fu=40)
    assert problems == [RULE_YAKU_VALUE]


def test_yakuman_are_paid_as_one_unless_the_ruleset_adds_them() -> None:
    found, _problems = entered(["daisangen", "tsuuiisou"])
    assert found is not None and found.yakuman == 1
    doubled = Ruleset.custom("WRC2015", yakuman_accumulate=True, name="Double")
    found, _problems = entered(["daisangen", "tsuuiisou"], ruleset=doubled)
    assert found is not None and found.yakuman == 2


def test_blessing_of_man_is_a_mangan_under_wrcr_and_five_han_under_ema() -> None:
    found, _problems = entered(["renhou"])
    assert found is not None and found.han is None  # the WRCR mangan (§6.5.4)
    found, problems = entered(["renhou", "tanyao"], ruleset=EMA2025, fu=30)
    assert problems == [] and found is not None and found.han == 6  # EMA 2025 "Five han yaku"


def test_red_fives_count_where_the_ruleset_has_them() -> None:
    red = Ruleset.custom("WRC2015", red_fives=3, name="Red")
    found, problems = entered(["tanyao"], aka_dora=2, ruleset=red, fu=30)
    assert problems == [] and found is not None and found.han == 3
    _found, problems = entered(["tanyao"], aka_dora=4, ruleset=red, fu=30)
    assert problems == [RULE_DORA]


def test_the_catalogue_names_every_yaku_the_evaluator_knows() -> None:
    assert {yaku.name for yaku in CATALOGUE} == set(YAKU_ORDER)
    assert yaku_of_names(["Yakuhai (White Dragon)", "All Simples", "Not a yaku"]) == (
        "tanyao",
        "yakuhai_haku",
    )


def _vectors() -> list[dict[str, Any]]:
    return [vector for vector in json.loads(VECTORS.read_text())["vectors"] if vector.get("expected")]


@pytest.mark.parametrize("vector", _vectors(), ids=lambda vector: vector["id"])
def test_entered_yaku_give_the_han_the_tiles_give(vector: dict[str, Any]) -> None:
    """Each WRCR hand vector's yaku, entered by identifier with its dora, open or closed as its melds
    say, give the evaluator's han (or its yakuman): the yaku list's values are the rules texts'."""
    result = evaluate_hand(vector)
    if not result.get("valid") or (result.get("han") is None and result.get("limit") != "yakuman"):
        pytest.skip("no han to compare (not a win, or Blessing of Man as a mangan)")
    is_open = any(meld["type"] != "kan_closed" for meld in vector.get("melds", []))
    from_tiles = tiles_yaku(result, is_open=is_open, yakuman=1 if result["limit"] == "yakuman" else 0)
    flags = vector.get("flags") or {}
    found, problems = read_win_yaku(
        {
            "yaku": list(from_tiles.yaku),
            "open": is_open,
            "dora": result["dora"],
            "ura_dora": result["ura_dora"],
        },
        tsumo=vector["win"] == "tsumo",
        dealer=vector["seat_wind"] == "E",
        declared_riichi=bool(flags.get("riichi") or flags.get("double_riichi")),
        ruleset=WRC,
    )
    assert problems == [], problems
    assert found is not None
    if result["limit"] == "yakuman":
        assert found.yakuman == 1
    else:
        assert found.han == result["han"]
        assert set(found.yaku) == set(from_tiles.yaku)


def sheet(*hands: dict[str, Any]) -> dict[str, Any]:
    return {"players": PLAYERS, "hands": list(hands), "ended_by_time": True}


def test_the_replay_pays_the_han_the_yaku_give_and_keeps_them() -> None:
    verdict = replay(
        sheet(
            # Ana (dealer): Riichi + Pinfu + All Simples + 1 dora = 4 han 30 fu, kiriage mangan 12,000.
            {
                "result": "ron",
                "winner": "Ana",
                "loser": "Cho",
                "yaku": ["pinfu", "tanyao"],
                "dora": 1,
                "riichi": ["Ana"],
            },
            # Ben: Pinfu self-draw, 2 han 20 fu: 400 / 700 (dealer), plus a counter of 100 each.
            {"result": "tsumo", "winner": "Ben", "yaku": ["pinfu"], "riichi": []},
            # Cho: open Half Flush + White Dragon, 3 han 40 fu: 5,200.
            {
                "result": "ron",
                "winner": "Cho",
                "loser": "Dai",
                "yaku": ["honitsu", "yakuhai_haku"],
                "open": True,
                "fu": 40,
                "riichi": [],
            },
        )
    )
    assert verdict.valid, verdict.errors
    assert verdict.hands is not None
    deltas = [hand.deltas for hand in verdict.hands]
    assert deltas[0] == {"Ana": 12000, "Ben": 0, "Cho": -12000, "Dai": 0}
    assert deltas[1] == {"Ana": -800, "Ben": 1800, "Cho": -500, "Dai": -500}
    assert deltas[2] == {"Ana": 0, "Ben": 0, "Cho": 5200, "Dai": -5200}
    record = verdict.as_json()["hands"]
    assert record[0]["yaku"] == {
        "Ana": {"yaku": ["riichi", "pinfu", "tanyao"], "han": 4, "fu": 30, "dora": 1, "source": "entered"}
    }
    assert record[1]["yaku"]["Ben"]["yaku"] == ["menzen_tsumo", "pinfu"]
    assert record[2]["yaku"]["Cho"]["open"] is True


def test_a_refusal_names_the_hand_and_the_rule() -> None:
    verdict = replay(
        sheet(
            {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 1, "fu": 30, "riichi": []},
            {"result": "ron", "winner": "Ben", "loser": "Cho", "yaku": ["pinfu", "toitoi"], "riichi": []},
        )
    )
    assert not verdict.valid
    assert [(error.hand, error.rule) for error in verdict.errors] == [(2, RULE_YAKU_COMBINATION)]
    message = verdict.errors[0].message
    assert message.startswith("hand 2 (East 1, 1 honba): ")
    assert "Pinfu" in message and "All Pungs" in message and "§6.5.1" in message


def test_han_written_beside_the_yaku_must_agree() -> None:
    ok = replay(
        sheet(
            {
                "result": "ron",
                "winner": "Ben",
                "loser": "Cho",
                "yaku": ["tanyao"],
                "han": 1,
                "fu": 30,
                "riichi": [],
            }
        )
    )
    assert ok.valid
    bad = replay(
        sheet(
            {
                "result": "ron",
                "winner": "Ben",
                "loser": "Cho",
                "yaku": ["tanyao"],
                "han": 2,
                "fu": 30,
                "riichi": [],
            }
        )
    )
    assert [(error.hand, error.rule) for error in bad.errors] == [(1, RULE_YAKU_VALUE)]


def test_a_yaku_hand_below_five_han_needs_its_fu() -> None:
    verdict = replay(
        sheet({"result": "ron", "winner": "Ben", "loser": "Cho", "yaku": ["tanyao"], "riichi": []})
    )
    assert [error.rule for error in verdict.errors] == ["han-fu (WRCR 2015 §6.1, §6.3)"]
    mangan = replay(
        sheet({"result": "ron", "winner": "Ben", "loser": "Cho", "yaku": ["chinitsu"], "riichi": []})
    )
    assert mangan.valid  # 6 han: haneman, the fu do not count (§6.1)
    assert mangan.hands is not None and mangan.hands[0].deltas["Ben"] == 12000


def test_tiles_give_the_yaku_and_must_agree_with_entered_yaku() -> None:
    tiles = {"concealed": "234678m345p567s99s", "win_tile": "9s", "melds": [], "dora_indicators": ["1z"]}
    verdict = replay(sheet({"result": "tsumo", "winner": "Ben", "tiles": tiles, "riichi": []}))
    assert verdict.valid, verdict.errors
    assert verdict.as_json()["hands"][0]["yaku"]["Ben"]["yaku"] == ["menzen_tsumo"]
    assert verdict.as_json()["hands"][0]["yaku"]["Ben"]["source"] == "tiles"
    agree = replay(
        sheet({"result": "tsumo", "winner": "Ben", "tiles": tiles, "yaku": [], "fu": 30, "riichi": []})
    )
    assert agree.valid, agree.errors
    disagree = replay(
        sheet(
            {"result": "tsumo", "winner": "Ben", "tiles": tiles, "yaku": ["tanyao"], "fu": 30, "riichi": []}
        )
    )
    assert "hand-tiles (WRCR 2015 §6.1)" in [error.rule for error in disagree.errors]


def test_a_stored_record_reads_back() -> None:
    found = WinYaku(("riichi", "pinfu"), dora=2, han=4, fu=30)
    assert WinYaku.from_json(found.as_json()) == found
    assert WinYaku.from_json({"yaku": ["nonsense"]}) is None
    assert YAKU["honitsu"].value(is_open=True) == 2


def test_a_wins_summary_gives_its_value_its_yaku_in_list_order_and_its_dora() -> None:
    assert win_summary(WinYaku(yaku=("tanyao", "riichi"), han=2, fu=40)) == "2 han 40 fu: Riichi, All Simples"
    assert win_summary(WinYaku(yaku=("riichi",), han=3, dora=1, ura_dora=1)) == "3 han: Riichi; dora 2"
    assert win_summary(WinYaku(yaku=("kokushi",), yakuman=1)) == "yakuman: Thirteen Orphans"
    assert win_summary(WinYaku(yaku=("kokushi", "tenhou"), yakuman=2)).startswith("2 yakuman: ")
    assert win_summary(WinYaku(yaku=("renhou",))) == "mangan: Blessing of Man"


def test_a_stored_hands_wins_are_read_in_the_order_of_its_winners() -> None:
    record = {
        "winners": ["Dai", "Ben"],
        "yaku": {
            "Ben": {"yaku": ["pinfu"], "han": 1, "fu": 30},
            "Dai": {"yaku": ["tanyao"], "han": 1, "fu": 30, "aka_dora": 1},
            "Cho": {"yaku": ["no such yaku"]},
        },
    }
    assert hand_wins(record) == [("Dai", "1 han 30 fu: All Simples; dora 1"), ("Ben", "1 han 30 fu: Pinfu")]
    assert hand_wins({"winners": ["Ben"]}) == [] and hand_wins({"yaku": "riichi"}) == []
