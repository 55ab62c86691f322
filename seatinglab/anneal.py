"""Simulated annealing over a whole schedule, table numbers included, with the table repeats and the
common opponents of strangers in one objective.

The generator ranks table repeats before common opponents, so it never trades one table repeat for
more common opponents. A published schedule sometimes makes that trade (40 x 7: 9 table repeats and
every stranger at 9 common opponents, where ours had none and 6). This search starts from any schedule
and looks for one that is at least as good as given figures on every criterion at once: at most
``excess`` excess meetings and ``table_repeats`` table repeats, no player at one table in consecutive
hanchan, and no stranger below ``opponents`` common opponents with at most ``at_fewest`` exactly there.

A move exchanges two players of one hanchan (which changes who meets whom and where they sit) or the
numbers of two tables of one hanchan. The common opponents of every pair are kept up to date: an
exchange only changes the opponent sets of the players whose meeting with someone appears or
disappears, so only the pairs involving them are counted again.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from tournament.seating.cyclic import Groups

#: Cost of one unit beyond a hard limit (excess meeting, table repeat, consecutive table), far above
#: what the common opponents of all strangers can weigh.
HARD = 200
#: A stranger below the wanted level costs this much per missing common opponent, raised to a power
#: so that the worst pairs come first.
BELOW = 8
#: Temperatures at the start and at the end of the time given: a move that pushes one stranger one
#: common opponent further below the level costs about 200.
HOT = 60.0
COLD = 1.0


class WholeSchedule:
    """A schedule (hanchan of tables in table-number order, players ``0..n-1``) and its figures."""

    def __init__(self, n: int, rounds: Sequence[Groups], excess: int, table_repeats: int, level: int) -> None:
        self.n = n
        self.tables = [[list(g) for g in hanchan] for hanchan in rounds]
        self.r = len(self.tables)
        self.t = n // 4
        self.max_excess = excess
        self.max_repeats = table_repeats
        self.level = level
        self.where = [[0] * n for _ in range(self.r)]
        self.meet = [[0] * n for _ in range(n)]
        self.visits = [[0] * self.t for _ in range(n)]
        for h, hanchan in enumerate(self.tables):
            for t, group in enumerate(hanchan):
                for p in group:
                    self.where[h][p] = t
                    self.visits[p][t] += 1
                    for q in group:
                        if p != q:
                            self.meet[p][q] += 1
        self.excess = sum(c - 1 for p in range(n) for c in self.meet[p][p + 1 :] if c > 1)
        self.repeats = sum(c - 1 for row in self.visits for c in row if c > 1)
        self.consecutive = sum(
            1 for h in range(self.r - 1) for p in range(n) if self.where[h][p] == self.where[h + 1][p]
        )
        self.opp = [sum(1 << q for q in range(n) if self.meet[p][q]) for p in range(n)]
        self.common = [[0] * n for _ in range(n)]
        self.soft = 0
        for p in range(n):
            for q in range(p + 1, n):
                self.common[p][q] = self.common[q][p] = (self.opp[p] & self.opp[q]).bit_count()
                self.soft += self._weight(p, q)

    def _weight(self, p: int, q: int) -> int:
        """What the pair costs: nothing if they meet or are above the level, 1 at the level, and
        ``BELOW ** (missing)`` times 4 below it."""
        if self.meet[p][q]:
            return 0
        c = self.common[p][q]
        if c > self.level:
            return 0
        if c == self.level:
            return 1
        return 4 * int(BELOW ** (self.level - c))

    def hard(self) -> int:
        return (
            max(0, self.excess - self.max_excess) + max(0, self.repeats - self.max_repeats) + self.consecutive
        )

    def cost(self) -> int:
        return HARD * self.hard() + self.soft

    def figures(self) -> tuple[int, int]:
        """The fewest common opponents of two strangers and how many pairs have so few (``(n, 0)``
        when every pair meets)."""
        low, at_low = self.n, 0
        for p in range(self.n):
            row, met = self.common[p], self.meet[p]
            for q in range(p + 1, self.n):
                if not met[q]:
                    c = row[q]
                    if c < low:
                        low, at_low = c, 0
                    if c == low:
                        at_low += 1
        return low, at_low

    def _seat(self, h: int, p: int, old: int, new: int) -> None:
        """Player ``p`` moves from table ``old`` to ``new`` in hanchan ``h``: visits and consecutive."""
        where = self.where
        before = (h > 0 and where[h - 1][p] == old) + (h + 1 < self.r and where[h + 1][p] == old)
        after = (h > 0 and where[h - 1][p] == new) + (h + 1 < self.r and where[h + 1][p] == new)
        self.consecutive += after - before
        row = self.visits[p]
        if row[old] >= 2:
            self.repeats -= 1
        row[old] -= 1
        if row[new] >= 1:
            self.repeats += 1
        row[new] += 1
        where[h][p] = new

    def exchange_tables(self, h: int, t1: int, t2: int) -> None:
        """The groups at tables ``t1`` and ``t2`` of hanchan ``h`` exchange their table numbers."""
        hanchan = self.tables[h]
        for p in hanchan[t1]:
            self._seat(h, p, t1, t2)
        for p in hanchan[t2]:
            self._seat(h, p, t2, t1)
        hanchan[t1], hanchan[t2] = hanchan[t2], hanchan[t1]

    def exchange_players(self, h: int, t1: int, i: int, t2: int, j: int) -> None:
        """Player ``i`` of table ``t1`` and player ``j`` of table ``t2`` of hanchan ``h`` change places
        (the same call undoes it)."""
        hanchan = self.tables[h]
        a, b = hanchan[t1][i], hanchan[t2][j]
        first = [x for x in hanchan[t1] if x != a]
        second = [y for y in hanchan[t2] if y != b]
        meet = self.meet
        changes = [(a, x, -1) for x in first] + [(b, x, 1) for x in first]
        changes += [(b, y, -1) for y in second] + [(a, y, 1) for y in second]
        touched: set[int] = set()
        for p, q, d in changes:
            if (d < 0 and meet[p][q] == 1) or (d > 0 and meet[p][q] == 0):
                touched.add(p)
                touched.add(q)
        weight = self._weight
        n = self.n
        for x in touched:
            for q in range(n):
                if q != x and (q not in touched or q > x):
                    self.soft -= weight(x, q)
        for p, q, d in changes:
            before = meet[p][q]
            if d < 0 and before >= 2:
                self.excess -= 1
            elif d > 0 and before >= 1:
                self.excess += 1
            meet[p][q] = meet[q][p] = before + d
            if before + d == 0:
                self.opp[p] &= ~(1 << q)
                self.opp[q] &= ~(1 << p)
            elif before == 0:
                self.opp[p] |= 1 << q
                self.opp[q] |= 1 << p
        opp, common = self.opp, self.common
        for x in touched:
            mine = opp[x]
            row = common[x]
            for q in range(n):
                if q != x and (q not in touched or q > x):
                    row[q] = common[q][x] = (mine & opp[q]).bit_count()
                    self.soft += weight(x, q)
        self._seat(h, a, t1, t2)
        self._seat(h, b, t2, t1)
        hanchan[t1][i], hanchan[t2][j] = b, a


def anneal_tables(
    n: int,
    start: Sequence[Groups],
    rng: random.Random,
    seconds: float,
    *,
    excess: int,
    table_repeats: int,
    opponents: int,
    at_fewest: int | None = None,
    report: Callable[[str], None] | None = None,
    hot: float = HOT,
    cold: float = COLD,
) -> list[Groups] | None:
    """A schedule reaching the given figures (see the module), found by simulated annealing from
    ``start`` within ``seconds``; ``None`` if none was found in time. ``report`` receives a line on
    the state now and then. ``hot`` and ``cold``: the temperatures at the start and at the end (lower
    ones where only the count of strangers at the level must fall, each of them costing one)."""
    state = WholeSchedule(n, start, excess, table_repeats, opponents)
    rounds, tables = state.r, state.t
    began = time.monotonic()
    deadline = began + seconds
    cost = state.cost()
    temperature = hot
    steps = 0
    # The lowest soft cost seen free of hard costs; the start usually has hard costs (that is why the
    # search runs), so its own soft cost says nothing.
    best = 1 << 62

    def reached() -> bool:
        if state.hard():
            return False
        low, at_low = state.figures()
        return low > opponents or (low == opponents and (at_fewest is None or at_low <= at_fewest))

    if reached():
        return [[list(g) for g in hanchan] for hanchan in state.tables]
    while True:
        steps += 1
        if (steps & 255) == 0:
            now = time.monotonic()
            if now > deadline:
                return None
            # Geometric cooling over the time given, from hot to cold.
            temperature = hot * (cold / hot) ** ((now - began) / seconds)
            if report is not None and (steps & 65535) == 0:
                report(
                    f"{steps} steps, temperature {temperature:.1f}: excess {state.excess}, table "
                    f"repeats {state.repeats}, consecutive {state.consecutive}, worst strangers "
                    f"{state.figures()}"
                )
        h = rng.randrange(rounds)
        t1 = rng.randrange(tables)
        t2 = rng.randrange(tables - 1)
        t2 += t2 >= t1
        if rng.random() < 0.15:
            state.exchange_tables(h, t1, t2)
            undo: Callable[[], None] = partial(state.exchange_tables, h, t1, t2)
        else:
            i, j = rng.randrange(4), rng.randrange(4)
            state.exchange_players(h, t1, i, t2, j)
            undo = partial(state.exchange_players, h, t1, i, t2, j)
        after = state.cost()
        delta = after - cost
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            cost = after
            # Checked at every accepted state that ties or beats the best seen free of hard costs, not
            # only after improving moves: a move that removes the last table repeat may still cost more
            # (the common opponents it spoils), and the state it reaches can be the one wanted.
            if not state.hard() and state.soft <= best:
                best = state.soft
                if reached():
                    return [[list(g) for g in hanchan] for hanchan in state.tables]
        else:
            undo()  # the same exchange again puts everything back
