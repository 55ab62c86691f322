"""Local search over the groups of the hanchan not yet played: the state, the work ``Budget`` and the
search for repeat meetings and separation.

Two searches share one state (the groups of the free hanchan and the pair-meeting counts, history
included):

* :class:`GroupSearch` minimises repeat meetings, then the separation of teams/clubs/countries, with a
  conflict-directed tabu search: pick a pair that meets too often (or must be kept apart), pick a hanchan
  where it sits together, and move one of the two to the best table of that hanchan by swapping with a
  player there. It stops at the counting lower bound.
* :class:`~.opponents.OpponentSearch` (in :mod:`.opponents`) then raises the number of common opponents
  of pairs that never meet (the "indirect meets"), never giving up anything the first search reached. It
  keeps the matrix of common opponents up to date through every swap, and always works on the worst
  pairs.

Both are deterministic for a seed: they count work, not seconds (the deadline is only a safety cap).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

Groups = list[list[int]]  # one hanchan: groups of 4 player indices

#: Cost of one excess meeting (a pair's second, third... meeting).
EXCESS_WEIGHT = 1000
#: Extra cost when one pair meets three or more times (prefers spreading repeats over many pairs).
SPREAD_WEIGHT = 10
#: Cost of two players who must be kept apart sharing a table.
SEPARATION_WEIGHT = 100
#: The group search gives up after this many kicks in a row found nothing better than its best: a small
#: field (eight players over five hanchan) has seen all it can reach long before its budget ends.
GIVE_UP_KICKS = 8


def pair_cost(meetings: int) -> int:
    if meetings <= 1:
        return 0
    extra = meetings - 1
    return EXCESS_WEIGHT * extra + SPREAD_WEIGHT * extra * (extra - 1) // 2


def excess_lower_bound(n: int, rounds: int) -> int:
    """Counting bound on excess meetings (see ``seating_eval.py``)."""
    per_player = max(0, 3 * rounds - (n - 1))
    return -(-n * per_player // 2)


class GroupState:
    """Groups of the free hanchan plus the meeting matrix (history included)."""

    def __init__(
        self,
        n: int,
        free: list[Groups],
        history_meet: list[bytearray],
        separation: Sequence[list[bytearray] | None],
    ) -> None:
        self.n = n
        self.rounds = [[list(g) for g in groups] for groups in free]
        self.where = [[0] * n for _ in free]
        self.meet = [bytearray(row) for row in history_meet]
        self.separation = list(separation)
        for r, groups in enumerate(self.rounds):
            where = self.where[r]
            for gi, group in enumerate(groups):
                for p in group:
                    where[p] = gi
                for i in range(4):
                    mi = self.meet[group[i]]
                    for j in range(i + 1, 4):
                        q = group[j]
                        mi[q] += 1
                        self.meet[q][group[i]] += 1
        top = max(4, len(free) + max((max(row) for row in history_meet), default=0) + 2)
        self.inc = [pair_cost(k + 1) - pair_cost(k) for k in range(top + 1)]
        self.dec = [0] + [pair_cost(k - 1) - pair_cost(k) for k in range(1, top + 1)]

    def cost(self) -> int:
        total = 0
        for p in range(self.n):
            row = self.meet[p]
            for q in range(p + 1, self.n):
                if row[q] > 1:
                    total += pair_cost(row[q])
        for r, groups in enumerate(self.rounds):
            sep = self.separation[r]
            if sep is None:
                continue
            for g in groups:
                for i in range(4):
                    row = sep[g[i]]
                    for j in range(i + 1, 4):
                        total += SEPARATION_WEIGHT * row[g[j]]
        return total

    def swap_delta(self, r: int, a: int, b: int) -> int:
        """Change of the group cost if ``a`` and ``b`` (different tables of free hanchan ``r``) swap."""
        where = self.where[r]
        groups = self.rounds[r]
        big_a = groups[where[a]]
        big_b = groups[where[b]]
        ma = self.meet[a]
        mb = self.meet[b]
        inc = self.inc
        dec = self.dec
        d = 0
        for x in big_a:
            if x != a:
                d += dec[ma[x]] + inc[mb[x]]
        for y in big_b:
            if y != b:
                d += dec[mb[y]] + inc[ma[y]]
        sep = self.separation[r]
        if sep is not None:
            sa = sep[a]
            sb = sep[b]
            s = 0
            for x in big_a:
                if x != a:
                    s += sb[x] - sa[x]
            for y in big_b:
                if y != b:
                    s += sa[y] - sb[y]
            d += SEPARATION_WEIGHT * s
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        where = self.where[r]
        groups = self.rounds[r]
        ga = where[a]
        gb = where[b]
        big_a = groups[ga]
        big_b = groups[gb]
        meet = self.meet
        ma = meet[a]
        mb = meet[b]
        for x in big_a:
            if x != a:
                mx = meet[x]
                ma[x] -= 1
                mx[a] -= 1
                mb[x] += 1
                mx[b] += 1
        for y in big_b:
            if y != b:
                my = meet[y]
                mb[y] -= 1
                my[b] -= 1
                ma[y] += 1
                my[a] += 1
        big_a[big_a.index(a)] = b
        big_b[big_b.index(b)] = a
        where[a] = gb
        where[b] = ga

    def snapshot(self) -> list[Groups]:
        return [[list(g) for g in groups] for groups in self.rounds]


def random_round(n: int, rng: random.Random) -> Groups:
    players = list(range(n))
    rng.shuffle(players)
    return [players[i : i + 4] for i in range(0, n, 4)]


def greedy_rounds(
    n: int,
    count: int,
    history_meet: list[bytearray],
    separation: Sequence[list[bytearray] | None],
    rng: random.Random,
    sample: int = 48,
) -> list[Groups]:
    """Build ``count`` hanchan one after the other, each table filled with the players that add the
    fewest repeat meetings (and separation conflicts) to it. Candidates are sampled on large fields."""
    meet = [bytearray(row) for row in history_meet]
    out: list[Groups] = []
    for r in range(count):
        sep = separation[r]
        order = list(range(n))
        rng.shuffle(order)
        free = order
        groups: Groups = []
        while free:
            group = [free.pop()]
            while len(group) < 4:
                candidates: Sequence[int] = (
                    range(len(free)) if len(free) <= sample else rng.sample(range(len(free)), sample)
                )
                best_i = -1
                best_c = -1
                for i in candidates:
                    q = free[i]
                    mq = meet[q]
                    c = 0
                    for p in group:
                        c += pair_cost(mq[p] + 1) - pair_cost(mq[p])
                    if sep is not None:
                        sq = sep[q]
                        for p in group:
                            c += SEPARATION_WEIGHT * sq[p]
                    if best_i < 0 or c < best_c:
                        best_i = i
                        best_c = c
                        if c == 0:
                            break
                q = free[best_i]
                free[best_i] = free[-1]
                free.pop()
                group.append(q)
            for i in range(4):
                for j in range(i + 1, 4):
                    meet[group[i]][group[j]] += 1
                    meet[group[j]][group[i]] += 1
            groups.append(group)
        out.append(groups)
    return out


class Budget:
    """Counts work units; also stops at the wall-clock deadline (a safety cap only)."""

    def __init__(self, units: int, deadline: float | None) -> None:
        self.units = units
        self.used = 0
        self.deadline = deadline
        self._calls = 0

    def spend(self, amount: int = 1) -> bool:
        """Record work; ``False`` once the budget or the deadline is exhausted."""
        self.used += amount
        if self.used >= self.units:
            return False
        self._calls += 1
        if self.deadline is not None and (self._calls & 15) == 0 and time.monotonic() > self.deadline:
            self.used = self.units
            return False
        return True

    @property
    def fraction(self) -> float:
        return min(1.0, self.used / self.units) if self.units else 1.0


class GroupSearch:
    """Tabu search on repeat meetings and separation (see the module docstring)."""

    def __init__(self, state: GroupState, rng: random.Random) -> None:
        self.s = state
        self.rng = rng
        self.bad: list[tuple[int, int]] = []
        self.bad_index: dict[tuple[int, int], int] = {}
        self._collect_conflicts()

    def _is_bad(self, p: int, q: int) -> bool:
        s = self.s
        if s.meet[p][q] >= 2:
            return True
        if s.meet[p][q] == 0:
            return False
        for r, sep in enumerate(s.separation):
            if sep is not None and sep[p][q] and s.where[r][p] == s.where[r][q]:
                return True
        return False

    def _mark(self, p: int, q: int) -> None:
        key = (p, q) if p < q else (q, p)
        bad = self._is_bad(key[0], key[1])
        idx = self.bad_index.get(key)
        if bad and idx is None:
            self.bad_index[key] = len(self.bad)
            self.bad.append(key)
        elif not bad and idx is not None:
            last = self.bad.pop()
            if last != key:
                self.bad[idx] = last
                self.bad_index[last] = idx
            del self.bad_index[key]

    def _drop(self, key: tuple[int, int]) -> None:
        idx = self.bad_index.pop(key)
        last = self.bad.pop()
        if last != key:
            self.bad[idx] = last
            self.bad_index[last] = idx

    def _collect_conflicts(self) -> None:
        s = self.s
        for groups in s.rounds:
            for g in groups:
                for i in range(4):
                    for j in range(i + 1, 4):
                        self._mark(g[i], g[j])

    def _do_swap(self, r: int, a: int, b: int) -> None:
        s = self.s
        groups = s.rounds[r]
        touched = [x for x in groups[s.where[r][a]] if x != a] + [y for y in groups[s.where[r][b]] if y != b]
        s.swap(r, a, b)
        for z in touched:
            self._mark(a, z)
            self._mark(b, z)

    def run(
        self,
        target: int,
        budget: Budget,
        report: Callable[[float], None] | None = None,
    ) -> int:
        """Search until the cost reaches ``target`` or the budget ends; leaves the best state found."""
        s = self.s
        rng = self.rng
        n = s.n
        cost = s.cost()
        best_cost = cost
        best = s.snapshot()
        tabu: dict[tuple[int, int, int], int] = {}
        it = 0
        stall = 0
        tenure_base = 6 + n // 16
        stall_limit = 400 + 20 * n
        since_best = 0
        while cost > target and self.bad and since_best <= GIVE_UP_KICKS * stall_limit:
            it += 1
            since_best += 1
            key = self.bad[rng.randrange(len(self.bad))]
            p, q = key
            meeting_rounds = [r for r in range(len(s.rounds)) if s.where[r][p] == s.where[r][q]]
            if not meeting_rounds:
                self._drop(key)  # the pair only meets in played hanchan: nothing to move
                continue
            r = rng.choice(meeting_rounds)
            a = p if rng.random() < 0.5 else q
            where = s.where[r]
            ga = where[a]
            best_d: int | None = None
            moves: list[int] = []
            for b in range(n):
                gb = where[b]
                if gb == ga:
                    continue
                d = s.swap_delta(r, a, b)
                tabu_move = tabu.get((r, a, gb), 0) > it or tabu.get((r, b, ga), 0) > it
                if tabu_move and cost + d >= best_cost:
                    continue
                if best_d is None or d < best_d:
                    best_d = d
                    moves = [b]
                elif d == best_d:
                    moves.append(b)
            if not budget.spend(n // 8 + 1):
                break
            if best_d is None:
                continue
            b = rng.choice(moves)
            gb = where[b]
            self._do_swap(r, a, b)
            cost += best_d
            tenure = tenure_base + rng.randrange(tenure_base + 1)
            tabu[(r, a, ga)] = it + tenure
            tabu[(r, b, gb)] = it + tenure
            if cost < best_cost:
                best_cost = cost
                best = s.snapshot()
                stall = 0
                since_best = 0
            else:
                stall += 1
                if stall > stall_limit:
                    stall = 0
                    self._kick(max(2, n // 16))
                    cost = s.cost()
            if report is not None and (it & 255) == 0:
                report(budget.fraction)
        if cost > best_cost:
            self._restore(best)
            cost = best_cost
        return cost

    def _kick(self, moves: int) -> None:
        s = self.s
        rng = self.rng
        for _ in range(moves):
            r = rng.randrange(len(s.rounds))
            a = rng.randrange(s.n)
            b = rng.randrange(s.n)
            if s.where[r][a] != s.where[r][b]:
                self._do_swap(r, a, b)

    def _restore(self, rounds: list[Groups]) -> None:
        s = self.s
        # Undo the free hanchan, then lay the best ones again.
        for groups in s.rounds:
            for g in groups:
                for i in range(4):
                    for j in range(i + 1, 4):
                        s.meet[g[i]][g[j]] -= 1
                        s.meet[g[j]][g[i]] -= 1
        s.rounds = [[list(g) for g in groups] for groups in rounds]
        for r, groups in enumerate(s.rounds):
            where = s.where[r]
            for gi, g in enumerate(groups):
                for p in g:
                    where[p] = gi
                for i in range(4):
                    for j in range(i + 1, 4):
                        s.meet[g[i]][g[j]] += 1
                        s.meet[g[j]][g[i]] += 1
        self.bad = []
        self.bad_index = {}
        self._collect_conflicts()
