"""Offline finder: one base hanchan developed over Z_m, with the leave's shared strangers in the objective.

A cyclic shape ``m, k, 0, 1`` (players ``(x, i)``, x in Z_m, ``k`` types; see
:mod:`tournament.seating.cyclic`) with ``m`` odd: one base hanchan developed into ``m`` hanchan, plus
transversal hanchan (:mod:`.transversal`, four types). Every class of pairs is used at most once, so
nobody meets twice, and the classes left unused are the *leave*: who never meets. Two strangers share as
opponents everyone but their own strangers (:mod:`.leave`), so the worst strangers' common opponents are
decided by the leave alone, the same for every pair of a class.

The SAT method (:func:`.sat_group.sat_group_rounds` with ``--shared``) asks for both at once and gave no
answer for 44 x 12 over Z_11 x 4 in 1,200 s, nor for the two best leaves prescribed (60 s each). A
repeat-free base hanchan is within reach of a local search; one whose leave is good is rare: in four runs of
44 x 12 (every two strangers sharing a stranger) one of 403 arrivals at a repeat-free state had it.
``develop.c`` anneals the base hanchan and the transversal vectors with excess uses of classes and the
leave's shortfall in one cost, at a constant temperature, so that it keeps crossing from one
repeat-free base hanchan to another, each with its own leave: about five million moves a second, and
for 44 x 12 with seed 1 the goal after a thousand million (209 s).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

from tournament.seating.cyclic import Classes, CyclicShape, Groups, develop

from .native import load_compiled
from .transversal import transversal_hanchan

SOURCE = Path(__file__).with_name("develop.c")
#: The C file's limits (``MAXN``, ``MAXT``).
MAX_PLAYERS = 256
MAX_TRANSVERSAL = 8


@dataclass(frozen=True)
class Developed:
    """What a run returns: ``rounds`` (the base hanchan's development, then the transversal hanchan)
    meet the goal if ``reached``; otherwise they are the last state's, which may repeat meetings.
    ``free`` counts the arrivals at repeat-free states, ``best_shortfall`` is the least shortfall of
    the leave among them (-1: none was reached) and ``best_shared`` that state's fewest shared
    strangers."""

    reached: bool
    rounds: list[Groups]
    steps: int
    free: int
    best_shortfall: int
    best_shared: int


def _library() -> ctypes.CDLL:
    library = load_compiled(SOURCE)
    library.develop.restype = ctypes.c_int
    library.develop.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_ulonglong,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_longlong),
    ]
    library.develop_selfcheck.restype = ctypes.c_int
    library.develop_selfcheck.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_ulonglong,
    ]
    return library


def _class_table(shape: CyclicShape, transversal: int) -> tuple[ctypes.Array[ctypes.c_int], int]:
    """The class of every pair, flattened for the C file, and the number of classes."""
    if shape.f or shape.s != 1 or shape.m % 2 == 0 or shape.m < 3:
        raise ValueError(f"one base hanchan over an odd Z_m without fixed players (m,k,0,1), not {shape}")
    n = shape.n
    if n % 4 or n > MAX_PLAYERS:
        raise ValueError(f"{n} players: a multiple of 4 up to {MAX_PLAYERS}")
    if transversal and shape.k != 4:
        raise ValueError("transversal hanchan need four types")
    if not 0 <= transversal <= MAX_TRANSVERSAL:
        raise ValueError(f"0 to {MAX_TRANSVERSAL} transversal hanchan, not {transversal}")
    classes = Classes(shape)
    flat = [max(c, 0) for row in classes.table for c in row]
    return (ctypes.c_int * len(flat))(*flat), len(classes.kinds)


def develop_native(
    shape: CyclicShape,
    transversal: int,
    seed: int,
    seconds: float,
    *,
    shared: int,
    at_most: int | None = None,
    weight: int = 3,
    temperature: float = 1.0,
) -> Developed:
    """Anneal for at most ``seconds`` towards a repeat-free development whose every two strangers share
    at least ``shared`` strangers, with at most ``at_most`` classes (of ``m`` pairs each) at exactly
    ``shared``; ``weight`` is the cost of a class used twice, against 1 per shared stranger missing."""
    table, count = _class_table(shape, transversal)
    tables = shape.n // 4
    base = (ctypes.c_int * shape.n)()
    vectors = (ctypes.c_int * max(1, 4 * transversal))()
    stats = (ctypes.c_longlong * 4)()
    reached = _library().develop(
        shape.n,
        shape.m,
        table,
        count,
        transversal,
        shared,
        -1 if at_most is None else at_most,
        weight,
        temperature,
        seconds,
        seed,
        base,
        vectors,
        stats,
    )
    if reached < 0:
        raise ValueError(f"the compiled development search refused {shape}")
    blocks = [list(base[t * 4 : t * 4 + 4]) for t in range(tables)]
    rounds = develop(shape, [blocks], shape.m)
    rounds += [transversal_hanchan(shape, list(vectors[h * 4 : h * 4 + 4])) for h in range(transversal)]
    return Developed(bool(reached), rounds, int(stats[0]), int(stats[1]), int(stats[2]), int(stats[3]))


def self_check(shape: CyclicShape, transversal: int, moves: int, seed: int) -> int:
    """0 when the class counts ``develop.c`` keeps up to date equal a fresh count after ``moves``
    random moves, each kept or undone."""
    table, count = _class_table(shape, transversal)
    return int(_library().develop_selfcheck(shape.n, shape.m, table, count, transversal, moves, seed))
