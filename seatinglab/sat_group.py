"""The SAT method over an abelian group (:func:`sat_group_rounds`, see :mod:`.satfind`): hanchan that
subgroups map to themselves, developed over the group, with a prescribed leave (``apart``) or one the
solver chooses with shared strangers (``shared``); :func:`coverable_classes` for the leave search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from itertools import combinations
from math import gcd

from tournament.seating.cyclic import Groups

from .group import GroupAction, Pair, PlayerRef
from .satfind import Formula, Unsatisfiable, _tables_of, _three_table_mates, solve


def _pair_variable(together: dict[tuple[int, int], int], p: int, q: int) -> int:
    return together[min(p, q), max(p, q)]


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

    The encoding is :class:`.sat_cyclic._Stabilised`'s, for any abelian group: the
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
