"""Whatever a sheet holds, the replay answers with a verdict (errors), never an exception."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.replay import replay

NAMES = ["Ana", "Ben", "Cho", "Dai"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200000) | st.sampled_from([*NAMES, "Eve", "", "ron"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(NAMES), children, max_size=4)
    ),
    max_leaves=8,
)
hand_keys = st.sampled_from(
    [
        "result",
        "winner",
        "loser",
        "han",
        "fu",
        "yakuman",
        "riichi",
        "tenpai",
        "offender",
        "liable",
        "deltas",
        "chombo",
        "wins",
        "tiles",
    ]
)
hands = st.dictionaries(hand_keys, json_values, max_size=7)
results = st.sampled_from(["ron", "tsumo", "draw", "chombo", "bogus"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(results, hands), max_size=6), st.booleans())
def test_any_sheet_gets_a_verdict(drawn: list[tuple[str, dict[str, Any]]], ended_by_time: bool) -> None:
    sheet = {
        "players": NAMES,
        "hands": [{"result": r, **h} for r, h in drawn],
        "ended_by_time": ended_by_time,
    }
    verdict = replay(sheet).as_json()
    assert isinstance(verdict["valid"], bool)
    if not verdict["valid"]:
        assert verdict["errors"] and all({"hand", "rule", "message"} <= set(e) for e in verdict["errors"])
