"""Checks shared by the seating tests (pure Python, no database)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any


def assert_valid(rounds: Sequence[Sequence[Sequence[Any]]], players: Sequence[Any]) -> None:
    """Every hanchan seats every player exactly once, four to a table, N/4 tables."""
    n = len(players)
    for h, hanchan in enumerate(rounds):
        assert len(hanchan) == n // 4, f"hanchan {h}: {len(hanchan)} tables"
        seated = [p for table in hanchan for p in table]
        assert all(len(table) == 4 for table in hanchan), f"hanchan {h}: a table without 4 players"
        assert sorted(map(str, seated)) == sorted(map(str, players)), f"hanchan {h}: not everyone once"


def pair_counts(rounds: Sequence[Sequence[Sequence[Any]]]) -> Counter[tuple[Any, Any]]:
    out: Counter[tuple[Any, Any]] = Counter()
    for hanchan in rounds:
        for table in hanchan:
            for a, b in combinations(sorted(table), 2):
                out[(a, b)] += 1
    return out
