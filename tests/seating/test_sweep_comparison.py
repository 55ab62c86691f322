"""The sweep's size-by-size comparison with the published schedules (benchmarks/seating_sweep.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


@pytest.fixture(scope="module")
def sweep() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "seating_sweep.py"
    spec = importlib.util.spec_from_file_location("seating_sweep", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ours(**figures: Any) -> dict[str, Any]:
    row = {
        "players": 40,
        "rounds": 7,
        "excess_meetings": 0,
        "table_repeats": 0,
        "min_indirect": 6,
        "indirect_at_min": 1,
        "consecutive_table_repeats": 0,
        "wind_imbalance": 1,
        "wind_imbalance_lower_bound": 1,
        "opponent_graph_components": 1,
    }
    row.update(figures)
    return row


def test_a_trade_of_table_repeats_for_common_opponents_is_worse_on_one_criterion(sweep: ModuleType) -> None:
    # 40 x 7 before: theirs 9 common opponents with 9 table repeats, ours 6 with none.
    theirs = {"excess_meetings": 0, "table_repeats": 9, "min_indirect": 9, "indirect_at_min": 18}
    assert sweep.pareto_worse(_ours(), theirs) == (["worst strangers"], [])
    assert sweep.pareto_worse(_ours(table_repeats=9, min_indirect=9, indirect_at_min=18), theirs) == ([], [])
    # More strangers at the same fewest common opponents is worse; a higher fewest is better at any count.
    assert sweep.pareto_worse(_ours(table_repeats=9, min_indirect=9, indirect_at_min=19), theirs)[0]
    assert sweep.pareto_worse(_ours(min_indirect=10, indirect_at_min=300), theirs) == ([], [])
    assert sweep.pareto_worse(_ours(table_repeats=10, min_indirect=10), theirs)[0] == ["table repeats"]


def test_figures_not_published_are_undecided_unless_ours_is_at_the_best(sweep: ModuleType) -> None:
    theirs = {"excess_meetings": 0, "table_repeats": 0, "min_indirect": 6, "indirect_at_min": 1}
    assert sweep.pareto_worse(_ours(consecutive_table_repeats=2, opponent_graph_components=2), theirs) == (
        [],
        ["consecutive table repeats", "connectedness"],
    )
    # 16 players without a repeat meeting: four consecutive table repeats per hanchan are forced.
    sixteen = _ours(players=16, rounds=5, consecutive_table_repeats=16, min_indirect=None)
    assert sweep.pareto_worse(sixteen, {"excess_meetings": 0, "table_repeats": 34}) == ([], [])
