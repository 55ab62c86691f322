"""Algebraic schedules: repeat-free hanchan without any search.

* **Affine space AG(k, 4)** for ``N = 4**k`` players: players are the vectors of GF(4)^k, the tables of a
  hanchan are the parallel lines of one direction. There are ``(N-1)/3`` directions and two players lie
  on exactly one common line, so ``(N-1)/3`` hanchan make everyone meet everyone exactly once (16 players
  and 5 hanchan, 64 and 21, 256 and 85). Beyond that the directions are reused in turn, which keeps every
  pair's meetings within one of each other (the fewest repeat meetings possible).
* **Linear schedule over Z_T** (``T = N/4`` tables): player ``(g, i)`` with ``g`` in 0..3 and ``i`` in
  Z_T; table ``t`` of hanchan ``r`` holds ``(g, t + c_g * r)``. Two players of different ``g`` meet in
  at most one hanchan as long as ``r`` stays below the additive order of ``c_h - c_g``, so the multipliers
  ``c`` are chosen to make the smallest such order as large as possible (``T/2`` or more in most cases).
  This is the construction behind mutually orthogonal Latin squares and it is instant for any size.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from itertools import combinations

Groups = list[list[int]]

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def power_of_four(n: int) -> int | None:
    """``k`` if ``n == 4**k`` (k >= 1), else ``None``."""
    k = 0
    m = n
    while m > 1 and m % 4 == 0:
        m //= 4
        k += 1
    return k if m == 1 and k >= 1 else None


def affine_classes(k: int) -> list[Groups]:
    """The parallel classes of AG(k, 4): ``(4**k - 1) / 3`` partitions of the points into lines."""
    n = 4**k
    classes: list[Groups] = []
    for d in range(1, n):
        digits = [(d >> (2 * i)) & 3 for i in range(k)]
        lead = max(i for i in range(k) if digits[i])
        if digits[lead] != 1:
            continue  # one representative per direction
        multiples = [sum(_GF4_MUL[lam][digits[i]] << (2 * i) for i in range(k)) for lam in range(4)]
        seen = bytearray(n)
        lines: Groups = []
        for p in range(n):
            if seen[p]:
                continue
            line = [p ^ mv for mv in multiples]  # vector addition in GF(4)^k is digit-wise XOR
            for q in line:
                seen[q] = 1
            lines.append(line)
        classes.append(lines)
    return classes


def affine_schedule(n: int, rounds: int, rng: random.Random | None = None) -> list[Groups] | None:
    """AG(k, 4) hanchan; with fewer hanchan than directions and an ``rng``, on the directions of
    :func:`affine_directions` (strangers with the most common opponents)."""
    k = power_of_four(n)
    if k is None:
        return None
    classes = affine_classes(k)
    if rng is not None and 1 < rounds < len(classes):
        return [[list(line) for line in classes[d]] for d in affine_directions(k, rounds, rng)]
    return [[list(line) for line in classes[r % len(classes)]] for r in range(rounds)]


def projective_lines(k: int) -> list[list[int]]:
    """The lines of PG(k-1, 4), as indices of the directions in :func:`affine_classes` order."""
    n = 4**k
    index: dict[int, int] = {}
    for d in range(1, n):
        lead = max(i for i in range(k) if (d >> (2 * i)) & 3)
        if (d >> (2 * lead)) & 3 == 1:
            index[d] = len(index)

    def normal(v: int) -> int:
        lead = max(i for i in range(k) if (v >> (2 * i)) & 3)
        inverse = (0, 1, 3, 2)[(v >> (2 * lead)) & 3]
        return sum(_GF4_MUL[inverse][(v >> (2 * i)) & 3] << (2 * i) for i in range(k))

    def times(lam: int, v: int) -> int:
        return sum(_GF4_MUL[lam][(v >> (2 * i)) & 3] << (2 * i) for i in range(k))

    lines: set[tuple[int, ...]] = set()
    points = list(index)
    for a, b in combinations(points, 2):
        span = {normal(times(s, a) ^ times(t, b)) for s in range(4) for t in range(4) if s or t}
        lines.add(tuple(sorted(index[v] for v in span)))
    return [list(line) for line in sorted(lines)]


def direction_figures(k: int, chosen: Sequence[int], lines: list[list[int]] | None = None) -> tuple[int, int]:
    """(fewest common opponents of two strangers, strangers below ``floor(sqrt(N))``) for the AG(k, 4)
    hanchan on the directions ``chosen``.

    Players ``p`` and ``q`` meet when the direction of ``q - p`` is chosen. Otherwise ``z`` is a common
    opponent when the directions of ``z - p`` and ``z - q`` are both chosen; as ``q - p`` is a unique
    combination of any two other directions of the projective line they span, the strangers at direction
    ``x`` have ``sum(c * (c - 1))`` common opponents over the lines through ``x``, ``c`` counting the
    chosen directions of each line. Every direction holds ``3N/2`` pairs of players."""
    lines = lines if lines is not None else projective_lines(k)
    n = 4**k
    points = (n - 1) // 3
    on = set(chosen)
    score = [0] * points
    for line in lines:
        c = sum(1 for d in line if d in on)
        for d in line:
            score[d] += c * (c - 1)
    strangers = [score[d] for d in range(points) if d not in on]
    if not strangers:
        return 0, 0
    bar = math.isqrt(n)
    below = sum(1 for v in strangers if v < bar) if len(chosen) > 4 else 0
    return min(strangers), below * 3 * n // 2


def affine_directions(k: int, rounds: int, rng: random.Random, restarts: int = 100) -> list[int]:
    """``rounds`` directions of AG(k, 4) whose hanchan give strangers the most common opponents (then
    the fewest strangers below ``floor(sqrt(N))``): a local search exchanging one chosen direction for
    another, from ``restarts`` random starts. On 64 players it reaches the optimum of an exhaustive
    enumeration for every number of hanchan (see ``tests/seating/test_constructions.py``)."""
    lines = projective_lines(k)
    points = (4**k - 1) // 3

    def key(chosen: list[int]) -> tuple[int, int]:
        low, below = direction_figures(k, chosen, lines)
        return low, -below

    best: list[int] | None = None
    best_key = (-1, 0)
    for _ in range(restarts):
        chosen = sorted(rng.sample(range(points), rounds))
        current = key(chosen)
        improved = True
        while improved:
            improved = False
            outside = [d for d in range(points) if d not in chosen]
            moves = [(i, d) for i in range(rounds) for d in outside]
            rng.shuffle(moves)
            for i, d in moves:
                trial = sorted([*chosen[:i], *chosen[i + 1 :], d])
                value = key(trial)
                if value > current:
                    chosen, current, improved = trial, value, True
                    break
        if current > best_key:
            best, best_key = chosen, current
    assert best is not None
    return best


def _order(d: int, t: int) -> int:
    return t // math.gcd(d % t, t) if d % t else 1


def linear_multipliers(tables: int) -> tuple[tuple[int, int, int, int], int]:
    """Multipliers ``c`` (with ``c_0 = 0``) and the number of repeat-free hanchan they give."""
    if tables < 2:
        return (0, 0, 0, 0), 1
    best: tuple[tuple[int, int, int, int], int] = ((0, 1, 2, 3), 0)
    limit = min(tables, 24)
    for c1, c2, c3 in combinations(range(1, limit), 3):
        cs = (0, c1, c2, c3)
        reach = min(_order(cs[j] - cs[i], tables) for i in range(4) for j in range(i + 1, 4))
        if reach > best[1]:
            best = (cs, reach)
            if reach == tables:
                break
    return best


def linear_schedule(n: int, rounds: int) -> list[Groups] | None:
    """The linear schedule if it has no repeat meeting in ``rounds`` hanchan."""
    t = n // 4
    cs, reach = linear_multipliers(t)
    if reach < rounds:
        return None
    return [
        [[g * t + (table + cs[g] * r) % t for g in range(4)] for table in range(t)] for r in range(rounds)
    ]


# -- finite fields and the transversal-design schedule ------------------------------------------------
def _factor(n: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    d = 2
    while d * d <= n:
        if n % d == 0:
            e = 0
            while n % d == 0:
                n //= d
                e += 1
            out.append((d, e))
        d += 1
    if n > 1:
        out.append((n, 1))
    return out


def _poly_mod(a: list[int], mod: list[int], p: int) -> list[int]:
    a = list(a)
    while len(a) >= len(mod):
        coef = a[-1]
        if coef:
            shift = len(a) - len(mod)
            for i, m in enumerate(mod):
                a[shift + i] = (a[shift + i] - coef * m) % p
        a.pop()
    return a


def _irreducible(p: int, e: int) -> list[int]:
    """A monic irreducible polynomial of degree ``e`` over GF(p), lowest coefficient first."""
    if e == 1:
        return [0, 1]
    for code in range(p**e):
        poly = [(code // p**i) % p for i in range(e)] + [1]
        if poly[0] == 0:
            continue
        reducible = False
        for degree in range(1, e // 2 + 1):
            for dcode in range(p**degree):
                divisor = [(dcode // p**i) % p for i in range(degree)] + [1]
                if not any(_poly_mod(poly, divisor, p)):
                    reducible = True
                    break
            if reducible:
                break
        if not reducible:
            return poly
    raise ArithmeticError(f"no irreducible polynomial of degree {e} over GF({p})")


def field_tables(p: int, e: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(p**e); element ``x`` has base-p digits as coefficients."""
    q = p**e
    mod = _irreducible(p, e)

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(e)]

    def number(ds: list[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    add = [
        [number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    mul = [[0] * q for _ in range(q)]
    for x in range(q):
        dx = digits(x)
        for y in range(x, q):
            dy = digits(y)
            prod = [0] * (2 * e - 1)
            for i, a in enumerate(dx):
                if a:
                    for j, b in enumerate(dy):
                        prod[i + j] = (prod[i + j] + a * b) % p
            reduced = _poly_mod(prod, mod, p) + [0] * e
            mul[x][y] = mul[y][x] = number(reduced[:e])
    return add, mul


def ring_tables(t: int, smallest: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication of a product of finite fields of order ``t`` whose every factor has
    at least ``smallest`` elements (so ``smallest`` elements have pairwise differences that are units)."""
    parts = _factor(t)
    if not parts or any(p**e < smallest for p, e in parts):
        return None
    fields = [field_tables(p, e) for p, e in parts]
    sizes = [p**e for p, e in parts]

    def split(x: int) -> list[int]:
        out = []
        for size in sizes:
            out.append(x % size)
            x //= size
        return out

    def join(xs: list[int]) -> int:
        value = 0
        for x, size in zip(reversed(xs), reversed(sizes), strict=True):
            value = value * size + x
        return value

    comps = [split(x) for x in range(t)]
    add = [
        [join([f[0][a][b] for f, a, b in zip(fields, comps[x], comps[y], strict=True)]) for y in range(t)]
        for x in range(t)
    ]
    mul = [
        [join([f[1][a][b] for f, a, b in zip(fields, comps[x], comps[y], strict=True)]) for y in range(t)]
        for x in range(t)
    ]
    return add, mul


def transversal_schedule(n: int, rounds: int, rng: random.Random | None = None) -> list[Groups] | None:
    """Repeat-free hanchan *with* repeat-free table numbers, for ``rounds <= T`` when ``T = n/4`` is a
    product of prime powers of at least 5 (a transversal design TD(5, T) from finite fields).

    Player ``(g, x)`` sits at table ``x + (c_4 - c_g) r`` in hanchan ``r``; the five multipliers are
    distinct in every field factor, so two players meet at most once and nobody sees a table twice,
    whichever ring elements ``r`` the hanchan take. With fewer hanchan than tables and an ``rng``, those
    elements are chosen for the common opponents of strangers (:func:`transversal_elements`).
    Groups come back ordered by table number."""
    t = n // 4
    if rounds > t:
        return None
    tables = ring_tables(t, 5)
    if tables is None:
        return None
    add, mul = tables
    # The ring element with every component equal to j (j < 5) is a valid multiplier.
    parts = _factor(t)
    sizes = [p**e for p, e in parts]

    def constant(j: int) -> int:
        value = 0
        for size in reversed(sizes):
            value = value * size + j
        return value

    c = [constant(j) for j in range(5)]
    neg = [next(y for y in range(t) if add[x][y] == 0) for x in range(t)]
    steps = [mul[add[c[4]][neg[c[g]]]] for g in range(4)]

    def build(elements: Sequence[int]) -> list[Groups]:
        out: list[Groups] = []
        for r in elements:
            groups: Groups = [[] for _ in range(t)]
            for g in range(4):
                step = steps[g][r]
                for x in range(t):
                    groups[add[x][step]].append(g * t + x)
            out.append(groups)
        return out

    elements = list(range(rounds))
    if rng is not None and 1 < rounds < t:
        elements = transversal_elements(n, rounds, build, rng)
    return build(elements)


#: Work of :func:`transversal_elements` in player pairs examined (about 1 s at 172 players).
ELEMENT_WORK = 4_000_000


def transversal_elements(
    n: int, rounds: int, build: Callable[[Sequence[int]], list[Groups]], rng: random.Random
) -> list[int]:
    """The ``rounds`` ring elements whose transversal-design hanchan give strangers the most common
    opponents (then the fewest below ``floor(sqrt(N))``). Any elements keep the design free of repeat
    meetings and table repeats, but the first ``R`` can leave strangers with no common opponent at all
    (128 x 14: 0, and 1,024 pairs below 11) where others give 8 (and 448): random sets, then exchanges of
    one element, within :data:`ELEMENT_WORK`."""
    t = n // 4
    evaluations = max(4, ELEMENT_WORK // (n * n // 2))

    def key(elements: Sequence[int]) -> tuple[int, int]:
        low, _, below = common_opponent_figures(build(elements), n, rounds > 4)
        return low, -below

    best = list(range(rounds))
    best_key = key(best)
    spent = 1
    while spent < evaluations // 2:
        trial = sorted(rng.sample(range(t), rounds))
        value = key(trial)
        spent += 1
        if value > best_key:
            best, best_key = trial, value
    while spent < evaluations:
        i = rng.randrange(rounds)
        outside = [e for e in range(t) if e not in best]
        trial = sorted([*best[:i], *best[i + 1 :], rng.choice(outside)])
        value = key(trial)
        spent += 1
        if value >= best_key:
            best, best_key = trial, value
    return best


def common_opponent_figures(rounds: Sequence[Groups], n: int, checked: bool = True) -> tuple[int, int, int]:
    """For the pairs of players who never meet: (the fewest common opponents, how many pairs have that
    few, how many have fewer than ``floor(sqrt(N))``, counted only when ``checked``). ``(n, 0, 0)`` when
    every pair meets."""
    opponents = [0] * n
    for hanchan in rounds:
        for group in hanchan:
            mask = 0
            for p in group:
                mask |= 1 << p
            for p in group:
                opponents[p] |= mask & ~(1 << p)
    bar = math.isqrt(n)
    low = n
    at_low = 0
    below = 0
    for p in range(n):
        mine = opponents[p]
        for q in range(p + 1, n):
            if not (mine >> q) & 1:
                shared = (mine & opponents[q]).bit_count()
                if shared < low:
                    low, at_low = shared, 0
                if shared == low:
                    at_low += 1
                if checked and shared < bar:
                    below += 1
    return low, at_low, below
