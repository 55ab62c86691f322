"""Hanchan from planes of GF(2)^k (32, 64 or 128 players), as a start for the annealing.

Players are the vectors of GF(2)^k. A two-dimensional subspace ``V = {0, a, b, a + b}`` splits them into
its ``2^k / 4`` cosets, the tables of one hanchan, and two players meet there when their difference is
one of ``a``, ``b``, ``a + b``. Hanchan on subspaces with no nonzero vector in common (a partial spread
of lines of PG(k-1, 2)) never repeat a meeting, and players ``p`` and ``p + d`` who never meet share
``|D ∩ (D + d)|`` common opponents, ``D`` being the union of the chosen subspaces' nonzero vectors: the
same for the ``2^k / 2`` pairs of every difference ``d``. So a choice of subspaces is judged by the
fewest common opponents over the differences left out, then how many differences sit that low, then
the pairs below ``floor(sqrt(2^k))``: the order of the criteria.

:func:`best_spread` looks for the best choice by simulated annealing over the subspaces (one replaced
by another disjoint from the rest); the tables' numbers are then the annealing's (``--start binary``).
"""

from __future__ import annotations

import math
import random

from tournament.seating.cyclic import Groups

Figures = tuple[int, int, int]


def _lines(k: int) -> list[tuple[int, int, int]]:
    """The two-dimensional subspaces of GF(2)^k, as their three nonzero vectors."""
    size = 1 << k
    found: set[tuple[int, int, int]] = set()
    for a in range(1, size):
        for b in range(a + 1, size):
            low, mid, high = sorted((a, b, a ^ b))
            found.add((low, mid, high))
    return sorted(found)


def spread_figures(k: int, chosen: list[tuple[int, int, int]]) -> Figures:
    """(fewest common opponents of two strangers, strangers that low, strangers below the bar), counted in
    pairs of players, for the hanchan on ``chosen``."""
    size = 1 << k
    covered = [False] * size
    for line in chosen:
        for v in line:
            covered[v] = True
    members = [v for v in range(1, size) if covered[v]]
    scores = [sum(1 for x in members if covered[x ^ d]) for d in range(1, size) if not covered[d]]
    if not scores:
        return size, 0, 0
    low = min(scores)
    bar = math.isqrt(size)
    pairs = size // 2
    below = sum(1 for s in scores if s < bar) * pairs if len(chosen) > 4 else 0
    return low, scores.count(low) * pairs, below


def _key(figures: Figures) -> tuple[int, int, int]:
    return figures[0], -figures[1], -figures[2]


def best_spread(
    k: int, rounds: int, rng: random.Random, steps: int = 20_000
) -> tuple[list[tuple[int, int, int]], Figures]:
    """``rounds`` pairwise disjoint two-dimensional subspaces of GF(2)^k, the best found in ``steps``
    annealing steps, and their figures."""
    lines = _lines(k)
    if 3 * rounds > (1 << k) - 1:
        raise ValueError(f"{rounds} hanchan on GF(2)^{k}: more meetings than pairs")
    chosen: list[tuple[int, int, int]] = []
    used: set[int] = set()
    for line in rng.sample(lines, len(lines)):
        if len(chosen) == rounds:
            break
        if not used & set(line):
            chosen.append(line)
            used |= set(line)
    if len(chosen) < rounds:
        raise ValueError(f"no {rounds} disjoint planes found in GF(2)^{k}")
    current = _key(spread_figures(k, chosen))
    best, best_key = list(chosen), current
    for step in range(steps):
        temperature = 2.0 * (0.01 / 2.0) ** (step / steps)
        i = rng.randrange(rounds)
        rest = used - set(chosen[i])
        line = lines[rng.randrange(len(lines))]
        if rest & set(line) or line == chosen[i]:
            continue
        trial = [*chosen[:i], line, *chosen[i + 1 :]]
        value = _key(spread_figures(k, trial))
        # The fewest common opponents weigh most; then each difference at that level.
        delta = (value[0] - current[0]) * 64 + (value[1] - current[1]) / (1 << (k - 1))
        if delta >= 0 or rng.random() < math.exp(delta / temperature):
            chosen, current, used = trial, value, rest | set(line)
            if current > best_key:
                best, best_key = list(chosen), current
    return best, (best_key[0], -best_key[1], -best_key[2])


def binary_start(n: int, rounds: int, rng: random.Random, steps: int = 20_000) -> list[Groups]:
    """The hanchan of :func:`best_spread` (players ``0..n-1``, ``n`` a power of two from 8), in a random
    order with random table numbers."""
    k = n.bit_length() - 1
    if n < 8 or n != 1 << k:
        raise ValueError(f"--start binary: a power of two of players, not {n}")
    chosen, _ = best_spread(k, rounds, rng, steps)
    hanchan = []
    for a, b, _c in chosen:
        seen: set[int] = set()
        tables = []
        for x in range(n):
            if x not in seen:
                coset = [x, x ^ a, x ^ b, x ^ a ^ b]
                seen.update(coset)
                tables.append(coset)
        rng.shuffle(tables)
        hanchan.append(tables)
    rng.shuffle(hanchan)
    return hanchan
