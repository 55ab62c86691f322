"""Offline finder, second method: the base hanchan of a cyclic shape as a SAT problem.

The tabu search of :mod:`tournament.seating.cyclic` solves the looser shapes in seconds but wanders on
the tightest ones, where the base hanchan must use every difference class exactly once (32 players x 10
hanchan, 44 x 14: social-golfer instances at their maximum). A SAT solver (CaDiCaL through
``python-sat``, a development dependency only: the generator itself never imports it) settles those
exactly.

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

import multiprocessing
import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations
from math import gcd

from tournament.seating.cyclic import Classes, CyclicShape, Groups, develop

from .group import GroupAction, Pair, PlayerRef
from .transversal import transversal_hanchan


class Unsatisfiable(Exception):
    """The solver proved that no schedule of the kind asked for exists (a timeout proves nothing)."""


class Formula:
    """Clauses over numbered variables, with cardinality constraints as sequential counters."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.top += 1
        return self.top

    def card(self, lits: list[int], bound: int, kind: str, guard: int | None = None) -> None:
        """At most, exactly or at least (``kind``) ``bound`` of ``lits`` are true; with ``guard``, only
        when that literal is true (every clause of the encoding holds ``-guard`` too)."""
        # python-sat is an optional (development) dependency: imported here, when a SAT method runs, so
        # that the finder's other methods and its tests work without it.
        from pysat.card import CardEnc, EncType  # type: ignore[import-not-found,unused-ignore]

        if kind == "atmost" and bound >= len(lits):
            return
        maker = {"atmost": CardEnc.atmost, "equals": CardEnc.equals, "atleast": CardEnc.atleast}[kind]
        enc = maker(lits=lits, bound=bound, top_id=self.top, encoding=EncType.seqcounter)
        self.clauses.extend(enc.clauses if guard is None else [[*c, -guard] for c in enc.clauses])
        self.top = max(self.top, enc.nv)

    def equal(self, lit: int) -> int:
        """A new variable equivalent to ``lit``."""
        copy = self.new()
        self.clauses.extend([[-copy, lit], [copy, -lit]])
        return copy


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


def _three_table_mates(
    formula: Formula, p: int, others: list[int], together: Callable[[int, int], int]
) -> None:
    """Player ``p`` has exactly three table-mates among ``others``, and two of them share a table
    (``together(q, r)``: the variable true when ``q`` and ``r`` share one). One variable may stand for
    two table-mates of ``p`` (in a symmetric hanchan, ``x + d`` and ``x - d``): each counts once."""
    lits = [together(p, q) for q in others]
    formula.card([formula.equal(lit) for lit in lits], 3, "equals")
    for (q, lq), (r, lr) in combinations(zip(others, lits, strict=True), 2):
        formula.clauses.append([-lq, -lr, together(q, r)])


def _pair_variable(together: dict[tuple[int, int], int], p: int, q: int) -> int:
    return together[min(p, q), max(p, q)]


def _tables_of(n: int, together: set[tuple[int, int]]) -> Groups:
    """The tables of a hanchan given the pairs ``(p, q)``, ``p < q``, who share a table."""
    seen: set[int] = set()
    tables: Groups = []
    for p in range(n):
        if p not in seen:
            block = [p, *(q for q in range(p + 1, n) if (p, q) in together)]
            seen.update(block)
            tables.append(block)
    return tables


def solve(clauses: list[list[int]], seconds: float) -> set[int] | None:
    """The true variables of a model, or ``None`` when no answer came within ``seconds`` (or the
    solver's process died); raises :class:`Unsatisfiable` when the solver proves there is no model.
    CaDiCaL cannot be interrupted, so it runs in a child process that is stopped at the deadline."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_solve_child, args=(clauses, send), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            return None
        answer: list[int] | None = receive.recv()
    except EOFError:
        return None
    finally:
        child.kill()
        child.join()
    if answer is None:
        raise Unsatisfiable
    return {lit for lit in answer if lit > 0}


def _solve_child(clauses: list[list[int]], send: object) -> None:
    # Optional dependency, imported when used (see Formula.card).
    from pysat.solvers import Solver  # type: ignore[import-not-found,unused-ignore]

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        answer = solver.get_model() if solver.solve() else None
    send.send(answer)  # type: ignore[attr-defined]


def sat_tables(
    n: int,
    rounds: int,
    repeats: int,
    rng: random.Random,
    seconds: float,
    excess: int = 0,
    consecutive: bool = False,
    opponents: int = 0,
    at_fewest: int | None = None,
) -> list[Groups] | None:
    """A whole schedule for a small field, table numbers included: at most ``excess`` excess meetings
    (no pair more than twice), at most ``repeats`` table repeats (visits to a table beyond the first;
    at most ``max(2, ceil(R/T))`` visits), and unless ``consecutive`` nobody at the same table in two
    consecutive hanchan; ``None`` if the solver runs out of ``seconds``, :class:`Unsatisfiable` if it
    proves there is none.
    Hanchan come as lists of tables in table-number order.

    * ``x[r][p][t]``: player ``p`` sits at table ``t`` in hanchan ``r``; one table per player, four
      players per table;
    * a meeting variable per pair and hanchan, implied by a shared table; at most one per pair, or two
      with an excess variable, of which at most ``excess`` are true;
    * ``o[p][t][k]``: ``p`` visits ``t`` at least ``k`` times (``k >= 2``), implied by any ``k``
      visits; at most ``repeats`` of them are true.

    With ``opponents = L``, every two players who never meet have at least ``L`` common opponents
    (criterion 4): a meeting variable per pair true only if the pair shares some table (through a
    variable per pair, hanchan and table), and a common-opponent variable per pair and third player.
    With ``at_fewest = K`` as well, at most ``K`` of them have exactly ``L``.

    Symmetry: hanchan 0 seats players ``4t..4t+3`` at table ``t`` (relabelling players and tables),
    and in hanchan 1 those four sit at increasing tables (exchanging them), when they cannot share one.
    """
    tables = n // 4
    cap = max(2, -(-rounds // tables))
    formula = Formula()
    new, card, equal, clauses = formula.new, formula.card, formula.equal, formula.clauses

    x = [[[0] * tables for _ in range(n)] for _ in range(rounds)]
    slots = [(r, p, t) for r in range(rounds) for p in range(n) for t in range(tables)]
    rng.shuffle(slots)
    for r, p, t in slots:
        x[r][p][t] = new()

    for r in range(rounds):
        for p in range(n):
            card(x[r][p], 1, "equals")
        for t in range(tables):
            card([x[r][p][t] for p in range(n)], 4, "equals")
    for p in range(n):
        clauses.append([x[0][p][p // 4]])
    if rounds > 1 and excess == 0:
        for p in range(n):
            if p % 4:
                for t in range(tables):
                    clauses.append([-x[1][p][t], *(x[1][p - 1][u] for u in range(t))])
    doubles = []
    for p, q in combinations(range(n), 2):
        met = []
        for r in range(rounds):
            z = new()
            clauses.extend([-x[r][p][t], -x[r][q][t], z] for t in range(tables))
            met.append(z)
        if excess == 0:
            card(met, 1, "atmost")
            continue
        d = new()
        doubles.append(d)
        card(met, 2, "atmost")
        clauses.extend([-met[i], -met[j], d] for i, j in combinations(range(rounds), 2))
    card(doubles, excess, "atmost")
    extra = []
    for p in range(n):
        for t in range(tables):
            visits = [x[r][p][t] for r in range(rounds)]
            if not consecutive:
                clauses.extend([-visits[r], -visits[r + 1]] for r in range(rounds - 1))
            card(visits, cap, "atmost")
            for k in range(2, cap + 1):
                o = new()
                extra.append(o)
                clauses.extend(
                    [*(-visits[i] for i in chosen), o] for chosen in combinations(range(rounds), k)
                )
    card(extra, repeats, "atmost")
    if opponents or at_fewest is not None:
        meets: dict[tuple[int, int], int] = {}
        for p, q in combinations(range(n), 2):
            # meets[p, q] only if some (hanchan, table) holds both.
            both = []
            for r in range(rounds):
                for t in range(tables):
                    y = new()
                    clauses.extend([[-y, x[r][p][t]], [-y, x[r][q][t]]])
                    both.append(y)
            meets[p, q] = new()
            clauses.append([-meets[p, q], *both])
        at_level: list[int] = []
        for p, q in combinations(range(n), 2):
            common = []
            for o in range(n):
                if o not in (p, q):
                    w = new()
                    clauses.extend([[-w, meets[min(p, o), max(p, o)]], [-w, meets[min(q, o), max(q, o)]]])
                    common.append(w)
            # Either the pair meets or it has ``opponents`` common opponents: the meeting counts as
            # ``opponents`` more literals equivalent to it.
            copies = [equal(meets[p, q]) for _ in range(opponents + 1)]
            if opponents:
                card(common + copies[:opponents], opponents, "atleast")
            if at_fewest is not None:
                # ... and unless ``low`` marks it, one common opponent more.
                low = new()
                at_level.append(low)
                marked = [equal(low) for _ in range(opponents + 1)]
                card(common + copies + marked, opponents + 1, "atleast")
        if at_fewest is not None:
            card(at_level, at_fewest, "atmost")

    model = solve(clauses, seconds)
    if model is None:
        return None
    return [[[p for p in range(n) if x[r][p][t] in model] for t in range(tables)] for r in range(rounds)]


def _share_strangers(
    formula: Formula,
    action: GroupAction,
    by_class: dict[Pair, list[int]],
    shared: int,
    at_fewest: int | None = None,
) -> None:
    """Every class left unused (its pairs never meet) has pairs sharing at least ``shared`` players
    of unused classes: ``unused[c]`` is true exactly when no hanchan uses class ``c``, and for the
    least pair ``(p, q)`` of each class ``both[r]`` may be true only when ``(p, r)`` and ``(q, r)``
    are both unused; at least ``shared`` of them, when ``c`` is unused (the same count holds for every
    pair of the class, G moving it onto them). With ``at_fewest``, at most that many pairs share only
    ``shared``: the others, at least one more (``low[c]`` marks a class that shares no more)."""
    unused: dict[Pair, int] = {}
    for c in action.pairs_in:
        unused[c] = formula.new()
        lits = by_class.get(c, [])
        formula.clauses.extend([-unused[c], -lit] for lit in lits)
        formula.clauses.append([unused[c], *lits])
    low: dict[Pair, int] = {}
    for c in action.pairs_in:
        p, q = c
        both = []
        for r in range(action.n):
            if r not in c:
                lit = formula.new()
                for a in (p, q):
                    formula.clauses.append([-lit, unused[action.class_of[min(a, r), max(a, r)]]])
                both.append(lit)
        if shared:
            formula.card(both, shared, "atleast", guard=unused[c])
        if at_fewest is not None:
            low[c] = formula.new()
            more = formula.new()
            formula.clauses.append([-unused[c], low[c], more])
            formula.card(both, shared + 1, "atleast", guard=more)
    if at_fewest is not None:
        # Pairs, counted in units of the classes' common divisor (a literal repeated per unit).
        unit = gcd(*action.pairs_in.values())
        lits = [low[c] for c in low for _ in range(action.pairs_in[c] // unit)]
        formula.card(lits, at_fewest // unit, "atmost")


def stabiliser_orbits(
    action: GroupAction, gens: list[tuple[int, ...]] | None
) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], dict[Pair, int]]:
    """For one hanchan that the subgroup H (``gens``, ``None`` for G) maps to itself: H's elements,
    representatives of the cosets of H (the translations that develop it) and the orbits of pairs
    under H with their sizes."""
    sub = action.elements if gens is None else action.span(gens)
    reps: list[tuple[int, ...]] = []
    covered: set[tuple[int, ...]] = set()
    for g in action.elements:
        if g not in covered:
            reps.append(g)
            covered.update(action.add(g, h) for h in sub)
    members: dict[Pair, int] = {}
    for p, q in combinations(range(action.n), 2):
        key = action.orbit(sub, p, q)
        members[key] = members.get(key, 0) + 1
    return sub, reps, members


def coverable_classes(action: GroupAction, stabilisers: list[list[tuple[int, ...]] | None]) -> set[Pair]:
    """The classes some hanchan of ``stabilisers`` can seat without a pair meeting twice (an orbit of
    pairs under its H as large as the class over the index of H); the others are always in the leave."""
    found: set[Pair] = set()
    for gens in stabilisers:
        _, reps, members = stabiliser_orbits(action, gens)
        found.update(
            action.class_of[key]
            for key, size in members.items()
            if size * len(reps) == action.pairs_in[action.class_of[key]]
        )
    return found


def sat_group_rounds(
    orders: tuple[int, ...],
    k: int,
    f: int,
    stabilisers: list[list[tuple[int, ...]] | None],
    rng: random.Random,
    seconds: float,
    short: Sequence[list[tuple[int, ...]]] = (),
    multiplier: tuple[int, int] | None = None,
    apart: Sequence[tuple[PlayerRef, PlayerRef]] = (),
    shared: int = 0,
    shared_fewest: int | None = None,
) -> list[Groups] | None:
    """Repeat-free hanchan with the symmetry of an abelian group G = Z_o1 x Z_o2 x ... (``orders``):
    players ``(g, i)`` for g in G and ``k`` types, plus ``f`` fixed players; ``None`` if the solver
    runs out of ``seconds``, :class:`Unsatisfiable` if it proves there are none. Each entry of
    ``short`` (the generators of a subgroup K) adds a short orbit: one player per coset of K, moved by
    G through G / K (fixed players are the short orbits of K = G).

    ``multiplier = (u, t)`` asks more symmetry of every developed hanchan: the map ``(g, i) -> (u g,
    i + t mod k)`` (short orbits and fixed players stay) maps it to itself. With ``u`` a unit of every
    Z_o it maps each subgroup to itself, and the search is about ``order(u)`` times smaller: 44 x 14
    over Z_14 x 3 + 2 fixed, which the plain search did not settle in 20 minutes, comes in seconds with
    ``(11, 1)``.

    For each entry of ``stabilisers`` (the generators of a subgroup H, or ``None`` for G itself) one
    hanchan that H maps to itself, developed over G / H into ``|G : H|`` hanchan. Difference classes are
    the orbits of pairs under G; an orbit of pairs under H develops into its class exactly once when
    its size times ``|G : H|`` is the class's size (otherwise some pair would meet twice), and each
    class is used at most once.

    ``apart`` prescribes who never meet (the *leave*): pairs of players, each written as a
    :data:`PlayerRef`, whose whole classes are then never used. When the hanchan hold exactly as many
    meetings as the other classes have pairs, every other pair meets exactly once, and the leave decides
    the common opponents: two players who never meet share every player but their own strangers, so
    a leave whose strangers share strangers (groups of three who never meet, for 36 x 11) gives the
    worst pair of strangers more common opponents than any repeat-free schedule whose leave has none.

    ``shared`` leaves the leave to the solver but asks every two players who never meet to share at
    least that many players who meet neither (:mod:`.leave`: their common opponents are then at least
    ``N - 2s + shared``): a leave chosen first is mostly one no hanchan fit (40 x 8 over Z_10 x 4: the
    ten best each proved impossible in a second), so the solver chooses both at once. With
    ``shared_fewest``, at most that many pairs of strangers share only ``shared``.

    The encoding is :class:`_Stabilised`'s, for any abelian group: the
    cyclic shapes are G = Z_m; a non-cyclic G reaches structures they cannot (the published 32 x 10
    keeps its hanchan under Z_2 x Z_2 x Z_2: four hanchan that G maps to themselves, three pairs
    exchanged).
    """
    action = GroupAction(orders, k, f, short)
    elements, size, finite, n = action.elements, action.size, action.finite, action.n
    if n % 4:
        raise ValueError("the players do not fill tables of four")
    act, orbit, index = action.act, action.orbit, action.index
    class_of, pairs_in = action.class_of, action.pairs_in

    never = {
        class_of[min(a, b), max(a, b)] for a, b in ((action.player(p), action.player(q)) for p, q in apart)
    }
    formula = Formula()
    by_class: dict[tuple[int, int], list[int]] = {}
    hanchan: list[tuple[list[tuple[int, ...]], dict[tuple[int, int], int]]] = []
    for gens in stabilisers:
        sub, reps, members = stabiliser_orbits(action, gens)
        var = {key: formula.new() for key in members}
        for key, lit in var.items():
            c = class_of[key]
            if members[key] * len(reps) == pairs_in[c] and c not in never:
                by_class.setdefault(c, []).append(lit)
            else:
                formula.clauses.append([-lit])
        points = sorted({min(act(h, p) for h in sub) for p in range(n)})
        order = list(range(n))
        rng.shuffle(order)
        together = {pair: var[orbit(sub, *pair)] for pair in combinations(range(n), 2)}
        for p in points:
            _three_table_mates(formula, p, [q for q in order if q != p], partial(_pair_variable, together))
        hanchan.append((reps, together))
    # With a leave that leaves exactly as many pairs as the hanchan seat, every other class is met once.
    meetings = 6 * (n // 4) * sum(len(reps) for reps, _ in hanchan)
    exact = bool(apart) and meetings == sum(count for c, count in pairs_in.items() if c not in never)
    for c in pairs_in:
        lits = by_class.get(c, [])
        if exact and c not in never:
            if not lits:
                raise Unsatisfiable
            formula.card(lits, 1, "equals")
        elif len(lits) > 1:
            formula.card(lits, 1, "atmost")
    if shared or shared_fewest is not None:
        _share_strangers(formula, action, by_class, shared, shared_fewest)
    if multiplier is not None:
        u, t = multiplier

        def scale(p: int) -> int:
            if p >= finite:
                return p
            i, g = divmod(p, size)
            return ((i + t) % k) * size + index[
                tuple(u * a % o for a, o in zip(elements[g], orders, strict=True))
            ]

        for _, together in hanchan:
            for (p, q), lit in together.items():
                image = together[min(scale(p), scale(q)), max(scale(p), scale(q))]
                formula.clauses.extend([[-lit, image], [lit, -image]])

    model = solve(formula.clauses, seconds)
    if model is None:
        return None
    rounds: list[Groups] = []
    for reps, together in hanchan:
        base = _tables_of(n, {pair for pair, lit in together.items() if lit in model})
        rounds.extend([[act(g, p) for p in block] for block in base] for g in reps)
    return rounds
