"""The quality report gives the figures of the organisers' evaluation tool (seating_eval.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tournament.seating import generate, lower_bounds, quality_report

# Schedules and the figures seating_eval.py gave for them (see the file's "source").
EXPECTED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "seating-report-expected.json").read_text(
        encoding="utf-8"
    )
)
CASES: list[dict[str, Any]] = EXPECTED["cases"]
# The figures checked by hand on the tiny schedules below.
_HAND_KEYS = (
    "players",
    "rounds",
    "tables",
    "valid",
    "excess_meetings",
    "excess_meetings_lower_bound",
    "repeat_pairs",
    "repeat_pairs_lower_bound",
    "max_pair_meetings",
    "distinct_pairs_met",
    "pair_meeting_histogram",
    "table_repeats",
    "table_repeats_lower_bound",
    "table_visit_max_allowed",
    "table_warnings",
    "table_visit_histogram",
    "wind_imbalance",
    "wind_imbalance_lower_bound",
    "wind_allowed_range",
    "wind_warnings",
    "wind_count_histogram",
    "non_meeting_pairs",
    "min_indirect",
    "indirect_histogram",
    "indirect_checked",
    "opponent_graph_components",
    "consecutive_table_repeats",
)


def _random_schedule(n: int, rounds: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        out.append([players[i : i + 4] for i in range(0, n, 4)])
    return out


@pytest.mark.parametrize("case", [c for c in CASES if c["expected"]["valid"]], ids=lambda c: c["name"])
def test_same_figures_as_seating_eval(case: dict[str, Any]) -> None:
    ours = quality_report(case["rounds"])
    for key, value in case["expected"].items():
        assert ours[key] == value, key


def test_invalid_schedule_is_reported_like_seating_eval() -> None:
    [case] = [c for c in CASES if not c["expected"]["valid"]]
    theirs = case["expected"]
    ours = quality_report(case["rounds"])
    assert ours["valid"] is theirs["valid"] is False
    for key in ("table_repeats", "excess_meetings", "wind_imbalance", "players", "tables"):
        assert ours[key] == theirs[key]


def test_four_players_at_one_table_twice() -> None:
    # By hand: the 6 pairs meet twice (6 repeat pairs, 6 excess meetings); each player has 3 opponent
    # slots a hanchan and 3 possible opponents, so the bound is ceil(4 * (6 - 3) / 2) = 6, and
    # ceil(4 * ceil(3 / 1) / 2) = 6 repeat pairs. Each player visits the one table twice: 4 table repeats,
    # bound 4 * (2 - 1) = 4, the allowed ceil(2 / 1) = 2 visits. Seats rotate (1 East then North, 2 South
    # then East...): two winds once each, imbalance 1 (bound 1, R = 2 not a multiple of 4), none outside
    # 0..1. Everyone meets: no stranger, one component. The same table in consecutive hanchan for all four.
    report = quality_report([[[1, 2, 3, 4]], [[2, 3, 4, 1]]])
    assert {key: report[key] for key in _HAND_KEYS} == {
        "players": 4,
        "rounds": 2,
        "tables": 1,
        "valid": True,
        "excess_meetings": 6,
        "excess_meetings_lower_bound": 6,
        "repeat_pairs": 6,
        "repeat_pairs_lower_bound": 6,
        "max_pair_meetings": 2,
        "distinct_pairs_met": 6,
        "pair_meeting_histogram": {"2": 6},
        "table_repeats": 4,
        "table_repeats_lower_bound": 4,
        "table_visit_max_allowed": 2,
        "table_warnings": 0,
        "table_visit_histogram": {"2": 4},
        "wind_imbalance": 1,
        "wind_imbalance_lower_bound": 1,
        "wind_allowed_range": [0, 1],
        "wind_warnings": 0,
        "wind_count_histogram": {"0": 8, "1": 8},
        "non_meeting_pairs": 0,
        "min_indirect": None,
        "indirect_histogram": {},
        "indirect_checked": False,
        "opponent_graph_components": 1,
        "consecutive_table_repeats": 4,
    }
    assert report["optimal"] == {"pair_meetings": True, "tables": False, "winds": True, "indirect": True}


def test_eight_players_one_hanchan_two_groups() -> None:
    # By hand: 12 pairs meet once (6 per table) and 28 - 12 = 16 never meet; a stranger pair has one
    # player at each table, whose opponents are all at their own table: 0 common opponents, and the
    # opponent graph has 2 components. Thresholds floor(sqrt(8)) = 2 and ceil(sqrt(8)) = 3, but with
    # R <= 4 nothing is counted. Each player sits once, at one wind and one of the 2 tables: 8 of the 32
    # wind cells and 8 of the 16 table cells are 1, the rest 0; ceil(1 / 2) = 1 visit allowed.
    report = quality_report([[[1, 2, 3, 4], [5, 6, 7, 8]]])
    assert {key: report[key] for key in _HAND_KEYS} == {
        "players": 8,
        "rounds": 1,
        "tables": 2,
        "valid": True,
        "excess_meetings": 0,
        "excess_meetings_lower_bound": 0,
        "repeat_pairs": 0,
        "repeat_pairs_lower_bound": 0,
        "max_pair_meetings": 1,
        "distinct_pairs_met": 12,
        "pair_meeting_histogram": {"1": 12},
        "table_repeats": 0,
        "table_repeats_lower_bound": 0,
        "table_visit_max_allowed": 1,
        "table_warnings": 0,
        "table_visit_histogram": {"0": 8, "1": 8},
        "wind_imbalance": 1,
        "wind_imbalance_lower_bound": 1,
        "wind_allowed_range": [0, 1],
        "wind_warnings": 0,
        "wind_count_histogram": {"0": 24, "1": 8},
        "non_meeting_pairs": 16,
        "min_indirect": 0,
        "indirect_histogram": {"0": 16},
        "indirect_checked": False,
        "opponent_graph_components": 2,
        "consecutive_table_repeats": 0,
    }
    assert (report["indirect_threshold"], report["indirect_threshold_ceil"]) == (2, 3)
    assert report["indirect_warnings"] == report["indirect_warnings_ceil"] == 0
    assert report["optimal"] == {"pair_meetings": True, "tables": True, "winds": True, "indirect": False}


def test_lower_bounds() -> None:
    assert lower_bounds(16, 5) == {
        "excess_meetings": 0,
        "repeat_pairs": 0,
        "table_repeats": 16,
        "wind_imbalance": 1,
    }
    assert lower_bounds(16, 6)["excess_meetings"] == 24
    assert lower_bounds(20, 8)["excess_meetings"] == 50
    assert lower_bounds(32, 8) == {
        "excess_meetings": 0,
        "repeat_pairs": 0,
        "table_repeats": 0,
        "wind_imbalance": 0,
    }


def test_optimal_flags() -> None:
    report = quality_report(generate(32, 8, seed=1))
    assert report["optimal"] == {"pair_meetings": True, "tables": True, "winds": True, "indirect": True}
    report = quality_report(_random_schedule(32, 8, 5))
    assert report["optimal"]["pair_meetings"] is False
