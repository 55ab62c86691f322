"""Common opponents: the search that raises the common opponents of pairs that never meet (the
"indirect meets"), after the group search of :mod:`.search`, never giving up anything that search
reached, and the joining of a field split into parts that never meet (:func:`connect_field`).

:class:`OpponentSearch` keeps the matrix of common opponents up to date through every swap and always
works on the worst pairs; like the group search it counts work, not seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

from .search import Budget, GroupState


def opponent_components(n: int, meet: list[bytearray]) -> list[int]:
    """Component label of every player in the graph "sat at one table at least once"."""
    label = [-1] * n
    current = 0
    for start in range(n):
        if label[start] >= 0:
            continue
        label[start] = current
        stack = [start]
        while stack:
            p = stack.pop()
            row = meet[p]
            for q in range(n):
                if row[q] and label[q] < 0:
                    label[q] = current
                    stack.append(q)
        current += 1
    return label


def connect_field(state: GroupState, rng: random.Random) -> None:
    """Join split groups of the opponent graph by swapping players between them, without adding any
    repeat meeting or separation conflict when that can be avoided."""
    for _ in range(4 * state.n):
        label = opponent_components(state.n, state.meet)
        if max(label) == 0 or not state.rounds:
            return
        best: tuple[int, int, int, int] | None = None
        for r in rng.sample(range(len(state.rounds)), len(state.rounds)):
            groups = state.rounds[r]
            for ga, big_a in enumerate(groups):
                for big_b in groups[ga + 1 :]:
                    if label[big_a[0]] == label[big_b[0]]:
                        continue
                    for a in big_a:
                        for b in big_b:
                            d = state.swap_delta(r, a, b)
                            if best is None or d < best[0]:
                                best = (d, r, a, b)
                    if best is not None and best[0] <= 0:
                        break
                if best is not None and best[0] <= 0:
                    break
            if best is not None and best[0] <= 0:
                break
        if best is None:
            return
        state.swap(best[1], best[2], best[3])


class TableCost(Protocol):
    """What the common-opponent search needs to know about table numbers."""

    def player_delta(self, r: int, a: int, b: int) -> int: ...

    def move_visits(self, r: int, a: int, b: int) -> None: ...


class OpponentSearch:
    """Raise the common opponents of pairs that never meet, keeping the group cost (repeats and
    separation) and the table cost unchanged or better."""

    def __init__(self, state: GroupState, rng: random.Random, tables: TableCost | None = None) -> None:
        self.s = state
        self.rng = rng
        self.tables = tables
        n = state.n
        self.nb: list[set[int]] = [set() for _ in range(n)]
        for p in range(n):
            row = state.meet[p]
            self.nb[p] = {q for q in range(n) if row[q]}
        common = [[0] * n for _ in range(n)]
        for p in range(n):
            cp = common[p]
            for q in self.nb[p]:
                for z in self.nb[q]:
                    cp[z] += 1
            cp[p] = 0
        self.common = common
        total = 0
        count = 0
        for p in range(n):
            row = state.meet[p]
            cp = common[p]
            for q in range(p + 1, n):
                if not row[q]:
                    total += cp[q]
                    count += 1
        mean = total / count if count else 0.0
        rounds = len(state.rounds) + (1 if any(any(row) for row in state.meet) else 0)
        self.threshold = math.isqrt(n)
        level = max(1, round(mean))
        span = 20
        # Penalty of a non-meeting pair with c common opponents: doubles with every opponent missing
        # below the field's mean, so the worst pairs come first; plus a fixed amount (worth raising a
        # pair three below the mean by one) for every pair below floor(sqrt(N)), the organisers' bar.
        bar = 8 if rounds > 4 else 0
        self.pen = [
            ((1 << min(span, level - c)) if c < level else 0) + (bar if c < self.threshold else 0)
            for c in range(n + 1)
        ]
        self.penalty = 0
        # Strangers (pairs who never meet) by their number of common opponents: no move may lower
        # the worst level or crowd it (the worst pairs come first, whatever the penalty says).
        self.levels = [0] * (n + 1)
        for p in range(n):
            row = state.meet[p]
            cp = common[p]
            for q in range(p + 1, n):
                if not row[q]:
                    self.penalty += self.pen[cp[q]]
                    self.levels[cp[q]] += 1

    def _inc(self, u: int, v: int) -> int:
        meet = self.s.meet
        mu = meet[u]
        mv = meet[v]
        c = mu[v]
        mu[v] = c + 1
        mv[u] = c + 1
        if c:
            return 0
        pen = self.pen
        levels = self.levels
        common = self.common
        cu = common[u]
        cv = common[v]
        d = -pen[cu[v]]
        levels[cu[v]] -= 1
        for z in self.nb[u]:
            x = cv[z]
            cv[z] = x + 1
            common[z][v] = x + 1
            if not mv[z]:
                d += pen[x + 1] - pen[x]
                levels[x] -= 1
                levels[x + 1] += 1
        for z in self.nb[v]:
            x = cu[z]
            cu[z] = x + 1
            common[z][u] = x + 1
            if not mu[z]:
                d += pen[x + 1] - pen[x]
                levels[x] -= 1
                levels[x + 1] += 1
        self.nb[u].add(v)
        self.nb[v].add(u)
        return d

    def _dec(self, u: int, v: int) -> int:
        meet = self.s.meet
        mu = meet[u]
        mv = meet[v]
        c = mu[v] - 1
        mu[v] = c
        mv[u] = c
        if c:
            return 0
        self.nb[u].discard(v)
        self.nb[v].discard(u)
        pen = self.pen
        levels = self.levels
        common = self.common
        cu = common[u]
        cv = common[v]
        d = pen[cu[v]]
        levels[cu[v]] += 1
        for z in self.nb[u]:
            x = cv[z] - 1
            cv[z] = x
            common[z][v] = x
            if not mv[z]:
                d += pen[x] - pen[x + 1]
                levels[x + 1] -= 1
                levels[x] += 1
        for z in self.nb[v]:
            x = cu[z] - 1
            cu[z] = x
            common[z][u] = x
            if not mu[z]:
                d += pen[x] - pen[x + 1]
                levels[x + 1] -= 1
                levels[x] += 1
        return d

    def _swap(self, r: int, a: int, b: int) -> int:
        s = self.s
        where = s.where[r]
        groups = s.rounds[r]
        ga = where[a]
        gb = where[b]
        big_a = groups[ga]
        big_b = groups[gb]
        if self.tables is not None:
            self.tables.move_visits(r, a, b)
        d = 0
        for x in big_a:
            if x != a:
                d += self._dec(a, x)
                d += self._inc(b, x)
        for y in big_b:
            if y != b:
                d += self._dec(b, y)
                d += self._inc(a, y)
        big_a[big_a.index(a)] = b
        big_b[big_b.index(b)] = a
        where[a] = gb
        where[b] = ga
        self.penalty += d
        return d

    def worst_level(self) -> tuple[int, int]:
        """(fewest common opponents of strangers, minus the strangers at that level); larger is better."""
        for c, count in enumerate(self.levels):
            if count:
                return c, -count
        return len(self.levels), 0

    def worst_pairs(self, limit: int) -> list[tuple[int, int]]:
        """Non-meeting pairs with the fewest common opponents (the lowest two levels), worst first."""
        n = self.s.n
        meet = self.s.meet
        by_level: dict[int, list[tuple[int, int]]] = {}
        for p in range(n):
            row = meet[p]
            cp = self.common[p]
            for q in range(p + 1, n):
                if not row[q]:
                    by_level.setdefault(cp[q], []).append((p, q))
        out: list[tuple[int, int]] = []
        for level in sorted(by_level)[:2]:
            out.extend(by_level[level][: max(0, limit - len(out))])
        return out

    def run(self, budget: Budget, report: Callable[[float], None] | None = None) -> None:
        s = self.s
        rng = self.rng
        if not s.rounds:
            return
        n = s.n
        free = len(s.rounds)
        tabu: dict[tuple[int, int], int] = {}
        it = 0
        pool: list[tuple[int, int]] = []
        candidates_per_step = 6
        while True:
            if not pool:
                pool = self.worst_pairs(4 * n)
                if not pool or self.pen[self.common[pool[0][0]][pool[0][1]]] == 0:
                    return
                lowest = self.common[pool[0][0]][pool[0][1]]
                rng.shuffle(pool)
                # worst level last, so it is popped first
                pool.sort(key=lambda pq: self.common[pq[0]][pq[1]] == lowest)
            p, q = pool.pop()
            if s.meet[p][q] or self.pen[self.common[p][q]] == 0:
                continue
            best: tuple[int, int, int, int] | None = None
            floor = self.worst_level()
            tried = 0
            for _ in range(3 * candidates_per_step):
                if tried >= candidates_per_step:
                    break
                u, v = (p, q) if rng.random() < 0.5 else (q, p)
                r = rng.randrange(free)
                where = s.where[r]
                groups = s.rounds[r]
                nbv = self.nb[v]
                if not nbv:
                    continue
                z = rng.choice(tuple(nbv))
                gz = where[z]
                if gz == where[u]:
                    continue
                w = rng.choice([x for x in groups[gz] if x != z])
                if tabu.get((r, u), 0) > it or tabu.get((r, w), 0) > it:
                    continue
                if s.swap_delta(r, u, w) > 0:
                    continue
                if self.tables is not None and self.tables.player_delta(r, u, w) > 0:
                    continue
                tried += 1
                d = self._swap(r, u, w)
                worse = self.worst_level() < floor
                self._swap(r, u, w)  # swapping back restores every count
                if worse:
                    continue
                if best is None or d < best[0]:
                    best = (d, r, u, w)
            it += 1
            if not budget.spend(tried + 1):
                return
            if best is not None and (best[0] < 0 or (best[0] == 0 and rng.random() < 0.3)):
                _, r, u, w = best
                self._swap(r, u, w)
                tabu[(r, u)] = it + 8
                tabu[(r, w)] = it + 8
            if report is not None and (it & 63) == 0:
                report(budget.fraction)
