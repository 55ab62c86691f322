"""Swiss hanchan: tables formed from the current standings.

The natural Swiss hanchan puts the top four at table one, the next four at table two, and so on. Two
players who already met are separated by the smallest moves in the ranking that avoid it: the cost of a
player sitting ``d`` tables away from their natural table is ``d*d``, far below the cost of a repeat
meeting, and a local search exchanges players between nearby tables until no exchange lowers the total.
Table numbers then avoid the tables each player already visited (and the table of the previous
hanchan), and winds go to whoever has had them least.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import permutations

from scoring.rules.i18n import _

from .assignment import cheap_assignment, hungarian
from .generator import normalise_fixed
from .model import PlayerId, Round, RoundInput, SeatingError
from .tables import CONSECUTIVE_WEIGHT, visit_cost

#: Simulated annealing after the descent (see :func:`_separate_repeats`): proposed exchanges, the
#: temperature from start to end (in units of squared tables moved), and the price of a repeat meanwhile.
ANNEAL_STEPS = 120_000
ANNEAL_START = 60.0
ANNEAL_END = 0.3
ANNEAL_REPEAT = 40
REPEAT_WEIGHT = 1_000_000


def swiss_round(
    ranking: Sequence[PlayerId],
    history: Sequence[RoundInput] = (),
    *,
    seed: int = 0,
    max_shift: int | None = None,
) -> Round:
    """One hanchan for the players of ``ranking`` (best first), after the hanchan of ``history``.

    ``max_shift`` bounds how many tables away from their natural table a player may be moved (default:
    unbounded, only the cost decides). Returns the tables in table-number order, players in seat order
    East, South, West, North.
    """
    players = list(ranking)
    n = len(players)
    if n < 4 or n % 4:
        raise SeatingError(
            _("the number of players must be a positive multiple of 4, got {count}").format(count=n)
        )
    if len(set(players)) != n:
        raise SeatingError(_("player ids must be unique"))
    played = normalise_fixed(history)
    index = {p: i for i, p in enumerate(players)}
    tables = n // 4
    meet = [bytearray(n) for _ in range(n)]
    visits = [[0] * tables for _ in range(n)]
    winds = [[0] * 4 for _ in range(n)]
    last = [-1] * n
    for h, hanchan in enumerate(played):
        for t, table in enumerate(hanchan):
            members = [index[p] for p in table if p in index]
            for seat, p in enumerate(table):
                if p in index:
                    i = index[p]
                    winds[i][seat] += 1
                    if t < tables:
                        visits[i][t] += 1
                        if h == len(played) - 1:
                            last[i] = t
            for a in members:
                for b in members:
                    if a != b:
                        meet[a][b] += 1
    rng = random.Random(seed)
    groups = [list(range(4 * g, 4 * g + 4)) for g in range(tables)]
    _separate_repeats(groups, meet, max_shift, rng)

    matrix = []
    for group in groups:
        row = [0] * tables
        for p in group:
            for t in range(tables):
                row[t] += visit_cost(visits[p][t] + 1) - visit_cost(visits[p][t])
            if last[p] >= 0:
                row[last[p]] += CONSECUTIVE_WEIGHT
        matrix.append(row)
    assignment = hungarian(matrix) if tables <= 64 else cheap_assignment(matrix, rng)
    ordered: list[list[int]] = [[] for _ in range(tables)]
    for g, t in enumerate(assignment):
        ordered[t] = groups[g]
    out: list[tuple[PlayerId, ...]] = []
    for group in ordered:
        best: tuple[int, ...] | None = None
        best_key: tuple[int, int] | None = None
        for perm in permutations(group):
            spread = sum(winds[p][seat] for seat, p in enumerate(perm))
            worst = max(winds[p][seat] for seat, p in enumerate(perm))
            key = (worst, spread)
            if best_key is None or key < best_key:
                best, best_key = perm, key
        assert best is not None
        out.append(tuple(players[p] for p in best))
    return tuple(out)


def _separate_repeats(
    groups: list[list[int]], meet: list[bytearray], max_shift: int | None, rng: random.Random
) -> None:
    """Minimise ``repeats * REPEAT_WEIGHT + sum of d^2``: steepest descent over exchanges of two players
    at most ``window`` tables apart (the window widens while repeats remain that it cannot remove, and
    at the end to every table within ``max_shift``), then simulated annealing over exchanges near the
    players' home tables, where a repeat costs only ``ANNEAL_REPEAT`` so that the walk can pass through
    arrangements with one; the best arrangement seen (repeats first) is kept. Descent alone, or descent
    with random restarts, stops in poor local minima: 32 players after 3 hanchan, tables of the first in
    ranking order, 80 to 114 by seed (one player 5 tables from his place) where the annealing reaches 80
    in 28 of 30 cases."""
    tables = len(groups)
    home = [p // 4 for p in range(4 * tables)]
    where = [p // 4 for p in range(4 * tables)]
    limit = tables - 1 if max_shift is None else min(tables - 1, max_shift)

    def repeats(p: int, group: list[int], skip: int) -> int:
        row = meet[p]
        return sum(row[q] for q in group if q != p and q != skip)

    def moved(p: int, g: int) -> int:
        d = g - home[p]
        return d * d

    def figures() -> tuple[int, int]:
        """(repeat pairs, sum of squared displacements) of the current arrangement."""
        pairs = sum(repeats(p, group, -1) for group in groups for p in group) // 2
        return pairs, sum(moved(p, where[p]) for p in range(4 * tables))

    def exchange(a: int, b: int) -> None:
        ga, gb = where[a], where[b]
        groups[ga][groups[ga].index(a)] = b
        groups[gb][groups[gb].index(b)] = a
        where[a], where[b] = gb, ga

    def parts(a: int, b: int) -> tuple[int, int]:
        """Change of (repeats, squared displacement) if ``a`` and ``b`` exchange tables."""
        ga, gb = where[a], where[b]
        r = (
            repeats(a, groups[gb], b)
            + repeats(b, groups[ga], a)
            - repeats(a, groups[ga], -1)
            - repeats(b, groups[gb], -1)
        )
        return r, moved(a, gb) + moved(b, ga) - moved(a, ga) - moved(b, gb)

    def delta(a: int, b: int) -> int:
        r, m = parts(a, b)
        return REPEAT_WEIGHT * r + m

    def descend() -> None:
        window = min(2, limit)
        while True:
            best = 0
            best_pair: tuple[int, int] | None = None
            conflicted = [a for g in groups for a in g if repeats(a, g, -1)]
            candidates = conflicted + [a for g in groups for a in g if where[a] != home[a]]
            for a in candidates:
                ga = where[a]
                for gb in range(max(0, ga - window), min(tables, ga + window + 1)):
                    if gb == ga:
                        continue
                    for b in groups[gb]:
                        if abs(gb - home[a]) > limit or abs(ga - home[b]) > limit:
                            continue
                        d = delta(a, b)
                        if d < best:
                            best = d
                            best_pair = (a, b)
            if best_pair is None:
                if window < limit:
                    window = min(limit, window + 2) if conflicted else limit
                    continue
                return
            exchange(*best_pair)

    descend()
    if tables < 3:
        return
    # Simulated annealing over exchanges of two players within reach of each other's home table.
    # A repeat costs only ANNEAL_REPEAT here, so the walk can cross arrangements with a repeat to
    # reach better ones; the best arrangement seen, in the true order (repeats first), is kept.
    rep, disp = best_key = figures()
    best = [list(g) for g in groups], list(where)
    players = 4 * tables
    reach = min(limit, 3)
    temperature = ANNEAL_START
    cooling = (ANNEAL_END / ANNEAL_START) ** (1 / ANNEAL_STEPS)
    for _step in range(ANNEAL_STEPS):
        temperature *= cooling
        a = rng.randrange(players)
        ga = where[a]
        gb = home[a] + rng.randint(-reach, reach)
        if gb == ga or gb < 0 or gb >= tables:
            continue
        b = groups[gb][rng.randrange(4)]
        if abs(ga - home[b]) > limit:
            continue
        r, m = parts(a, b)
        d = ANNEAL_REPEAT * r + m
        if d <= 0 or rng.random() < math.exp(-d / temperature):
            exchange(a, b)
            rep += r
            disp += m
            if (rep, disp) < best_key:
                best_key = (rep, disp)
                best = [list(g) for g in groups], list(where)
    groups[:] = best[0]
    where[:] = best[1]
