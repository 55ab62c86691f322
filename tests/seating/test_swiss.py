"""Swiss hanchan from the standings."""

from __future__ import annotations

import pytest

from tournament.seating.swiss import swiss_round

from .helpers import assert_valid, pair_counts
from .helpers import history as played


def test_top_four_together_without_history() -> None:
    ranking = list(range(101, 117))
    hanchan = swiss_round(ranking)
    assert_valid([hanchan], ranking)
    groups = sorted(sorted(table) for table in hanchan)
    assert groups == [ranking[i : i + 4] for i in range(0, 16, 4)]


@pytest.mark.parametrize("seed", [0, 5])
def test_repeats_avoided_with_small_moves(seed: int) -> None:
    history = played(32, 3, built_for=8, seed=seed)
    ranking = [p for hanchan in history[:1] for table in hanchan for p in table]  # tables met in h1
    hanchan = swiss_round(ranking, history)
    assert_valid([hanchan], ranking)
    meetings = pair_counts([*history, hanchan])
    assert max(meetings.values()) == 1
    position = {p: i // 4 for i, p in enumerate(ranking)}
    moved = 0
    for t, table in enumerate(sorted(hanchan, key=lambda tb: min(position[p] for p in tb))):
        for p in table:
            assert abs(position[p] - t) <= 3  # nobody is moved far from their place
            moved += abs(position[p] - t)
    assert moved <= 48


def test_table_numbers_and_winds_follow_the_history() -> None:
    history = played(40, 4, built_for=8, seed=2)
    ranking = sorted(range(1, 41))
    hanchan = swiss_round(ranking, history)
    last = {p: t for t, table in enumerate(history[-1]) for p in table}
    for t, table in enumerate(hanchan):
        assert all(last[p] != t for p in table)
    east_before = {p: sum(1 for h in history for table in h if table[0] == p) for p in ranking}
    for table in hanchan:
        assert east_before[table[0]] == min(east_before[p] for p in table)


def test_deterministic() -> None:
    history = played(40, 2, built_for=8, seed=1)
    ranking = list(range(40, 0, -1))
    assert swiss_round(ranking, history, seed=3) == swiss_round(ranking, history, seed=3)
