"""Properties of the rules engine over generated legal hanchan (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.legal import LEGAL_FU, han_fu_problem, legal_han_fu
from scoring.rules.payments import basic_points, win_payments
from scoring.rules.replay import replay
from scoring.rules.ruleset import PRESETS, get_ruleset

P = ["Ana", "Ben", "Cho", "Dai"]
# The generator plays a hanchan to the end of South 4 at 30,000 each; the online presets (25,000 each, a
# player below zero ends the game) have their own tests in tests/rules/test_online_presets.py.
RULESETS = sorted(name for name, preset in PRESETS.items() if not preset.busting)


@st.composite
def hands(draw: st.DrawFn, ruleset: str) -> dict[str, Any]:
    """One legal hand in the outcome form (riichi declarers are tenpai at a draw)."""
    riichi = draw(st.lists(st.sampled_from(P), unique=True, max_size=2))
    kind = draw(st.sampled_from(["ron", "ron", "tsumo", "draw", "chombo", "double"]))
    if kind == "draw":
        tenpai = set(riichi) | set(draw(st.lists(st.sampled_from(P), unique=True)))
        return {"result": "draw", "tenpai": sorted(tenpai), "riichi": riichi}
    if kind == "chombo":
        return {"result": "chombo", "offender": draw(st.sampled_from(P)), "riichi": riichi}
    winner = draw(st.sampled_from(P))
    loser = draw(st.sampled_from([player for player in P if player != winner]))
    value = draw(_value(kind == "tsumo"))
    if kind == "double" and PRESETS[ruleset].multiple_ron:
        second = draw(st.sampled_from([player for player in P if player not in (winner, loser)]))
        wins = [{"winner": winner, **value}, {"winner": second, **draw(_value(False))}]
        return {"result": "ron", "loser": loser, "wins": wins, "riichi": riichi}
    if kind == "tsumo":
        return {"result": "tsumo", "winner": winner, **value, "riichi": riichi}
    hand = {"result": "ron", "winner": winner, "loser": loser, **value, "riichi": riichi}
    if value.get("yakuman") and PRESETS[ruleset].liability and draw(st.booleans()):
        hand["liable"] = draw(st.sampled_from([player for player in P if player != winner]))
    return hand


def _value(tsumo: bool) -> st.SearchStrategy[dict[str, int]]:
    return st.one_of(
        st.sampled_from(legal_han_fu(tsumo)).map(lambda value: {"han": value[0], "fu": value[1]}),
        st.integers(5, 13).map(lambda han: {"han": han}),
        st.just({"yakuman": 1}),
    )


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    """A legal hanchan, played to its end (WRCR 2015 §5.8) or stopped by the time limit."""
    ruleset = draw(st.sampled_from(RULESETS))
    limit = draw(st.integers(1, 16))
    generated: list[dict[str, Any]] = []
    round_index = 0
    while round_index < 8 and len(generated) < limit:
        hand = draw(hands(ruleset))
        dealer = P[round_index % 4]
        winners = [win["winner"] for win in hand.get("wins", [])] + [hand.get("winner")]
        keeps = hand["result"] == "chombo" or dealer in winners or dealer in hand.get("tenpai", [])
        round_index += 0 if keeps else 1
        generated.append(hand)
    return {"ruleset": ruleset, "players": P, "hands": generated, "ended_by_time": round_index < 8}


@settings(max_examples=60, deadline=None, database=None)
@given(sheet=sheets())
def test_points_and_sticks_always_total_the_starting_points(sheet: dict[str, Any]) -> None:
    result = replay(sheet).as_json()
    assert result["errors"] == []
    sticks_after = [hand["sticks"] for hand in result["hands"][1:]] + [result["riichi_sticks_left"]]
    for hand, sticks in zip(result["hands"], sticks_after, strict=True):
        assert sum(hand["points"].values()) + 1000 * sticks == 120000


@settings(max_examples=60, deadline=None, database=None)
@given(sheet=sheets())
def test_changes_are_zero_sum_apart_from_riichi(sheet: dict[str, Any]) -> None:
    for hand in replay(sheet).as_json()["hands"]:
        stakes = 1000 * len(hand["riichi"])
        total = sum(hand["deltas"].values())
        if hand["result"] == "draw":
            assert total == -stakes  # the stakes go onto the table
        elif hand["result"] == "chombo":
            assert total == 0  # the stakes are returned (WRCR 2015 §7.1)
        else:
            assert total == -stakes + 1000 * (hand["sticks"] + len(hand["riichi"]))  # the winner collects


@settings(max_examples=60, deadline=None, database=None)
@given(sheet=sheets())
def test_deltas_re_entered_replay_the_same(sheet: dict[str, Any]) -> None:
    first = replay(sheet).as_json()
    entered = []
    for hand in first["hands"]:
        entry = {"deltas": hand["deltas"], "riichi": hand["riichi"]}
        if hand["result"] == "draw":
            entry["tenpai"] = hand["tenpai"]
        if hand["result"] == "chombo":
            entry["chombo"] = hand["offenders"]
        entered.append(entry)
    again = replay({**sheet, "hands": entered, "final_points": first["final_points"]}).as_json()
    keys = ("round", "dealer", "honba", "sticks", "deltas", "points")
    assert [{key: hand[key] for key in keys} for hand in again["hands"]] == [
        {key: hand[key] for key in keys} for hand in first["hands"]
    ]
    for key in (
        "valid",
        "final_points",
        "riichi_sticks_left",
        "finished",
        "ranks",
        "uma",
        "scores",
        "chombo",
    ):
        assert again[key] == first[key]
    # Without the hints, the deltas alone still replay to the same points and scores.
    if all(hand["result"] != "chombo" for hand in first["hands"]):
        bare = [{"deltas": hand["deltas"], "riichi": hand["riichi"]} for hand in first["hands"]]
        third = replay({**sheet, "hands": bare, "ended_by_time": True}).as_json()
        assert third["errors"] == [] and third["final_points"] == first["final_points"]


@settings(max_examples=200, deadline=None, database=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    han=st.integers(1, 14),
    fu=st.sampled_from(LEGAL_FU),
    dealer=st.booleans(),
    tsumo=st.booleans(),
    more_han=st.integers(0, 3),
    more_fu=st.integers(0, 4),
)
def test_payments_never_fall_as_han_or_fu_rise(
    ruleset: str, han: int, fu: int, dealer: bool, tsumo: bool, more_han: int, more_fu: int
) -> None:
    rules = get_ruleset(ruleset)
    higher_fu = LEGAL_FU[min(LEGAL_FU.index(fu) + more_fu, len(LEGAL_FU) - 1)]
    pairs = [(han, fu), (han + more_han, fu), (han, higher_fu), (han + more_han, higher_fu)]
    if any(han_fu_problem(h, f, tsumo=tsumo) for h, f in pairs):
        return

    def total(h: int, f: int) -> int:
        basic = basic_points(h, f, rules)
        return sum(win_payments(basic, dealer=dealer, tsumo=tsumo, honba=0, ruleset=rules).values())

    assert total(han + more_han, fu) >= total(han, fu)
    assert total(han, higher_fu) >= total(han, fu)
    assert total(han + more_han, higher_fu) >= total(han, fu)
