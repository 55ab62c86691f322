"""Table numbers: which group of a hanchan plays at which table (WRCR 2015 §8.1).

Every player should visit the tables as evenly as possible: no table twice while there are tables left
to visit (the bound ``N * max(0, R - T)`` repeats), at most ``ceil(R / T)`` visits to any table, and
never the same table in two consecutive hanchan.

Each hanchan is first assigned as a whole (the Hungarian method on small fields, a matching on the
cheapest tables on large ones), hanchan after hanchan. A tabu search then exchanges the tables of two
groups, or two players of one hanchan when that costs nothing to repeat meetings and separation: near
``R = T`` no assignment of fixed groups may be free of repeats, but slightly different groups of the
same quality are.

Small fields then get the joint search of groups, table numbers and the order of the hanchan
(:mod:`.joint`).
"""

from __future__ import annotations

import math
import random

from .assignment import cheap_assignment, hungarian
from .search import Budget, GroupState

Groups = list[list[int]]

#: Cost of a player sitting at the same table in two consecutive hanchan (above any table repeat).
CONSECUTIVE_WEIGHT = 100_000
#: Cost of one visit beyond ``ceil(R/T)`` to one table (a "table warning" of the organisers' tool).
OVER_CAP_WEIGHT = 10_000
#: Cost of one visit to a table beyond the first.
REPEAT_WEIGHT = 100


def visit_cost(c: int, cap: int = 1 << 30) -> int:
    """Cost of ``c`` visits of one player to one table when ``cap = ceil(R/T)``: visits above the cap
    first, then repeats, then the most-visited tables."""
    if c <= 1:
        return 0
    return OVER_CAP_WEIGHT * max(0, c - cap) + REPEAT_WEIGHT * (c - 1) + (c - 1) * (c - 2) // 2


_ADD_BY_CAP: dict[int, list[int]] = {}


def added_cost(cap: int) -> list[int]:
    """``added_cost(cap)[c]``: cost of one more visit to a table already visited ``c`` times."""
    if cap not in _ADD_BY_CAP:
        _ADD_BY_CAP[cap] = [visit_cost(c + 1, cap) - visit_cost(c, cap) for c in range(256)]
    return _ADD_BY_CAP[cap]


class TableSearch:
    """Table numbers of the free hanchan: the position of a group in ``state.rounds[r]`` is its table.

    Moves: exchange the tables of two groups of one hanchan (groups unchanged), exchange two players of
    one hanchan when that costs nothing to repeat meetings and separation (groups change, their quality
    does not), and re-solve one whole hanchan exactly (Hungarian method) when the search stalls.
    """

    def __init__(
        self,
        state: GroupState,
        tables: int,
        history_visits: list[list[int]],
        last_table: list[int],
        rng: random.Random,
    ) -> None:
        self.s = state
        self.t = tables
        self.rng = rng
        self.before = list(last_table)
        self.visits = [list(row) for row in history_visits]
        self.history = [list(row) for row in history_visits]
        for groups in state.rounds:
            for g, group in enumerate(groups):
                for p in group:
                    self.visits[p][g] += 1
        self.cap = [max(1, -(-sum(row) // tables)) for row in self.visits]
        self.add = [added_cost(c) for c in self.cap]

    # -- costs ------------------------------------------------------------------------------------
    def _prev(self, r: int, p: int) -> int:
        return self.s.where[r - 1][p] if r > 0 else self.before[p]

    def _next(self, r: int, p: int) -> int:
        return self.s.where[r + 1][p] if r + 1 < len(self.s.rounds) else -1

    def cost(self) -> int:
        total = 0
        for p, row in enumerate(self.visits):
            cap = self.cap[p]
            for c in row:
                total += visit_cost(c, cap)
        return total + CONSECUTIVE_WEIGHT * self._consecutive()

    def _consecutive(self) -> int:
        """Players at the same table in two consecutive hanchan (the last played one included)."""
        total = 0
        for r in range(len(self.s.rounds)):
            where = self.s.where[r]
            total += sum(1 for p in range(self.s.n) if where[p] == self._prev(r, p))
        return total

    def figures(self) -> tuple[int, int, int]:
        """(players at the same table in consecutive hanchan, table repeats, visits above
        ``ceil(R/T)``), history included: criterion 2 as the issue orders it, never consecutive, then
        as few repeats as possible (:meth:`cost` weighs visits above the cap first, to guide the search)."""
        repeats = sum(c - 1 for row in self.visits for c in row if c > 1)
        over = sum(max(0, c - cap) for row, cap in zip(self.visits, self.cap, strict=True) for c in row)
        return self._consecutive(), repeats, over

    def lower_bound(self) -> int:
        total = 0
        t = self.t
        for row in self.visits:
            q, s = divmod(sum(row), t)
            total += s * visit_cost(q + 1) + (t - s) * visit_cost(q)
        return total

    def player_delta(self, r: int, a: int, b: int) -> int:
        """Table cost change if ``a`` and ``b`` (different groups of hanchan ``r``) swap places."""
        where = self.s.where[r]
        ga = where[a]
        gb = where[b]
        va = self.visits[a]
        vb = self.visits[b]
        adda = self.add[a]
        addb = self.add[b]
        d = adda[va[gb]] - adda[va[ga] - 1] + addb[vb[ga]] - addb[vb[gb] - 1]
        pa, na = self._prev(r, a), self._next(r, a)
        pb, nb = self._prev(r, b), self._next(r, b)
        d += CONSECUTIVE_WEIGHT * (
            (pa == gb)
            + (na == gb)
            - (pa == ga)
            - (na == ga)
            + (pb == ga)
            + (nb == ga)
            - (pb == gb)
            - (nb == gb)
        )
        return d

    def group_delta(self, r: int, g1: int, g2: int) -> int:
        groups = self.s.rounds[r]
        d = 0
        for p in groups[g1]:
            row = self.visits[p]
            add = self.add[p]
            prev, nxt = self._prev(r, p), self._next(r, p)
            d += add[row[g2]] - add[row[g1] - 1]
            d += CONSECUTIVE_WEIGHT * ((prev == g2) + (nxt == g2) - (prev == g1) - (nxt == g1))
        for p in groups[g2]:
            row = self.visits[p]
            add = self.add[p]
            prev, nxt = self._prev(r, p), self._next(r, p)
            d += add[row[g1]] - add[row[g2] - 1]
            d += CONSECUTIVE_WEIGHT * ((prev == g1) + (nxt == g1) - (prev == g2) - (nxt == g2))
        return d

    # -- moves ------------------------------------------------------------------------------------
    def move_visits(self, r: int, a: int, b: int) -> None:
        """Record that ``a`` and ``b`` are about to swap places in hanchan ``r``."""
        where = self.s.where[r]
        ga, gb = where[a], where[b]
        self.visits[a][ga] -= 1
        self.visits[a][gb] += 1
        self.visits[b][gb] -= 1
        self.visits[b][ga] += 1

    def swap_players(self, r: int, a: int, b: int) -> None:
        self.move_visits(r, a, b)
        self.s.swap(r, a, b)

    def swap_groups(self, r: int, g1: int, g2: int) -> None:
        groups = self.s.rounds[r]
        where = self.s.where[r]
        for p in groups[g1]:
            self.visits[p][g1] -= 1
            self.visits[p][g2] += 1
            where[p] = g2
        for p in groups[g2]:
            self.visits[p][g2] -= 1
            self.visits[p][g1] += 1
            where[p] = g1
        groups[g1], groups[g2] = groups[g2], groups[g1]

    def _arrange(self, r: int, assignment: list[int]) -> None:
        """Put group ``g`` of hanchan ``r`` at table ``assignment[g]`` (visits must exclude hanchan r)."""
        groups = self.s.rounds[r]
        where = self.s.where[r]
        ordered: list[list[int]] = [[] for _ in groups]
        for g, t in enumerate(assignment):
            ordered[t] = groups[g]
            for p in groups[g]:
                where[p] = t
                self.visits[p][t] += 1
        self.s.rounds[r] = ordered

    def _matrix(self, r: int, use_next: bool) -> list[list[int]]:
        rows: list[list[int]] = []
        t_count = self.t
        for group in self.s.rounds[r]:
            row = [0] * t_count
            for p in group:
                visits = self.visits[p]
                add = self.add[p]
                for t in range(t_count):
                    row[t] += add[visits[t]]
                prev = self._prev(r, p)
                if prev >= 0:
                    row[prev] += CONSECUTIVE_WEIGHT
                if use_next:
                    nxt = self._next(r, p)
                    if nxt >= 0:
                        row[nxt] += CONSECUTIVE_WEIGHT
            rows.append(row)
        return rows

    def _assign(self, matrix: list[list[int]]) -> list[int]:
        return hungarian(matrix) if self.t <= 64 else cheap_assignment(matrix, self.rng)

    def solve_round(self, r: int) -> int:
        """Re-assign hanchan ``r`` exactly given all the others; returns the cost change (never > 0 on
        small fields, where the assignment is optimal)."""
        groups = self.s.rounds[r]
        for g, group in enumerate(groups):
            for p in group:
                self.visits[p][g] -= 1
        matrix = self._matrix(r, True)
        old = sum(matrix[g][g] for g in range(len(groups)))
        assignment = self._assign(matrix)
        new = sum(matrix[g][t] for g, t in enumerate(assignment))
        if new >= old:
            assignment = list(range(len(groups)))
            new = old
        self._arrange(r, assignment)
        return new - old

    def _descend(self, budget: Budget) -> int:
        """Re-solve hanchan in turn until none improves; returns the total cost change."""
        total = 0
        rounds = len(self.s.rounds)
        improved = True
        while improved:
            improved = False
            order = list(range(rounds))
            self.rng.shuffle(order)
            for r in order:
                d = self.solve_round(r)
                if d < 0:
                    improved = True
                    total += d
                if not budget.spend(self.t * self.t):
                    return total
        return total

    def start(self) -> None:
        """Keep the table numbers the groups came with when they are already optimal (constructions
        that fix them), else assign hanchan after hanchan."""
        before = self.cost()
        if before <= self.lower_bound():
            return
        snapshot = self.s.snapshot()
        self.build()
        if self.cost() > before:
            self._load(snapshot)

    def build(self) -> None:
        """Assign the free hanchan one after the other, each as well as possible given the earlier ones."""
        self.visits = [list(row) for row in self.history]
        for r in range(len(self.s.rounds)):
            self._arrange(r, self._assign(self._matrix(r, False)))

    # -- search -----------------------------------------------------------------------------------
    def run(self, budget: Budget) -> int:
        """Iterated local search on whole hanchan, then a tabu search that may also exchange players."""
        s = self.s
        rounds = len(s.rounds)
        if rounds == 0 or self.t < 2:
            return self.cost()
        target = self.lower_bound()
        cost = self.cost()
        cost += self._descend(budget)
        best_cost = cost
        best = s.snapshot()
        ils_budget = Budget(budget.units // 2, budget.deadline)
        rng = self.rng
        stall = 0
        while (
            cost > target and ils_budget.spend(1) and budget.used < budget.units and stall < 40 + 10 * rounds
        ):
            stall += 1
            r = rng.randrange(rounds)
            for _ in range(1 + rng.randrange(2)):
                g1 = rng.randrange(self.t)
                g2 = rng.randrange(self.t)
                if g1 != g2:
                    cost += self.group_delta(r, g1, g2)
                    self.swap_groups(r, g1, g2)
            before = budget.used
            cost += self._descend(budget)
            ils_budget.spend(budget.used - before)
            if cost < best_cost:
                best_cost = cost
                best = s.snapshot()
                stall = 0
            elif cost > best_cost + REPEAT_WEIGHT * 2:
                self._load(best)
                cost = best_cost
        if cost > best_cost:
            self._load(best)
            cost = best_cost
        if cost > target and budget.used < budget.units and self._flexible():
            cost = self._anneal(budget, cost, target)
        return cost

    def _conflicts(self) -> list[tuple[int, int]]:
        """Players (with their hanchan) at a table they visit more often than needed, or again in the
        next hanchan."""
        s = self.s
        t = self.t
        out: list[tuple[int, int]] = []
        for p in range(s.n):
            row = self.visits[p]
            cap = -(-sum(row) // t)
            spare = min(row) == 0
            for r in range(len(s.rounds)):
                g = s.where[r][p]
                c = row[g]
                if c > cap or (c > 1 and spare) or g == self._prev(r, p):
                    out.append((r, p))
        return out

    def _flexible(self) -> bool:
        """Whether exchanging players can keep the groups' quality: not when every pair meets exactly
        once (then every exchange makes a repeat meeting)."""
        n = self.s.n
        return any(row[q] != 1 for p, row in enumerate(self.s.meet) for q in range(p + 1, n))

    def _anneal(self, budget: Budget, cost: int, target: int) -> int:
        """Simulated annealing on table exchanges and on player exchanges that do not make the groups
        worse (repeat meetings, separation), so groups of the same quality but with better table
        numbers are found."""
        s = self.s
        rng = self.rng
        rounds = len(s.rounds)
        n = s.n
        group_cost = s.cost()
        best_key = (group_cost, cost)
        best = s.snapshot()
        steps = min(max(1, budget.units - budget.used) // 4, 1500 * n * rounds)
        temperature = REPEAT_WEIGHT / 3
        cooling = (0.05) ** (1.0 / max(1, steps // 1024))
        conflicts: list[tuple[int, int]] = []
        for step in range(steps):
            if (step & 1023) == 0 and step:
                temperature = max(1.0, temperature * cooling)
                if not budget.spend(4096):
                    break
            if (step & 511) == 0:
                conflicts = self._conflicts()
            if conflicts and rng.random() < 0.5:
                r, a = conflicts[rng.randrange(len(conflicts))]
            else:
                r = rng.randrange(rounds)
                a = rng.randrange(n)
            where = s.where[r]
            if rng.random() < 0.8:
                b = rng.randrange(n)
                if where[a] == where[b]:
                    continue
                dg = s.swap_delta(r, a, b)
                if dg > 0:
                    continue
                d = dg + self.player_delta(r, a, b)
                if d <= 0 or rng.random() < math.exp(-d / temperature):
                    self.swap_players(r, a, b)
                    group_cost += dg
                    cost += d - dg
                else:
                    continue
            else:
                g1 = where[a]
                g2 = rng.randrange(self.t)
                if g1 == g2:
                    continue
                d = self.group_delta(r, g1, g2)
                if d <= 0 or rng.random() < math.exp(-d / temperature):
                    self.swap_groups(r, g1, g2)
                    cost += d
                else:
                    continue
            if (group_cost, cost) < best_key:
                best_key = (group_cost, cost)
                best = s.snapshot()
                if group_cost <= best_key[0] and cost <= target:
                    break
        if (group_cost, cost) != best_key:
            self._load(best)
            cost = self.cost()
        return cost

    def _load(self, rounds: list[list[list[int]]]) -> None:
        s = self.s
        for r, groups in enumerate(rounds):
            for g, group in enumerate(groups):
                for p in group:
                    if s.where[r][p] != g:
                        other = s.rounds[r][g]
                        q = next(x for x in other if x not in group)
                        self.swap_players(r, p, q)
        self.visits = [list(row) for row in self.history]
        for groups in s.rounds:
            for g, group in enumerate(groups):
                for p in group:
                    self.visits[p][g] += 1
