"""Who takes which free seat in a re-seating (:func:`.reseat.reseat`): the exchange search over all the
remaining hanchan, players as indices. Simulated annealing exchanges two movers, in the generator's
order of the criteria: repeat meetings (over the hanchan played and the whole new schedule),
separation, table repeats (and the same table in consecutive hanchan), then seat winds. With a cap on
repeat meetings an iterated best-improvement descent may also exchange players who keep their seats,
trading moves for repeat meetings down to the cap.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

#: Weights of the second objective, in the generator's order of the criteria.
MEETING_WEIGHT = 1_000_000
SPREAD_WEIGHT = 10_000
SEPARATION_WEIGHT = 100_000
TABLE_WEIGHT = 1_000
CONSECUTIVE_WEIGHT = 3_000
WIND_WEIGHT = 10
#: With a cap on repeat meetings, one repeat meeting beyond it outweighs any number of moves there can
#: be, and a move outweighs the second objective.
OVER_CAP_WEIGHT = 10**15
MOVE_WEIGHT = 10**9


class FreeSeatSearch:
    """The exchange search of one re-seating over all its hanchan (players as indices).

    ``home[h][p]`` is the published seat ``p`` can keep in hanchan ``h`` (or none); a player away from it
    has moved. ``cap``, when given, is the most repeat meetings the schedule may have before moves are
    traded for them (see :func:`.reseat.reseat`)."""

    def __init__(
        self,
        n: int,
        tables: list[list[list[int]]],
        home: list[dict[int, tuple[int, int]]],
        history_meet: list[list[int]],
        history_visits: list[list[int]],
        history_winds: list[list[int]],
        last_table: list[int],
        apart: list[list[set[int]] | None],
        rng: random.Random,
    ) -> None:
        self.n = n
        self.tables = tables
        self.home = home
        self.apart = apart
        self.rng = rng
        self.meet = [list(row) for row in history_meet]
        self.visits = [list(row) for row in history_visits]
        self.winds = [list(row) for row in history_winds]
        self.last_table = last_table
        self.rounds = len(tables)
        self.cap: int | None = None
        # With a most meetings of a pair (``meet_cap``): the meetings beyond it, over every pair.
        self.meet_cap: int | None = None
        self.over_meetings = 0
        self.journal: list[tuple[int, tuple[int, int], tuple[int, int]]] | None = None
        table_count = max((len(h) for h in tables), default=0)
        for row in self.visits:
            row.extend([0] * max(0, table_count - len(row)))
        self.excess = sum(max(0, m - 1) for p in range(n) for m in self.meet[p][p + 1 :])
        self.where: list[list[int]] = [[-1] * n for _ in tables]  # hanchan -> player -> table
        self.moves = 0
        for h, hanchan in enumerate(tables):
            for t, table in enumerate(hanchan):
                for w, p in enumerate(table):
                    self.where[h][p] = t
                    self.visits[p][t] += 1
                    self.winds[p][w] += 1
                    if p in home[h] and home[h][p] != (t, w):
                        self.moves += 1
                for a in range(4):
                    for b in range(a + 1, 4):
                        self._meet(table[a], table[b], +1)

    def _meet(self, p: int, q: int, sign: int) -> None:
        before = self.meet[p][q]
        after = before + sign
        self.meet[p][q] = self.meet[q][p] = after
        self.excess += max(0, after - 1) - max(0, before - 1)
        if self.meet_cap is not None:
            self.over_meetings += max(0, after - self.meet_cap) - max(0, before - self.meet_cap)

    def cap_meetings(self, most: int) -> None:
        """No pair to meet more than ``most`` times: the meetings beyond it count as repeat meetings over
        the cap do (see ``key``)."""
        self.meet_cap = most
        self.over_meetings = sum(max(0, m - most) for p in range(self.n) for m in self.meet[p][p + 1 :])

    @staticmethod
    def _pair(m: int) -> int:
        if m <= 1:
            return 0
        extra = m - 1
        return MEETING_WEIGHT * extra + SPREAD_WEIGHT * extra * (extra - 1) // 2

    def _table_at(self, p: int, h: int) -> int:
        if h < 0:
            return self.last_table[p] if h == -1 else -2
        if h >= self.rounds:
            return -2
        return self.where[h][p]

    def _player_cost(self, h: int, t: int, w: int, p: int, others: Sequence[int]) -> int:
        """What ``p`` at seat ``(t, w)`` of hanchan ``h`` costs beside ``others`` (meetings counted as
        they stand, ``p`` seated)."""
        cost = 0
        for q in others:
            cost += self._pair(self.meet[p][q])
        sep = self.apart[h]
        if sep is not None:
            cost += SEPARATION_WEIGHT * sum(1 for q in others if q in sep[p])
        # Linear in the counts, which include ``p`` here: an exchange then changes the sum of C(count, 2)
        # over tables and winds by exactly the difference (a convex measure of repeats).
        cost += TABLE_WEIGHT * (self.visits[p][t] - 1)
        if self._table_at(p, h - 1) == t:
            cost += CONSECUTIVE_WEIGHT
        if self._table_at(p, h + 1) == t:
            cost += CONSECUTIVE_WEIGHT
        cost += WIND_WEIGHT * self.winds[p][w]
        return cost

    def _place(self, h: int, t: int, w: int, p: int, sign: int) -> None:
        for q in self.tables[h][t]:
            if q != p and q >= 0:
                self._meet(p, q, sign)
        self.visits[p][t] += sign
        self.winds[p][w] += sign
        if p in self.home[h] and self.home[h][p] != (t, w):
            self.moves += sign

    def _local(self, h: int, tables: Sequence[int], swapped: Sequence[int]) -> int:
        """The cost seen from the players of ``tables`` (pairs, separation, tables, winds), plus the
        consecutive-table cost the ``swapped`` players carry in the hanchan before and after, plus
        moves and repeat meetings beyond the cap."""
        total = 0
        for t in tables:
            table = self.tables[h][t]
            for w, p in enumerate(table):
                total += self._player_cost(h, t, w, p, [q for q in table if q != p])
        for p in swapped:
            t = self.where[h][p]
            for other in (h - 1, h + 1):
                if 0 <= other < self.rounds and self.where[other][p] == t:
                    total += CONSECUTIVE_WEIGHT
        total += MOVE_WEIGHT * self.moves
        return total + OVER_CAP_WEIGHT * self.over()

    def _swap(self, h: int, a: tuple[int, int], b: tuple[int, int]) -> None:
        (ta, wa), (tb, wb) = a, b
        p, q = self.tables[h][ta][wa], self.tables[h][tb][wb]
        self._place(h, ta, wa, p, -1)
        self.tables[h][ta][wa] = -1
        self._place(h, tb, wb, q, -1)
        self.tables[h][tb][wb] = -1
        self.tables[h][ta][wa] = q
        self._place(h, ta, wa, q, +1)
        self.tables[h][tb][wb] = p
        self._place(h, tb, wb, p, +1)
        self.where[h][q], self.where[h][p] = ta, tb
        if self.journal is not None:
            self.journal.append((h, a, b))

    def over(self) -> int:
        """Repeat meetings above the cap, and meetings of a pair above the most a pair may meet."""
        return (max(0, self.excess - self.cap) if self.cap is not None else 0) + self.over_meetings

    def key(self) -> tuple[int, int, int]:
        """Repeat meetings above the caps, moves, repeat meetings: what the capped search minimises."""
        return (self.over(), self.moves, self.excess)

    def undo(self, mark: int) -> None:
        """Take back the exchanges made since the journal held ``mark`` entries."""
        assert self.journal is not None
        journal, self.journal = self.journal, None
        while len(journal) > mark:
            h, a, b = journal.pop()
            self._swap(h, a, b)
        self.journal = journal

    def perturb(self, kicks: int) -> None:
        """Exchange ``kicks`` players who meet someone again with players of other tables, at random."""
        for _kick in range(kicks):
            h = self.rng.randrange(self.rounds)
            a = self._repeated_seat(h)
            if a is None:
                continue
            others = [t for t in range(len(self.tables[h])) if t != a[0]]
            if not others:
                continue
            self._swap(h, a, (self.rng.choice(others), self.rng.randrange(4)))

    def iterate(self, deadline: float, patience: int) -> None:
        """Iterated descent: kick, descend, keep the result only when it is better (else take it back),
        until the cap and the fewest moves are met, ``patience`` kicks in a row fail, or the deadline."""
        self.journal = []
        self.descend(deadline)
        best = self.key()
        self.journal.clear()
        failures = 0
        while failures < patience and best[0] > 0 and time.monotonic() < deadline:
            self.perturb(1 + self.rng.randrange(3))
            self.descend(deadline)
            now = self.key()
            if now < best:
                best, failures = now, 0
            else:
                self.undo(0)
                failures += 1
            self.journal.clear()
        self.journal = None

    def run(
        self,
        seats: list[list[tuple[int, int]]],
        steps: int,
        deadline: float,
        hot: float = 0.0,
        start: float = 2.0 * MEETING_WEIGHT,
    ) -> None:
        """Simulated annealing over exchanges of two players of ``seats[h]`` in one hanchan. With ``hot``,
        that share of the exchanges starts from a player of a repeated pair (where they pay off)."""
        choices = [h for h, some in enumerate(seats) if len(some) >= 2]
        if not choices or steps <= 0:
            return
        # From accepting a repeat meeting (or a move, from ``start``) to accepting nothing worse.
        temperature = start
        cooling = math.exp(math.log(1e-9 * MEETING_WEIGHT / start) / steps)
        for step in range(steps):
            if (step & 255) == 0 and time.monotonic() > deadline:
                return
            h = self.rng.choice(choices)
            some = seats[h]
            a = self._repeated_seat(h) if hot and self.rng.random() < hot else None
            if a is None:
                a = self.rng.choice(some)
            b = self.rng.choice(some)
            if a == b:
                continue
            tables = (a[0],) if a[0] == b[0] else (a[0], b[0])
            swapped = (self.tables[h][a[0]][a[1]], self.tables[h][b[0]][b[1]])
            before = self._local(h, tables, swapped)
            self._swap(h, a, b)
            after = self._local(h, tables, swapped)
            delta = after - before
            if delta > 0 and self.rng.random() >= math.exp(-delta / max(temperature, 1e-9)):
                self._swap(h, a, b)
            temperature *= cooling

    def descend(self, deadline: float) -> None:
        """Best-improvement exchanges from every seat whose player meets someone there more than once:
        each is tried against every seat of another table of its hanchan, the best taken while it lowers
        the cost (repeat meetings beyond the cap first, then moves, then the second objective)."""
        tried: set[tuple[int, int, int]] = set()
        while time.monotonic() < deadline:
            hot = [
                (h, t, w)
                for h, hanchan in enumerate(self.tables)
                for t, table in enumerate(hanchan)
                for w, p in enumerate(table)
                if (h, t, w) not in tried and any(self.meet[p][q] > 1 for q in table if q != p)
            ]
            if not hot:
                return
            h, t, w = hot[self.rng.randrange(len(hot))]
            tried.add((h, t, w))
            best: tuple[int, tuple[int, int]] | None = None
            journal, self.journal = self.journal, None  # trials taken back at once: not journalled
            for tb, table in enumerate(self.tables[h]):
                if tb == t:
                    continue
                for wb in range(4):
                    swapped = (self.tables[h][t][w], table[wb])
                    before = self._local(h, (t, tb), swapped)
                    self._swap(h, (t, w), (tb, wb))
                    delta = self._local(h, (t, tb), swapped) - before
                    self._swap(h, (t, w), (tb, wb))
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, (tb, wb))
            self.journal = journal
            if best is not None:
                self._swap(h, (t, w), best[1])
                tried.clear()

    def _repeated_seat(self, h: int) -> tuple[int, int] | None:
        """A seat of hanchan ``h`` whose player meets someone at their table more than once."""
        hanchan = self.tables[h]
        t = self.rng.randrange(len(hanchan))
        for k in range(len(hanchan)):
            table = hanchan[(t + k) % len(hanchan)]
            for w, p in enumerate(table):
                if any(self.meet[p][q] > 1 for q in table if q != p):
                    return ((t + k) % len(hanchan), w)
        return None
