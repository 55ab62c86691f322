"""The least-cost assignment of rows to distinct columns: the Hungarian method on a square matrix
(:func:`hungarian`, which the table searches and the Swiss hanchan use), a matching on the cheapest
columns for large fields (:func:`cheap_assignment`), and :func:`assign`, exact, for matrices with more
columns than rows and forbidden pairs: the Hungarian method on the matrix made square.

``assign(cost)`` takes a matrix of ``n`` rows and ``m >= n`` columns and returns, for each row, the column
it gets, every column at most once, with the least total cost; a cost of ``None`` forbids the pair.
The re-seating's sit-outs (at most a few dozen slots against the field) take milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class Infeasible(ValueError):
    """No assignment gives every row a column of its own (the allowed pairs leave a row without one)."""


def assign(cost: Sequence[Sequence[int | None]]) -> list[int]:
    """Each row's column in a least-cost assignment (rows <= columns)."""
    n = len(cost)
    if n == 0:
        return []
    m = len(cost[0])
    if m < n or any(len(row) != m for row in cost):
        raise ValueError("the cost matrix needs as many columns as rows at least, in every row")
    big = 1 + sum(abs(c) for row in cost for c in row if c is not None)  # above any allowed total
    square = [[big if c is None else c for c in row] for row in cost]
    square += [[0] * m for _ in range(m - n)]  # rows of nobody for the columns left over
    result = hungarian(square)[:n]
    if any(cost[i][j] is None for i, j in enumerate(result)):
        raise Infeasible("no assignment of every row to an allowed column")
    return result


def hungarian(cost: Sequence[Sequence[int]]) -> list[int]:
    """Minimum-cost perfect assignment of a square matrix: ``result[row] = column``."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row (1-based, 0 = none)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            row = cost[i0 - 1]
            ui0 = u[i0]
            delta = inf
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while True:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
            if j0 == 0:
                break
    result = [0] * n
    for j in range(1, n + 1):
        result[match[j] - 1] = j - 1
    return result


def cheap_assignment(matrix: list[list[int]], rng: random.Random) -> list[int]:
    """Assignment for large fields: a perfect matching on the cheapest table of every group where one
    exists (augmenting paths), the remaining groups greedily."""
    n = len(matrix)
    floor = [min(row) for row in matrix]
    owner = [-1] * n
    result = [-1] * n
    order = list(range(n))
    rng.shuffle(order)
    tables = list(range(n))

    def augment(g: int, seen: bytearray) -> bool:
        row = matrix[g]
        rng.shuffle(tables)
        for t in list(tables):
            if row[t] != floor[g] or seen[t]:
                continue
            seen[t] = 1
            if owner[t] < 0 or augment(owner[t], seen):
                owner[t] = g
                result[g] = t
                return True
        return False

    for g in order:
        augment(g, bytearray(n))
    for g in order:
        if result[g] < 0:
            free = [t for t in range(n) if owner[t] < 0]
            t = min(free, key=lambda tt: matrix[g][tt])
            owner[t] = g
            result[g] = t
    return result
