"""Transversal hanchan for the offline finder: with ``N = 4m`` players ``(x, i)`` (four types, no fixed
player), the hanchan whose tables are ``{(x_i + t, i) for each type i}``, one for every ``t`` in Z_m, is
its own development and uses one mixed difference class per pair of types, so it adds one hanchan to a
cyclic schedule (see :mod:`tournament.seating.cyclic`) without a base hanchan of its own.
"""

from __future__ import annotations

import random

from tournament.seating.cyclic import Classes, CyclicShape, Groups


def transversal_vectors(shape: CyclicShape, count: int, rng: random.Random) -> list[list[int]] | None:
    """``count`` random transversal hanchan (see :func:`transversal_hanchan`) whose differences differ
    for every pair of types, or ``None`` after many tries."""
    m = shape.m
    for _ in range(1000):
        vectors: list[list[int]] = []
        seen: set[tuple[int, int, int]] = set()
        for _ in range(count):
            for _ in range(100):
                vector = [0, *(rng.randrange(m) for _ in range(3))]
                diffs = {(i, j, (vector[j] - vector[i]) % m) for i in range(4) for j in range(i + 1, 4)}
                if not diffs & seen:
                    seen |= diffs
                    vectors.append(vector)
                    break
        if len(vectors) == count:
            return vectors
    return None


def transversal_hanchan(shape: CyclicShape, vector: list[int]) -> Groups:
    """The hanchan ``{(x_i + t, i) for each type i}`` for every ``t`` in Z_m (four types, no fixed
    player): it is its own development, and uses one mixed class per pair of types."""
    m = shape.m
    return [[i * m + (vector[i] + t) % m for i in range(4)] for t in range(m)]


def transversal_classes(shape: CyclicShape, classes: Classes, vectors: list[list[int]]) -> list[int]:
    m = shape.m
    return [
        classes.table[i * m + v[i]][j * m + v[j]] for v in vectors for i in range(4) for j in range(i + 1, 4)
    ]
