"""Checks shared by the seating tests (pure Python, no database)."""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

# The time limit of a generation whose figures a test asserts: none, so that the searches end on their own
# budgets (work, not seconds) and give the same schedule on an idle machine and on a loaded one. A wall-clock
# limit would cut them wherever the machine's speed left them, and a figure reached late would be missed.
UNTIMED = math.inf
# The time limit of a generation whose test asserts what holds from the search's first moments (a hard
# rule, or a figure the starting design already has): each such assertion was seen to hold with the
# generator's smallest limit (0.05 s), so this is ten times that, and the test pays half a second, not the
# two or three of a search left to improve figures it does not look at.
QUICK = 0.5


def history(n: int, rounds: int, *, built_for: int, seed: int = 0) -> list[list[list[int]]]:
    """A schedule of ``rounds`` hanchan for players ``1..n`` where a test needs played hanchan and their
    quality is not what it checks: the first hanchan of the ``built_for``-hanchan schedule, which the
    generator builds at once (a shipped or algebraic design), rather than a search of seconds of its own
    for ``rounds``. Every hanchan is valid and no two players meet twice."""
    schedule = _built(n, built_for, seed)
    assert len(schedule) >= rounds
    return [list(map(list, hanchan)) for hanchan in schedule[:rounds]]


@functools.cache
def _built(n: int, built_for: int, seed: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The schedule ``history`` takes its hanchan from, generated once per process (read-only: each test
    gets lists of its own)."""
    from tournament.seating import generate

    return tuple(
        tuple(tuple(table) for table in hanchan) for hanchan in generate(n, built_for, seed=seed).rounds
    )


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


def players_moved(
    before: Sequence[Sequence[Any]], after: Sequence[Sequence[Any]], field: Sequence[Any]
) -> set[Any]:
    """Who of ``field`` had a seat in hanchan ``before`` and sits elsewhere (another table or wind) or
    nowhere in ``after``: counted here from the tables themselves, not by the product's function."""
    old = {}
    for t, table in enumerate(before):
        for w, p in enumerate(table):
            old[p] = (t, w)
    new = {}
    for t, table in enumerate(after):
        for w, p in enumerate(table):
            new[p] = (t, w)
    return {p for p in field if p in old and new.get(p) != old[p]}


def excess_meetings(rounds: Sequence[Sequence[Sequence[Any]]]) -> int:
    """Meetings beyond the first of every pair, over ``rounds``."""
    return sum(count - 1 for count in pair_counts(rounds).values() if count > 1)
