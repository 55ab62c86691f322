"""Offline finder: a transversal design with its table numbers from a difference matrix over Z_m.

A ``(m, 5, 1)`` *difference matrix* over Z_m is a 5 x m matrix whose rows, taken two at a time, differ
by every element of Z_m exactly once (column by column). Developed over Z_m it seats ``N = 4m`` players
``(x, i)`` (type ``i`` in 0..3, ``x`` in Z_m) for ``R = m`` hanchan: in hanchan ``c`` table
``D[4][c] + t`` holds ``(D[i][c] + t, i)`` for ``i`` in 0..3, for every ``t`` in Z_m. Then

* two players of different types meet exactly once (their rows differ by each element once) and two of
  one type never: a resolvable transversal design, the four types its groups;
* each player sits at every table exactly once (row 4 differs from row ``i`` by each element once): no
  table repeat at all, so none in consecutive hanchan either;
* the players who never meet are the ``m - 1`` others of their type, and any two of them share the
  ``3m`` players of the other types as common opponents: the most a schedule of this size can give.

The field constructions of :mod:`tournament.seating.constructions` give such matrices when every prime
power in ``m`` is at least 5. Z_15 is not one (GF(3) holds three elements), yet a ``(15, 5, 1)`` matrix
over Z_15 exists: row 0 is zero, row 1 the identity, and the three others *orthomorphisms* (``s(x) - x``
a bijection too) that differ pairwise by bijections. A SAT solver finds three in about half a minute
(60 x 15: every stranger 45 common opponents and no table repeat, where the published schedule has 33
and 144).
"""

from __future__ import annotations

import random
from itertools import combinations

from tournament.seating.cyclic import Groups

from .satfind import Formula, solve


def difference_matrix(m: int, rng: random.Random, seconds: float) -> list[list[int]] | None:
    """A ``(m, 5, 1)`` difference matrix over Z_m (rows as lists), ``None`` if the solver runs out of
    ``seconds``; :class:`.satfind.Unsatisfiable` if it proves there is none. ``rng`` permutes the
    variable numbering (another seed, another search).

    ``s[k][x][y]``: the orthomorphism ``k`` maps ``x`` to ``y``. Each is a bijection with ``s(0) = 0``
    (a column may be subtracted from every row) and ``s(x) - x`` a bijection; for two of them, ``k`` and
    ``other``, a mark per ``x`` and ``e`` stands for ``s_k(x) - s_other(x) = e``, exactly one ``x`` for
    each ``e``."""
    formula = Formula()
    new, clauses = formula.new, formula.clauses

    def one(lits: list[int]) -> None:
        # Pairwise: at most m^2 clauses per constraint, and the solver propagates them directly.
        clauses.append(lits)
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))

    slots = [(k, x, y) for k in range(3) for x in range(m) for y in range(m)]
    rng.shuffle(slots)
    s = [[[0] * m for _ in range(m)] for _ in range(3)]
    for k, x, y in slots:
        s[k][x][y] = new()
    for k in range(3):
        clauses.append([s[k][0][0]])
        for x in range(m):
            one(s[k][x])
        for y in range(m):
            one([s[k][x][y] for x in range(m)])
        for e in range(m):
            one([s[k][x][(x + e) % m] for x in range(m)])
    for k, other in combinations(range(3), 2):
        for e in range(m):
            marks = []
            for x in range(m):
                mark = new()
                marks.append(mark)
                for y in range(m):
                    clauses.append([-s[k][x][y], -s[other][x][(y - e) % m], mark])
                    clauses.append([-mark, -s[k][x][y], s[other][x][(y - e) % m]])
            one(marks)
    model = solve(clauses, seconds)
    if model is None:
        return None
    rows = [[0] * m, list(range(m))]
    rows += [[next(y for y in range(m) if s[k][x][y] in model) for x in range(m)] for k in range(3)]
    return rows


def is_difference_matrix(rows: list[list[int]], m: int) -> bool:
    """Whether any two of ``rows`` differ, column by column, by every element of Z_m exactly once."""
    return all(
        sorted((a - b) % m for a, b in zip(first, second, strict=True)) == list(range(m))
        for first, second in combinations(rows, 2)
    )


def matrix_schedule(rows: list[list[int]], m: int) -> list[Groups]:
    """The ``m`` hanchan of ``4m`` players developed from a ``(m, 5, 1)`` difference matrix: player
    ``(x, i)`` is numbered ``i * m + x``, and hanchan ``c`` lists its tables in table-number order."""
    rounds: list[Groups] = []
    for c in range(m):
        hanchan: Groups = [[] for _ in range(m)]
        for t in range(m):
            hanchan[(rows[4][c] + t) % m] = [i * m + (rows[i][c] + t) % m for i in range(4)]
        rounds.append(hanchan)
    return rounds
