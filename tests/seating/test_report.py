"""The quality report gives the figures of the organisers' evaluation tool."""

from __future__ import annotations

import random

import pytest

from tournament.seating import generate, lower_bounds, quality_report

from .helpers import load_seating_eval

seating_eval = load_seating_eval()
needs_eval = pytest.mark.skipif(seating_eval is None, reason="shared seating_eval.py not available")


def _random_schedule(n: int, rounds: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        out.append([players[i : i + 4] for i in range(0, n, 4)])
    return out


@needs_eval
@pytest.mark.parametrize(
    "rounds",
    [
        generate(16, 5, seed=1).as_lists(),
        generate(20, 7, seed=2, time_limit=1).as_lists(),
        generate(36, 6, seed=3, time_limit=1).as_lists(),
        _random_schedule(24, 9, 1),
        _random_schedule(40, 3, 2),
        _random_schedule(12, 1, 3),
        [[["a", "b", "c", "d"], ["e", "f", "g", "h"]], [["a", "e", "c", "g"], ["b", "f", "d", "h"]]],
    ],
)
def test_same_figures_as_seating_eval(rounds: list[list[list[object]]]) -> None:
    assert seating_eval is not None
    theirs = seating_eval.evaluate({"rounds": rounds})
    ours = quality_report(rounds)
    for key, value in theirs.items():
        assert ours[key] == value, key


@needs_eval
def test_invalid_schedule_is_reported_like_seating_eval() -> None:
    assert seating_eval is not None
    rounds = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 3, 5], [4, 6, 7, 8], [9, 10, 11, 12]]]
    theirs = seating_eval.evaluate({"rounds": rounds})
    ours = quality_report(rounds)
    assert ours["valid"] is theirs["valid"] is False
    for key in ("table_repeats", "excess_meetings", "wind_imbalance", "players", "tables"):
        assert ours[key] == theirs[key]


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
