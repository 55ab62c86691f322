"""Offline finder, second method: the base hanchan of a cyclic shape as a SAT problem.

The tabu search of :mod:`.cyclic` solves the looser shapes in seconds but wanders on the tightest ones,
where the base hanchan must use every difference class exactly once (32 players x 10 hanchan, 44 x 14:
social-golfer instances at their maximum). A SAT solver (CaDiCaL through ``python-sat``, a development
dependency only: the generator itself never imports it) settles those exactly.

Encoding, for a shape with ``s`` base hanchan of ``T`` tables:

* ``a[b][p][g]``: player ``p`` sits at table ``g`` of base hanchan ``b``; each player at exactly one
  table, each table exactly four players;
* ``z[b][p][q]`` is implied by ``a[b][p][g] and a[b][q][g]`` for every table ``g`` (the pair meets in
  base hanchan ``b``);
* the pairs of one difference class (over all base hanchan) meet at most once; classes that would make a
  pair meet twice in the development (difference ``m/2``, two fixed players) not at all.

Symmetry: fixed player ``u`` sits at table ``u`` of every base hanchan, the first finite player at the
first table that has no fixed player (a translation), and the
other tables in increasing order of their first player.
"""

from __future__ import annotations

import multiprocessing
import random
from itertools import combinations

from .cyclic import CyclicShape, Groups, _Classes


def sat_bases(shape: CyclicShape, rng: random.Random, seconds: float) -> list[Groups] | None:
    """Repeat-free base hanchan for ``shape``, or ``None`` if the solver proves there are none or runs out
    of ``seconds``. ``rng`` permutes the variable numbering (another seed, another search)."""
    from pysat.card import CardEnc, EncType  # type: ignore[import-not-found,unused-ignore]

    n = shape.n
    tables = n // 4
    finite = shape.k * shape.m
    classes = _Classes(shape)
    top = 0

    def new() -> int:
        nonlocal top
        top += 1
        return top

    # Variable numbers in a seeded order, so that seeds explore differently.
    a = [[[0] * tables for _ in range(n)] for _ in range(shape.s)]
    slots = [(b, p, g) for b in range(shape.s) for p in range(n) for g in range(tables)]
    rng.shuffle(slots)
    for b, p, g in slots:
        a[b][p][g] = new()
    clauses: list[list[int]] = []

    def card(lits: list[int], bound: int, kind: str) -> None:
        nonlocal top
        maker = {"atmost": CardEnc.atmost, "equals": CardEnc.equals}[kind]
        enc = maker(lits=lits, bound=bound, top_id=top, encoding=EncType.seqcounter)
        clauses.extend(enc.clauses)
        top = max(top, enc.nv)

    for b in range(shape.s):
        for p in range(n):
            card(a[b][p], 1, "equals")
        for g in range(tables):
            card([a[b][p][g] for p in range(n)], 4, "equals")
        for u in range(shape.f):
            clauses.append([a[b][finite + u][u]])
        if shape.f < tables:
            clauses.append([a[b][0][shape.f]])
        # Tables without a fixed player in increasing order of their first player.
        for g in range(shape.f + 1, tables):
            for p in range(finite):
                clauses.append([-a[b][p][g], *(a[b][q][g - 1] for q in range(p))])

    by_class: dict[int, list[int]] = {}
    for p, q in combinations(range(n), 2):
        c = classes.table[p][q]
        forbidden = classes.kinds[c] != _Classes.NORMAL
        for b in range(shape.s):
            if forbidden:
                clauses.extend([-a[b][p][g], -a[b][q][g]] for g in range(tables))
                continue
            z = new()
            clauses.extend([-a[b][p][g], -a[b][q][g], z] for g in range(tables))
            by_class.setdefault(c, []).append(z)
    for lits in by_class.values():
        if len(lits) > 1:
            card(lits, 1, "atmost")

    model = _solve(clauses, seconds)
    if model is None:
        return None
    bases: list[Groups] = []
    for b in range(shape.s):
        blocks: Groups = [[] for _ in range(tables)]
        for p in range(n):
            g = next(g for g in range(tables) if a[b][p][g] in model)
            blocks[g].append(p)
        bases.append(blocks)
    return bases


def _solve(clauses: list[list[int]], seconds: float) -> set[int] | None:
    """The true variables of a model, or ``None`` (unsatisfiable, or no answer within ``seconds``).
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
    return None if answer is None else {lit for lit in answer if lit > 0}


def _solve_child(clauses: list[list[int]], send: object) -> None:
    from pysat.solvers import Solver  # type: ignore[import-not-found,unused-ignore]

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        answer = solver.get_model() if solver.solve() else None
    send.send(answer)  # type: ignore[attr-defined]
