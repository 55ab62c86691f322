"""Table numbers: which group of a hanchan plays at which table (WRCR 2015 §8.1).

Every player should visit the tables as evenly as possible: no table twice while there are tables left
to visit (the bound ``N * max(0, R - T)`` repeats), at most ``ceil(R / T)`` visits to any table, and
never the same table in two consecutive hanchan.

Each hanchan is first assigned as a whole (the Hungarian method on small fields, a matching on the
cheapest tables on large ones), hanchan after hanchan. A tabu search then exchanges the tables of two
groups, or two players of one hanchan when that costs nothing to repeat meetings and separation: near
``R = T`` no assignment of fixed groups may be free of repeats, but slightly different groups of the
same quality are.

Small fields (:meth:`TableSearch.joint`) then get a search of groups, table numbers and the order of the
hanchan together, which the repeat meetings never leave worse: table numbers depend on the groups, and
with more hanchan than tables the groups that are best for repeats can be poor for tables. A tabu
search over the whole neighbourhood (every exchange of two players of one hanchan, of two tables, of two
hanchan) keeps the best state in the order (group cost, table cost). It starts again from a base with
repeat-free groups *and* table numbers (a transversal design, the affine plane on 16 players) plus
hanchan fitted around it, tables first, which reaches both bounds where the groups alone do not lead
(20 x 8: 50 excess meetings and 60 table repeats); then it lowers the group cost, then the table cost
with the group cost held at its best level (a penalty above it that doubles while it is exceeded).
Exchanging two hanchan moves no meeting and no table visit, only the consecutive repeats (16 players:
two repeat-free hanchan always keep four players at their table, copies of a hanchan none).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import eq

from . import constructions
from .search import SEPARATION_WEIGHT, Budget, GroupState

Groups = list[list[int]]

#: Cost of a player sitting at the same table in two consecutive hanchan (above any table repeat).
CONSECUTIVE_WEIGHT = 100_000
#: Cost of one visit beyond ``ceil(R/T)`` to one table (a "table warning" of the organisers' tool).
OVER_CAP_WEIGHT = 10_000
#: Cost of one visit to a table beyond the first.
REPEAT_WEIGHT = 100

# Joint search (TableSearch.joint): weights of (group cost, table cost) and lengths of its phases.
#: Groups first: any change of the group cost outweighs the table change of any one move.
LEX_WEIGHTS = (1 << 24, 1)
#: Tables first: one table repeat (100) outweighs 100 excess meetings.
TABLES_FIRST_WEIGHTS = (1, 1000)
#: Tables with the groups held at a level: one excess meeting above it starts as one table repeat.
LEVEL_WEIGHTS = (1, 10)
LEX_STEPS = 150
LEVEL_STEPS = 300
SEED_STEPS = 400
#: Percentage of the joint search's work for the fresh start from a base.
SEED_SHARE = 50
#: Moves without a better state before the search on tables and hanchan order alone stops.
POLISH_PATIENCE = 200


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

    # -- hanchan order ----------------------------------------------------------------------------
    def _stayers(self, r: int) -> int:
        """Players at the same table in hanchan ``r`` and the one before (the last played one for 0)."""
        prev = self.s.where[r - 1] if r > 0 else self.before
        return sum(map(eq, self.s.where[r], prev))

    def movable(self, i: int, j: int) -> bool:
        """Whether free hanchan ``i`` and ``j`` may change places: the same separation applies to both
        (repeat meetings and table visits never depend on the order)."""
        return self.s.separation[i] is self.s.separation[j]

    def swap_rounds(self, i: int, j: int) -> None:
        s = self.s
        s.rounds[i], s.rounds[j] = s.rounds[j], s.rounds[i]
        s.where[i], s.where[j] = s.where[j], s.where[i]
        s.separation[i], s.separation[j] = s.separation[j], s.separation[i]

    def order_delta(self, i: int, j: int) -> int:
        """Table cost change if free hanchan ``i`` and ``j`` change places."""
        last = len(self.s.rounds)
        touched = {k for k in (i, i + 1, j, j + 1) if k < last}
        before = sum(self._stayers(k) for k in touched)
        self.swap_rounds(i, j)
        after = sum(self._stayers(k) for k in touched)
        self.swap_rounds(i, j)
        return CONSECUTIVE_WEIGHT * (after - before)

    # -- joint search ------------------------------------------------------------------------------
    def _plateau(self) -> bool:
        """Whether some exchange of two players keeps the group cost (or lowers it)."""
        s = self.s
        for r, groups in enumerate(s.rounds):
            for ga, big_a in enumerate(groups):
                for big_b in groups[ga + 1 :]:
                    for a in big_a:
                        for b in big_b:
                            if s.swap_delta(r, a, b) <= 0:
                                return True
        return False

    def joint(self, budget: Budget, group_floor: int, base: list[Groups] | None = None) -> None:
        """Tabu searches that may also exchange players, keeping the best state met for (groups,
        tables), so the group cost never ends worse than it started:

        * with a ``base`` (hanchan with repeat-free groups and table numbers, such as a transversal
          design), a fresh start from the base plus random hanchan, the base kept whole while the others
          are fitted around it, tables first;
        * from the best state, a search on groups then tables (the order of the criteria), then one on
          tables with the group cost held at the best level found (a penalty above it);
        * the tables and the order of the hanchan alone.

        Player exchanges only when some exchange keeps the group cost, or the groups are above
        ``group_floor`` (their lower bound)."""
        s = self.s
        if not s.rounds or self.t < 2:
            return
        best = _Best((s.cost(), self.cost()), s.snapshot(), (group_floor, self.lower_bound()))
        if best.key <= best.floor:
            return
        if base is not None and len(base) < len(s.rounds):
            share = Budget(budget.units * SEED_SHARE // 100, budget.deadline)
            self._seeded(share, base, best)
            budget.spend(share.used)
            self._load(best.rounds)
        if best.key > best.floor and (best.key[0] > group_floor or self._plateau()):
            share = Budget((budget.units - budget.used) * 2 // 5, budget.deadline)
            stalled = 0
            while stalled < 2 and share.used < share.units and best.key[0] > group_floor:
                before = best.key
                self._tabu(share, LEX_STEPS, LEX_WEIGHTS, True, best)
                stalled = stalled + 1 if best.key >= before else 0
            budget.spend(share.used)
            stalled = 0
            while stalled < 2 and budget.used < budget.units * 9 // 10 and best.key > best.floor:
                before = best.key
                self._load(best.rounds)
                self._tabu(budget, LEVEL_STEPS, LEVEL_WEIGHTS, True, best, best.key[0])
                stalled = stalled + 1 if best.key >= before else 0
            self._load(best.rounds)
        if best.key > best.floor and budget.used < budget.units:
            self._tabu(budget, 1 << 30, LEX_WEIGHTS, False, best, patience=POLISH_PATIENCE)
            self._load(best.rounds)

    def _seeded(self, budget: Budget, base: list[Groups], best: _Best) -> None:
        """Start again from ``base`` (relabelled at random) plus random hanchan: fit the others around
        the base with tables first, then groups first, then tables at the group level reached."""
        s = self.s
        n = s.n
        rng = self.rng
        perm = list(range(n))
        rng.shuffle(perm)
        seed = [[[perm[p] for p in group] for group in groups] for groups in base]
        frozen = {_partition(groups) for groups in seed}
        while len(seed) < len(s.rounds):
            players = list(range(n))
            rng.shuffle(players)
            seed.append([players[i : i + 4] for i in range(0, n, 4)])
        self._load(seed)
        self._tabu(budget, SEED_STEPS, TABLES_FIRST_WEIGHTS, True, best, frozen=frozen)
        self._tabu(budget, SEED_STEPS, LEX_WEIGHTS, True, best, frozen=frozen)
        self._tabu(budget, SEED_STEPS, LEVEL_WEIGHTS, True, best, s.cost(), frozen=frozen)

    # -- tabu search on small fields --------------------------------------------------------------
    def _round_terms(
        self, r: int, players: bool
    ) -> tuple[list[int], list[list[int]], list[int], list[list[int]]]:
        """Separable parts of the cost changes of hanchan ``r``: for every player, the table cost of
        leaving their table and of joining each table, and (when ``players``) the same for the group
        cost. Exchanging ``a`` and ``b`` then costs ``leave[a] + join[a][table of b] + leave[b] +
        join[b][table of a]`` (less the pair ``a``, ``b`` itself for the group cost)."""
        s = self.s
        n = s.n
        t = self.t
        where = s.where[r]
        prev_where = s.where[r - 1] if r > 0 else self.before
        next_where = s.where[r + 1] if r + 1 < len(s.rounds) else None
        leave_t = [0] * n
        join_t: list[list[int]] = [[]] * n
        leave_g = [0] * n
        join_g: list[list[int]] = [[]] * n
        visits = self.visits
        adds = self.add
        weight = CONSECUTIVE_WEIGHT
        for p in range(n):
            here = where[p]
            row = visits[p]
            add = adds[p]
            prev = prev_where[p]
            nxt = next_where[p] if next_where is not None else -1
            leave_t[p] = -add[row[here] - 1] - weight * ((prev == here) + (nxt == here))
            join = [add[c] for c in row[:t]]
            if prev >= 0:
                join[prev] += weight
            if nxt >= 0:
                join[nxt] += weight
            join_t[p] = join
        if players:
            meet = s.meet
            inc = s.inc
            dec = s.dec
            sep = s.separation[r]
            groups = s.rounds[r]
            for p in range(n):
                mp = meet[p]
                here = where[p]
                sums = [0] * t
                for x, group in enumerate(groups):
                    total = 0
                    for y in group:
                        total += inc[mp[y]]
                    sums[x] = total
                out = 0
                for y in groups[here]:
                    if y != p:
                        out += dec[mp[y]]
                if sep is not None:
                    sp = sep[p]
                    for x, group in enumerate(groups):
                        extra = 0
                        for y in group:
                            extra += sp[y]
                        if x == here:
                            out -= SEPARATION_WEIGHT * extra
                        else:
                            sums[x] += SEPARATION_WEIGHT * extra
                leave_g[p] = out
                join_g[p] = sums
        return leave_t, join_t, leave_g, join_g

    def _tabu(
        self,
        budget: Budget,
        steps: int,
        weights: tuple[int, int],
        players: bool,
        best: _Best,
        level: int | None = None,
        patience: int | None = None,
        frozen: set[frozenset[frozenset[int]]] | None = None,
    ) -> None:
        """Tabu search on ``weights[0] * group cost + weights[1] * table cost`` over the whole
        neighbourhood: exchanges of two players of one hanchan (when ``players``), of the tables of two
        groups, and of two hanchan. With a ``level``, the group cost only counts above it, with a weight
        that doubles while the search stays above (and halves back while below). ``best`` keeps the
        best state met in the order (group cost, table cost), so the search may cross worse groups; the
        state left is the best for its own objective. Stops after ``steps`` moves, or ``patience``
        moves without a better state for ``best``."""
        s = self.s
        rng = self.rng
        n = s.n
        last_better = 0
        rounds = len(s.rounds)
        t = self.t
        group_weight, table_weight = weights
        penalty = group_weight
        if level is not None:
            group_weight = 0
        g = s.cost()
        c = self.cost()

        def objective() -> int:
            value = group_weight * g + table_weight * c
            if level is not None and g > level:
                value += penalty * (g - level)
            return value

        cur = objective()
        own_best = cur
        own_snapshot = s.snapshot()
        tabu: dict[tuple[int, int, int], int] = {}
        order_tabu: dict[tuple[int, int], int] = {}
        movable = [(i, j) for i in range(rounds) for j in range(i + 1, rounds) if self.movable(i, j)]
        still = [frozen is not None and _partition(groups) in frozen for groups in s.rounds]
        fixed = sum(still)
        tenure = 3 + (n * rounds) // 64
        above = 0
        # work of one move, in units of about 0.2 microseconds: the terms of every hanchan and its table
        # exchanges, the player exchanges of the hanchan not frozen, the hanchan exchanges
        pairs = n * (n - n // t) // 2
        work = rounds * (n * (5 + t // 4) + 9 * t * (t - 1) // 2 + 20) + len(movable) * (22 + 6 * n // 10)
        if players:
            work += (rounds - fixed) * (3 * n * n // 10 + 5 * n + 23 * pairs // 10)
        meet = s.meet
        inc = s.inc
        for it in range(1, steps + 1):
            best_d = 0
            moves: list[tuple[int, int, int, int, int, int]] = []  # kind, hanchan, x, y, dg, dt
            over = 0 if level is None else g - level
            for r in range(rounds):
                groups = s.rounds[r]
                swaps = players and not still[r]
                leave_t, join_t, leave_g, join_g = self._round_terms(r, swaps)
                sep = s.separation[r]
                leaving = [sum(leave_t[p] for p in group) for group in groups]
                for ga in range(t):
                    big_a = groups[ga]
                    for gb in range(ga + 1, t):
                        big_b = groups[gb]
                        dt = leaving[ga] + leaving[gb]
                        for p in big_a:
                            dt += join_t[p][gb]
                        for p in big_b:
                            dt += join_t[p][ga]
                        d = table_weight * dt
                        if (not moves or d <= best_d) and (
                            cur + d < own_best
                            or (tabu.get((r, big_a[0], gb), 0) < it and tabu.get((r, big_b[0], ga), 0) < it)
                        ):
                            if not moves or d < best_d:
                                best_d = d
                                moves = [(1, r, ga, gb, 0, dt)]
                            else:
                                moves.append((1, r, ga, gb, 0, dt))
                        if not swaps:
                            continue
                        for a in big_a:
                            ma = meet[a]
                            ta = leave_t[a] + join_t[a][gb]
                            ua = leave_g[a] + join_g[a][gb]
                            for b in big_b:
                                dg = ua + leave_g[b] + join_g[b][ga] - 2 * inc[ma[b]]
                                if sep is not None and sep[a][b]:
                                    dg -= 2 * SEPARATION_WEIGHT * sep[a][b]
                                dt = ta + leave_t[b] + join_t[b][ga]
                                d = group_weight * dg + table_weight * dt
                                if level is not None and (over > 0 or over + dg > 0):
                                    d += penalty * (max(0, over + dg) - max(0, over))
                                if moves and d > best_d:
                                    continue
                                if cur + d >= own_best and (
                                    tabu.get((r, a, gb), 0) >= it or tabu.get((r, b, ga), 0) >= it
                                ):
                                    continue
                                if not moves or d < best_d:
                                    best_d = d
                                    moves = [(0, r, a, b, dg, dt)]
                                else:
                                    moves.append((0, r, a, b, dg, dt))
            for i, j in movable:
                dt = self.order_delta(i, j)
                d = table_weight * dt
                if moves and d > best_d:
                    continue
                if cur + d >= own_best and order_tabu.get((i, j), 0) >= it:
                    continue
                if not moves or d < best_d:
                    best_d = d
                    moves = [(2, i, j, 0, 0, dt)]
                else:
                    moves.append((2, i, j, 0, 0, dt))
            if not moves or not budget.spend(work):
                break
            kind, r, x, y, dg, dt = moves[rng.randrange(len(moves))]
            until = it + tenure + rng.randrange(tenure + 1)
            if kind == 0:
                where = s.where[r]
                tabu[(r, x, where[x])] = until
                tabu[(r, y, where[y])] = until
                self.swap_players(r, x, y)
            elif kind == 1:
                for z in s.rounds[r][x]:
                    tabu[(r, z, x)] = until
                for z in s.rounds[r][y]:
                    tabu[(r, z, y)] = until
                self.swap_groups(r, x, y)
            else:
                self.swap_rounds(r, x)
                still[r], still[x] = still[x], still[r]
                order_tabu[(r, x)] = until
            g += dg
            c += dt
            if level is not None:
                above = above + 1 if g > level else min(0, above) - 1
                if above >= 10:
                    penalty *= 2
                    above = 0
                elif above <= -10:
                    penalty = max(weights[0], penalty // 2)
                    above = 0
            if (g, c) < best.key:
                best.key = (g, c)
                best.rounds = s.snapshot()
                last_better = it
                if best.key <= best.floor:
                    break
                if level is not None and g < level:
                    level = g  # hold the groups at the better level from now on
                    own_best = table_weight * c + 1
            cur = objective()
            if cur < own_best and (level is None or g <= level):
                own_best = cur
                own_snapshot = s.snapshot()
            if patience is not None and it - last_better >= patience:
                break
        self._load(own_snapshot)

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


def table_base(n: int, rounds: int) -> list[Groups] | None:
    """Hanchan to build more hanchan around when there are more hanchan than tables: ``T = N/4`` of a
    transversal design (no repeat meeting, no table twice) or the five hanchan of the affine plane on 16
    players (everyone meets everyone once)."""
    tables = n // 4
    if rounds <= tables:
        return None
    base = constructions.transversal_schedule(n, tables)
    if base is None and n == 16 and rounds > 5:
        base = constructions.affine_classes(2)
    return base


def _partition(groups: list[list[int]]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(group) for group in groups)


class _Best:
    """The best state met, in the order (group cost, table cost), and the key below which nothing
    better can exist."""

    def __init__(self, key: tuple[int, int], rounds: list[list[list[int]]], floor: tuple[int, int]) -> None:
        self.key = key
        self.rounds = rounds
        self.floor = floor
