"""The least-cost assignment of rows to distinct columns (the Hungarian method with potentials), exact.

``assign(cost)`` takes a matrix of ``n`` rows and ``m >= n`` columns and returns, for each row, the column
it gets, every column at most once, with the least total cost; a cost of ``None`` forbids the pair.
O(n^2 m): the re-seating's sit-outs (at most a few dozen slots against the field) take milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence

_FORBIDDEN = float("inf")


class Infeasible(ValueError):
    """No assignment gives every row a column of its own (the allowed pairs leave a row without one)."""


def assign(cost: Sequence[Sequence[float | None]]) -> list[int]:
    """Each row's column in a least-cost assignment (rows <= columns)."""
    n = len(cost)
    if n == 0:
        return []
    m = len(cost[0])
    if m < n or any(len(row) != m for row in cost):
        raise ValueError("the cost matrix needs as many columns as rows at least, in every row")
    big = 1.0 + sum(abs(c) for row in cost for c in row if c is not None)  # above any allowed total
    # 1-based, column 0 the virtual start: u, v potentials; owner[j] the row holding column j.
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        least = [_FORBIDDEN] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta, j1 = _FORBIDDEN, -1
            row = cost[i0 - 1]
            for j in range(1, m + 1):
                if used[j]:
                    continue
                c = row[j - 1]
                current = (big if c is None else c) - u[i0] - v[j]
                if current < least[j]:
                    least[j], way[j] = current, j0
                if least[j] < delta:
                    delta, j1 = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            result[owner[j] - 1] = j - 1
    if any(cost[i][j] is None for i, j in enumerate(result)):
        raise Infeasible("no assignment of every row to an allowed column")
    return result
