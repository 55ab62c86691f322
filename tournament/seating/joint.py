"""The joint search of small fields: groups, table numbers and the order of the hanchan together
(WRCR 2015 §8.1), after the table search of :mod:`.tables`.

Small fields (:meth:`JointTableSearch.joint`, up to ``generator.SMALL_FIELD`` players) get a search of
groups, table numbers and the order of the hanchan together, which the repeat meetings never leave worse:
table numbers depend on the groups, and with more hanchan than tables the groups that are best for
repeats can be poor for tables. A tabu search over the whole neighbourhood (every exchange of two players
of one hanchan, of two tables, of two hanchan) keeps the best state in the order (group cost, table
cost). It starts again from a base with repeat-free groups *and* table numbers (a transversal design, the
affine plane on 16 players) plus hanchan fitted around it, tables first, which reaches both bounds where
the groups alone do not lead (20 x 8: 50 excess meetings and 60 table repeats); then it lowers the group
cost, then the table cost with the group cost held at its best level (a penalty above it that doubles
while it is exceeded). Exchanging two hanchan moves no meeting and no table visit, only the consecutive
repeats (16 players: two repeat-free hanchan always keep four players at their table, copies of a hanchan
none).
"""

from __future__ import annotations

from operator import eq

from . import constructions
from .search import SEPARATION_WEIGHT, Budget
from .tables import CONSECUTIVE_WEIGHT, Groups, TableSearch

# The joint search's weights of (group cost, table cost) and the lengths of its phases.
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


class JointTableSearch(TableSearch):
    """:class:`~.tables.TableSearch` that may also exchange players and hanchan: :meth:`joint`."""

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
