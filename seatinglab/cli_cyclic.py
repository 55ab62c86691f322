"""The command line's methods on one cyclic shape or each in turn (see :mod:`.cli`): ``search``, the
generator's tabu search on ``--shape`` with transversal hanchan, and ``sat``, :func:`.sat_cyclic.sat_rounds`
on each candidate shape.
"""

from __future__ import annotations

import random
import sys
import time

from tournament.seating.cyclic import BaseSearch, Classes, CyclicShape, Groups, candidate_shapes, develop
from tournament.seating.search import Budget

from .sat_cyclic import sat_rounds
from .satfind import Unsatisfiable
from .transversal import transversal_classes, transversal_hanchan, transversal_vectors


def _search_shape(
    shape: CyclicShape, transversal: int, rng: random.Random, effort: int, deadline: float | None
) -> tuple[str, list[Groups]] | None:
    """Tabu search on one shape; with transversal hanchan, new random ones for every restart."""
    classes = Classes(shape) if transversal else None
    attempts = 1 if not transversal else max(1, effort // 20_000)
    for _ in range(attempts):
        vectors: list[list[int]] = []
        taken: list[int] = []
        if classes is not None:
            chosen = transversal_vectors(shape, transversal, rng)
            if chosen is None:
                return None
            vectors = chosen
            taken = transversal_classes(shape, classes, vectors)
        search = BaseSearch(shape, rng, taken)
        if search.run(Budget(effort // attempts, deadline)):
            bases = [[sorted(block) for block in blocks] for blocks in search.bases]
            rounds = develop(shape, bases, shape.m * shape.s)
            rounds += [transversal_hanchan(shape, v) for v in vectors]
            extra = f" t={transversal}" if transversal else ""
            return f"cyclic m={shape.m} k={shape.k} f={shape.f}{extra}", rounds
        if deadline is not None and time.monotonic() > deadline:
            break
    return None


def _parse_shape(text: str, n: int) -> CyclicShape:
    m, k, f, s = (int(v) for v in text.split(","))
    shape = CyclicShape(m, k, f, s)
    if shape.n != n:
        raise SystemExit(f"shape {text} holds {shape.n} players, not {n}")
    return shape


def _sat_schedule(
    n: int,
    rounds: int,
    rng: random.Random,
    only: str | None,
    transversal: int,
    groups: int,
    seconds: float,
    orbits: tuple[int, ...] = (),
    free: int = 0,
) -> tuple[str, list[Groups]] | None:
    """The offline SAT method: each candidate shape in turn (or ``only``), sharing ``seconds``."""
    shapes = [_parse_shape(only, n)] if only else candidate_shapes(n, rounds)
    for i, shape in enumerate(shapes):
        share = seconds / (len(shapes) - i)
        began = time.monotonic()
        try:
            found = sat_rounds(shape, rng, share, transversal, groups, orbits, free)
            verdict = "no answer" if found is None else "found"
        except Unsatisfiable:
            found, verdict = None, "proved impossible"
        seconds -= time.monotonic() - began
        print(
            f"  {shape} + {transversal} transversal + orbits {orbits} + {free} free: {verdict} in "
            f"{time.monotonic() - began:.1f} s",
            file=sys.stderr,
        )
        if found is not None:
            extra = (
                (f" t={transversal}" if transversal else "")
                + (f" o={','.join(map(str, orbits))}" if orbits else "")
                + (f" free={free}" if free else "")
                + (f" g={groups}" if groups else "")
            )
            return f"cyclic m={shape.m} k={shape.k} f={shape.f} s={shape.s}{extra} (sat)", found
    return None
