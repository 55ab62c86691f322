"""The generator's common-opponent search, allowed some table repeats.

The generator ranks table repeats before common opponents, so its common-opponent search
(``tournament.seating.opponents.OpponentSearch``) refuses every exchange that adds a table repeat. A
published schedule sometimes makes that trade (40 x 7: 9 table repeats and every stranger at 9 common
opponents, where ours had none and 6). Offline, the same search may run with an allowance: any exchange
is acceptable to the table numbers while the schedule keeps at most ``limit`` table repeats and no player
at one table in consecutive hanchan. What it finds is shipped as an exact entry (used as found).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournament.seating.cyclic import Groups
from tournament.seating.opponents import OpponentSearch
from tournament.seating.search import Budget, GroupState


class TableAllowance:
    """Table numbers as the common-opponent search sees them (``opponents.TableCost``): an exchange
    costs nothing while at most ``limit`` table repeats and no consecutive table remain,
    else one. The table of a player is the position of its group in the hanchan."""

    def __init__(self, state: GroupState, tables: int, limit: int) -> None:
        self.s = state
        self.limit = limit
        self.visits = [[0] * tables for _ in range(state.n)]
        for where in state.where:
            for p, t in enumerate(where):
                self.visits[p][t] += 1
        self.repeats = sum(c - 1 for row in self.visits for c in row if c > 1)

    def _consecutive(self, r: int, p: int, table: int) -> int:
        where = self.s.where
        return (r > 0 and where[r - 1][p] == table) + (r + 1 < len(where) and where[r + 1][p] == table)

    def _repeats_delta(self, r: int, a: int, b: int) -> int:
        where = self.s.where[r]
        ga, gb = where[a], where[b]
        va, vb = self.visits[a], self.visits[b]
        return (va[gb] >= 1) - (va[ga] >= 2) + (vb[ga] >= 1) - (vb[gb] >= 2)

    def player_delta(self, r: int, a: int, b: int) -> int:
        where = self.s.where[r]
        ga, gb = where[a], where[b]
        if self._consecutive(r, a, gb) or self._consecutive(r, b, ga):
            return 1
        return int(self.repeats + self._repeats_delta(r, a, b) > self.limit)

    def move_visits(self, r: int, a: int, b: int) -> None:
        where = self.s.where[r]
        ga, gb = where[a], where[b]
        self.repeats += self._repeats_delta(r, a, b)
        self.visits[a][ga] -= 1
        self.visits[a][gb] += 1
        self.visits[b][gb] -= 1
        self.visits[b][ga] += 1


def raise_opponents(
    n: int, start: Sequence[Groups], limit: int, rng: random.Random, units: int, deadline: float | None
) -> list[Groups]:
    """``start`` (hanchan of groups in table-number order, players ``0..n-1``) after the common-opponent
    search with an allowance of ``limit`` table repeats; never worse for the worst strangers."""
    state = GroupState(
        n,
        [[list(g) for g in hanchan] for hanchan in start],
        [bytearray(n) for _ in range(n)],
        [None] * len(start),
    )
    allowance = TableAllowance(state, n // 4, limit)
    OpponentSearch(state, rng, allowance).run(Budget(units, deadline))
    return [[list(g) for g in hanchan] for hanchan in state.rounds]
