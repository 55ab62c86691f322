"""Checks shared by the seating tests (pure Python, no database)."""

from __future__ import annotations

import ast
import functools
import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
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
# The repository, whose files' imports ``imports`` reads.
ROOT = Path(__file__).resolve().parents[2]


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


def check_no_repeat(rounds: list[list[list[int]]], n: int) -> None:
    """Every hanchan seats players ``0..n-1`` once and no two players meet twice."""
    for hanchan in rounds:
        assert sorted(p for g in hanchan for p in g) == list(range(n))
    assert max(pair_counts(rounds).values()) == 1


def table_visits(rounds: list[list[list[int]]], n: int) -> list[list[int]]:
    """How often each player ``0..n-1`` sits at each table, over ``rounds``."""
    visits = [[0] * len(rounds[0]) for _ in range(n)]
    for hanchan in rounds:
        for t, group in enumerate(hanchan):
            for p in group:
                visits[p][t] += 1
    return visits


def fewest_common_opponents(rounds: list[list[list[int]]], n: int) -> int:
    """The fewest common opponents of two players who never meet (0 when every pair meets)."""
    opponents: dict[int, set[int]] = {p: set() for p in range(n)}
    for hanchan in rounds:
        for group in hanchan:
            for p in group:
                opponents[p].update(set(group) - {p})
    strangers = [(p, q) for p in range(n) for q in range(p + 1, n) if q not in opponents[p]]
    return min((len(opponents[p] & opponents[q]) for p, q in strangers), default=0)


def imports(path: Path) -> list[tuple[str, bool]]:
    """Every module a file of the repository imports (relative ones resolved), and whether the import
    sits in a function."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        id(node)
        for func in ast.walk(tree)
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(func)
    }
    out: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, id(node) in inside) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base]) if base else ".".join(parts)
            names = [f"{base}.{alias.name}" for alias in node.names] if not node.module else [base]
            out += [(name, id(node) in inside) for name in names]
    return out
