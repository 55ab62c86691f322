"""The SAT method on a cyclic shape (:func:`sat_rounds`, see :mod:`.satfind`): its base hanchan,
transversal hanchan, hanchan that a subgroup of Z_m maps to itself and free hanchan.

Encoding, for a shape with ``s`` base hanchan of ``T`` tables:

* ``a[b][p][g]``: player ``p`` sits at table ``g`` of base hanchan ``b``; each player at exactly one
  table, each table exactly four players;
* ``z[b][p][q]`` is implied by ``a[b][p][g] and a[b][q][g]`` for every table ``g`` (the pair meets in
  base hanchan ``b``);
* the pairs of one difference class (over all base hanchan) meet at most once; classes that would make a
  pair meet twice in the development (difference ``m/2``, two fixed players) not at all.

Symmetry (translating one type on its own, or exchanging two types, maps a schedule to a schedule):
fixed player ``u`` sits at table ``u`` of every base hanchan; the first fixed player's table holds
``(0, 0), (0, 1), (0, 2)``, or else the first finite player sits at the first table, or else the first
transversal hanchan is ``{(t, 0), (t, 1), (t, 2), (t, 3)}``; the tables without a fixed player come in
increasing order of their first player.
"""

from __future__ import annotations

import random
from itertools import combinations

from tournament.seating.cyclic import Classes, CyclicShape, Groups, develop

from .satfind import Formula, _tables_of, _three_table_mates, solve
from .transversal import transversal_hanchan


def sat_rounds(
    shape: CyclicShape,
    rng: random.Random,
    seconds: float,
    transversal: int = 0,
    groups: int = 0,
    orbits: tuple[int, ...] = (),
    free: int = 0,
) -> list[Groups] | None:
    """Repeat-free hanchan for ``shape`` (its base hanchan developed, then ``transversal`` more);
    ``None`` if the solver runs out of ``seconds``, :class:`Unsatisfiable` if it proves there are none.
    ``rng`` permutes the variable numbering (another seed, another search).

    A *transversal* hanchan needs four types and no fixed player: its tables are ``{(x + t, i)}`` for
    ``t`` in Z_m, one player ``(x_i, i)`` of each type ``i`` (``x_0 = 0``), so it is its own development
    and uses one mixed class per pair of types. With ``m = N/4`` this reaches the social-golfer maxima
    that a developed base hanchan alone cannot: 32 players x (8 + 2), 44 x (11 + 3), 48 x (12 + 3).

    ``groups = G`` asks for a *resolvable group divisible design*: the players fall into groups of ``G``
    who never meet, ``{(x, i) : i = j mod k/G}`` for each ``x`` and ``j``, and the fixed players (``f``
    is 0 or ``G``); every other pair meets exactly once when the counts allow it. Where each player
    meets all but one other (32 x 10, 44 x 14) the players who never meet pair off, and with a
    developed schedule that pairing can always be brought to this form; elsewhere (48 x 15, groups of
    three) it is a narrower search than repeat-free alone, as the designs in the literature are.

    ``orbits = (h, ...)`` adds, for each ``h`` (a divisor of ``m``), a hanchan that
    translation by the subgroup H of order ``h`` maps to itself, developed over Z_m / H into ``m/h``
    hanchan. With ``h = m`` it is a single hanchan, for instance a transversal one, or one with tables
    ``{(x, i), (x + m/2, i), (y, j), (y + m/2, j)}``: an even ``h`` is what lets the pure class of
    difference m/2 be used, once. It is encoded by one variable per orbit of pairs under H (the pairs
    share a table), three table-mates per player and closure under "shares a table"; each Z_m class is
    then used by at most one of its H-orbits. Fixed players stay put, so a fixed player's table is a
    coset of H plus that player: only ``h`` = 1 or 3 seats one.

    ``free`` hanchan more have no symmetry at all (a variable per player and table): a pair meets
    there only if its difference class is not used by the rest, and at most once.
    """
    if transversal and (shape.k != 4 or shape.f != 0):
        raise ValueError("transversal hanchan need four types and no fixed player")
    if any(shape.m % h for h in orbits):
        raise ValueError("orbits need orders that divide m")
    if groups and (shape.k % groups or shape.f not in (0, groups)):
        raise ValueError("groups of G need G to divide the number of types, and f = 0 or G")
    n = shape.n
    tables = n // 4
    finite = shape.k * shape.m
    classes = Classes(shape)
    m = shape.m
    period = shape.k // groups if groups else 0
    apart = {
        classes.table[i * m][j * m]
        for i, j in combinations(range(shape.k), 2)
        if groups and i % period == j % period
    }
    formula = Formula()
    new, card, clauses = formula.new, formula.card, formula.clauses

    # Variable numbers in a seeded order, so that seeds explore differently.
    a = [[[0] * tables for _ in range(n)] for _ in range(shape.s)]
    slots = [(b, p, g) for b in range(shape.s) for p in range(n) for g in range(tables)]
    rng.shuffle(slots)
    for b, p, g in slots:
        a[b][p][g] = new()

    for b in range(shape.s):
        for p in range(n):
            card(a[b][p], 1, "equals")
        for g in range(tables):
            card([a[b][p][g] for p in range(n)], 4, "equals")
        for u in range(shape.f):
            clauses.append([a[b][finite + u][u]])
        if b == 0 and shape.f and groups:
            # Groups are interchangeable, so are the types of one group, and a group may be translated
            # on its own: the first fixed player's table may hold (0, 0).
            clauses.append([a[b][0][0]])
        elif b == 0 and shape.f:
            # Types are interchangeable and each may be translated on its own: the first fixed player's
            # table may hold (0, 0), (0, 1) and (0, 2).
            clauses.extend([a[b][i * shape.m][0]] for i in range(3))
        elif shape.f < tables and not transversal:
            clauses.append([a[b][0][shape.f]])
        # Tables without a fixed player in increasing order of their first player.
        for g in range(shape.f + 1, tables):
            for p in range(finite):
                clauses.append([-a[b][p][g], *(a[b][q][g - 1] for q in range(p))])

    by_class: dict[int, list[int]] = {}
    for p, q in combinations(range(n), 2):
        c = classes.table[p][q]
        forbidden = classes.kinds[c] != Classes.NORMAL or c in apart
        for b in range(shape.s):
            if forbidden:
                clauses.extend([-a[b][p][g], -a[b][q][g]] for g in range(tables))
                continue
            z = new()
            clauses.extend([-a[b][p][g], -a[b][q][g], z] for g in range(tables))
            by_class.setdefault(c, []).append(z)
    # y[r][i][x]: player (x, i) is the type-i player of transversal hanchan r.
    y = [[[new() for _ in range(m)] for _ in range(4)] for _ in range(transversal)]
    for r in range(transversal):
        # x_0 = 0 always (the hanchan is its own development). Translating each type on its own
        # (each group, with groups) maps a schedule to a schedule: in the first transversal hanchan
        # the other types (one type per group) may have x_i = 0 too.
        zeroed = (period if groups else 4) if r == 0 else 1
        clauses.extend([y[r][i][0]] for i in range(zeroed))
        for i in range(4):
            card(y[r][i], 1, "equals")
        for i, j in combinations(range(4), 2):
            for xi in range(m):
                for xj in range(m):
                    c = classes.table[i * m + xi][j * m + xj]
                    if c in apart:
                        clauses.append([-y[r][i][xi], -y[r][j][xj]])
                        continue
                    z = new()
                    clauses.append([-y[r][i][xi], -y[r][j][xj], z])
                    by_class.setdefault(c, []).append(z)
    stabilised = [_Stabilised(formula, classes, shape, apart, h) for h in orbits]
    for orbit in stabilised:
        for c, lits in orbit.by_class.items():
            by_class.setdefault(c, []).extend(lits)
    for lits in by_class.values():
        if len(lits) > 1:
            card(lits, 1, "atmost")
    x = _free_hanchan(formula, classes, by_class, n, free)

    model = solve(clauses, seconds)
    if model is None:
        return None
    bases: list[Groups] = []
    for b in range(shape.s):
        blocks: Groups = [[] for _ in range(tables)]
        for p in range(n):
            g = next(g for g in range(tables) if a[b][p][g] in model)
            blocks[g].append(p)
        bases.append(blocks)
    rounds = develop(shape, bases, shape.m * shape.s)
    for r in range(transversal):
        vector = [next(x for x in range(m) if y[r][i][x] in model) for i in range(4)]
        rounds.append(transversal_hanchan(shape, vector))
    for orbit in stabilised:
        rounds.extend(orbit.develop(model))
    for hanchan in x:
        rounds.append([[p for p in range(n) if hanchan[p][g] in model] for g in range(tables)])
    return rounds


def _free_hanchan(
    formula: Formula, classes: Classes, by_class: dict[int, list[int]], n: int, count: int
) -> list[list[list[int]]]:
    """``count`` hanchan without symmetry (see :func:`sat_rounds`): ``x[r][p][g]``, player ``p`` at
    table ``g`` of free hanchan ``r``; tables in increasing order of their first player."""
    if not count:
        return []
    tables = n // 4
    new, card, clauses = formula.new, formula.card, formula.clauses
    used: dict[int, int] = {}
    for c, lits in by_class.items():
        used[c] = new()
        clauses.extend([-lit, used[c]] for lit in lits)
    x = [[[new() for _ in range(tables)] for _ in range(n)] for _ in range(count)]
    for hanchan in x:
        for p in range(n):
            card(hanchan[p], 1, "equals")
        for g in range(tables):
            card([hanchan[p][g] for p in range(n)], 4, "equals")
            if g:
                for p in range(n):
                    clauses.append([-hanchan[p][g], *(hanchan[q][g - 1] for q in range(p))])
    for p, q in combinations(range(n), 2):
        met = []
        for hanchan in x:
            z = new()
            clauses.extend([-hanchan[p][g], -hanchan[q][g], z] for g in range(tables))
            met.append(z)
        c = classes.table[p][q]
        card(met + ([used[c]] if c in used else []), 1, "atmost")
    return x


class _Stabilised:
    """One hanchan that translation by the subgroup of order ``h`` of Z_m maps to itself (see
    :func:`sat_rounds`): a variable per orbit of pairs under that subgroup, true when its pairs share a
    table. Every player has three table-mates, and two table-mates of one player share a table; by the
    symmetry it is enough to ask it of the players ``(x, i)`` with ``x < m/h``."""

    def __init__(
        self, formula: Formula, classes: Classes, shape: CyclicShape, apart: set[int], h: int
    ) -> None:
        m, n = shape.m, shape.n
        self.step = step = m // h
        self.shape = shape
        table = classes.table
        move = self.move

        def orbit_of(p: int, q: int) -> tuple[int, int]:
            return min(tuple(sorted((move(p, t), move(q, t)))) for t in range(0, m, step))  # type: ignore[return-value]

        self.var: dict[tuple[int, int], int] = {}
        self.by_class: dict[int, list[int]] = {}
        for p, q in combinations(range(n), 2):
            key = orbit_of(p, q)
            if key in self.var:
                continue
            lit = self.var[key] = formula.new()
            c = table[p][q]
            # A pure pair of difference m/2 lies in its own orbit only if m/2 is in the subgroup;
            # otherwise the development would seat it twice. Two fixed players would meet in every
            # hanchan of the development.
            kind = classes.kinds[c]
            if c in apart or (kind == Classes.HALF and h % 2) or (kind == Classes.FIXED_PAIR and h < m):
                formula.clauses.append([-lit])
            else:
                self.by_class.setdefault(c, []).append(lit)
        self.orbit_of = orbit_of
        finite = shape.k * m
        for p in [i * m + x for i in range(shape.k) for x in range(step)] + list(range(finite, n)):
            _three_table_mates(formula, p, [q for q in range(n) if q != p], self.together)

    def move(self, p: int, t: int) -> int:
        """Player ``p`` translated by ``t`` (fixed players stay)."""
        m = self.shape.m
        return p if p >= self.shape.k * m else (p // m) * m + (p + t) % m

    def together(self, p: int, q: int) -> int:
        """The variable true when ``p`` and ``q`` share a table."""
        return self.var[self.orbit_of(p, q)]

    def develop(self, model: set[int]) -> list[Groups]:
        n = self.shape.n
        base = _tables_of(n, {(p, q) for p, q in combinations(range(n), 2) if self.together(p, q) in model})
        return [[[self.move(p, t) for p in block] for block in base] for t in range(self.step)]
