"""The least-cost assignment of rows to distinct columns, exact, for matrices with more columns than rows
and forbidden pairs: the table search's Hungarian method (``tables.hungarian``) on the matrix made square.

``assign(cost)`` takes a matrix of ``n`` rows and ``m >= n`` columns and returns, for each row, the column
it gets, every column at most once, with the least total cost; a cost of ``None`` forbids the pair.
The re-seating's sit-outs (at most a few dozen slots against the field) take milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .tables import hungarian


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
