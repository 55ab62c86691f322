"""The compiled annealing (``anneal.c`` beside this file), for the offline finder's long runs.

``anneal_native`` takes the arguments of :func:`.anneal.anneal_tables` and searches the same objective
with the same moves, plus chains of two or three exchanges in one hanchan and an exchange of two players
in every hanchan from one on, about a hundred times faster. The C file is compiled on first use with
the machine's C compiler (``$CC``, else ``cc``) into ``$XDG_CACHE_HOME/seatinglab`` (else
``~/.cache/seatinglab``), named by the hash of its source; without a compiler the finder says so.
The generator never uses it: its answers ship as data (``tournament/seating/data/exact.json``).
:func:`load_compiled` builds ``develop.c`` (:mod:`.develop`) the same way.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tournament.seating.cyclic import Groups

SOURCE = Path(__file__).with_name("anneal.c")
#: The C file's limits (``MAXN``, ``MAXR``).
MAX_PLAYERS = 256
MAX_ROUNDS = 32


class NoCompiler(RuntimeError):
    """No C compiler to build ``anneal.c`` (or ``develop.c``) with."""


@dataclass(frozen=True)
class Outcome:
    """What a run returns: ``rounds`` is the goal if ``reached``, else the best schedule free of hard
    costs it saw (``None`` if none), with ``below`` strangers under the level and ``at_level`` at it."""

    reached: bool
    rounds: list[Groups] | None
    steps: int
    below: int
    at_level: int
    #: The last state's excess meetings, table repeats and consecutive tables, and accepted moves.
    last: tuple[int, int, int, int] = (0, 0, 0, 0)


def load_compiled(source_path: Path) -> ctypes.CDLL:
    """The C file ``source_path`` compiled into the cache (once per version of its source and of the
    headers beside it, ``search.h``), loaded."""
    source = source_path.read_bytes()
    for header in sorted(source_path.parent.glob("*.h")):
        source += header.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "seatinglab"
    target = cache / f"{source_path.stem}-{digest}.so"
    if not target.exists():
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
        if not compiler:
            raise NoCompiler(f"{source_path.name} needs a C compiler (cc or $CC); none was found")
        cache.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", "-o", str(partial), str(source_path), "-lm"],
            check=True,
            capture_output=True,
        )
        partial.replace(target)
    return ctypes.CDLL(str(target))


def _library() -> ctypes.CDLL:
    library = load_compiled(SOURCE)
    library.anneal.restype = ctypes.c_int
    library.anneal.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_long,
        ctypes.c_long,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.c_long,
        ctypes.c_int,
        ctypes.c_double,
        ctypes.c_longlong,
        ctypes.c_ulonglong,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.c_double,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_longlong),
    ]
    library.tabu.restype = ctypes.c_int
    library.tabu.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_long,
        ctypes.c_long,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.c_long,
        ctypes.c_long,
        ctypes.c_double,
        ctypes.c_ulonglong,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_longlong),
    ]
    library.anneal_selfcheck.restype = ctypes.c_int
    library.anneal_selfcheck.argtypes = [
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.c_ulonglong,
        ctypes.c_int,
    ]
    return library


def _flat(n: int, start: Sequence[Groups]) -> ctypes.Array[ctypes.c_int]:
    rounds = len(start)
    if n % 4 or not 8 <= n <= MAX_PLAYERS or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(
            f"the compiled annealing takes 8 to {MAX_PLAYERS} players (a multiple of 4) and 1 to "
            f"{MAX_ROUNDS} hanchan, not {n} x {rounds}"
        )
    flat = [p for hanchan in start for group in hanchan for p in group]
    if len(flat) != rounds * n or sorted(flat) != sorted(list(range(n)) * rounds):
        raise ValueError("every hanchan must seat every player once, four to a table")
    return (ctypes.c_int * len(flat))(*flat)


def _outcome(
    search: str,
    n: int,
    rounds: int,
    reached: int,
    found: ctypes.c_int,
    buffer: ctypes.Array[ctypes.c_int],
    stats: ctypes.Array[ctypes.c_longlong],
) -> Outcome:
    """What a run of the C core filled in, read back (``reached`` < 0: it refused the size)."""
    if reached < 0:
        raise ValueError(f"the compiled {search} refused {n} x {rounds}")
    tables = n // 4
    result = None
    if found.value:
        values = list(buffer)
        result = [
            [values[(h * tables + t) * 4 : (h * tables + t) * 4 + 4] for t in range(tables)]
            for h in range(rounds)
        ]
    return Outcome(
        bool(reached),
        result,
        int(stats[0]),
        int(stats[2]),
        int(stats[3]),
        (int(stats[4]), int(stats[5]), int(stats[6]), int(stats[1])),
    )


def self_check(n: int, start: Sequence[Groups], moves: int, seed: int, level: int) -> int:
    """How many of the figures the C core keeps up to date differ from a fresh count after ``moves``
    random moves from ``start``, each kept or undone (0: all agree)."""
    return int(_library().anneal_selfcheck(n, len(start), _flat(n, start), moves, seed, level))


def anneal_native(
    n: int,
    start: Sequence[Groups],
    seed: int,
    seconds: float,
    *,
    excess: int,
    table_repeats: int,
    opponents: int,
    at_fewest: int | None = None,
    hard: int = 200,
    adaptive: bool = False,
    hot: float = 60.0,
    cold: float = 1.0,
    cycles: float = 1.0,
    table_share: float = 0.15,
    chain_share: float = 0.25,
    suffix_share: float = 0.02,
    focus_share: float = 0.0,
    steps: int = 0,
) -> Outcome:
    """Anneal from ``start`` for at most ``seconds`` (``cycles`` times from ``hot`` down to ``cold``; with
    ``steps``, over that many steps instead, so that a run is the same on a loaded machine),
    each unit beyond a hard limit costing ``hard`` (with ``adaptive``, only at the start: then more while
    a limit is broken, less while they all hold);
    the shares: how often a move exchanges table numbers, is a chain, an exchange in every hanchan
    from one on, or aimed at a pair of strangers too low (the rest are single exchanges of players)."""
    rounds = len(start)
    buffer = _flat(n, start)
    found = ctypes.c_int(0)
    stats = (ctypes.c_longlong * 8)()
    reached = _library().anneal(
        n,
        rounds,
        buffer,
        excess,
        table_repeats,
        opponents,
        -1 if at_fewest is None else at_fewest,
        hard,
        int(adaptive),
        seconds,
        steps,
        seed,
        hot,
        cold,
        cycles,
        table_share,
        chain_share,
        suffix_share,
        focus_share,
        ctypes.byref(found),
        stats,
    )
    return _outcome("annealing", n, rounds, reached, found, buffer, stats)


def tabu_native(
    n: int,
    start: Sequence[Groups],
    seed: int,
    seconds: float,
    *,
    excess: int,
    table_repeats: int,
    opponents: int,
    at_fewest: int | None = None,
    hard: int = 200,
    slack: int = 0,
    tenure: int = 10,
) -> Outcome:
    """The tabu search of ``anneal.c`` from ``start`` for at most ``seconds``: every iteration takes the
    best exchange of two players that keeps the excess meetings within ``excess``, or of two table
    numbers, a moved player staying put in that hanchan for ``tenure`` to ``2 * tenure`` iterations
    (``slack`` more excess meetings may be crossed, each costing ``hard``, where none keeps within).
    Same goal and outcome as :func:`anneal_native` (``steps`` counts iterations)."""
    rounds = len(start)
    buffer = _flat(n, start)
    found = ctypes.c_int(0)
    stats = (ctypes.c_longlong * 8)()
    reached = _library().tabu(
        n,
        rounds,
        buffer,
        excess,
        table_repeats,
        opponents,
        -1 if at_fewest is None else at_fewest,
        hard,
        slack,
        seconds,
        seed,
        tenure,
        ctypes.byref(found),
        stats,
    )
    return _outcome("tabu search", n, rounds, reached, found, buffer, stats)
