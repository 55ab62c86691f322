"""The seating laboratory's command line: ``python -m seatinglab --players 44 --rounds 14 [--write]``
(see :func:`main`).

Methods: ``search`` (the tabu and depth-first searches of :mod:`tournament.seating.cyclic`, on one shape with
``--shape`` and transversal hanchan), ``sat`` (:func:`.satfind.sat_rounds` on each cyclic shape, or
:func:`.satfind.sat_group_rounds` over an abelian group with ``--group``) and ``tables``
(:func:`.satfind.sat_tables`, whole schedules with their table numbers) and ``anneal``
(:func:`.anneal.anneal_tables`, a whole schedule from the generator's, table repeats and common opponents
in one objective). ``--write`` stores what it found in ``data/cyclic.json``, ``data/tables.json`` or
(used as found) ``data/exact.json``, which the generator reads at run time.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import random
import shlex
import sys
import time
from itertools import combinations
from typing import Any

from tournament.seating.constructions import common_opponent_figures
from tournament.seating.cyclic import (
    BaseSearch,
    Classes,
    CyclicShape,
    Groups,
    candidate_shapes,
    develop,
    find_schedule,
)
from tournament.seating.generator import generate
from tournament.seating.search import Budget, GroupState
from tournament.seating.shipped import data_path, load_data, shipped_exact, without_exact_entry
from tournament.seating.tables import TableSearch

from .affine import affine_start
from .allowance import raise_opponents
from .anneal import COLD, HOT, anneal_tables
from .binary import binary_start
from .develop import develop_native
from .group import GroupAction, PlayerRef
from .leave import apart_pairs, leave_candidates, leave_text
from .matrix import difference_matrix, matrix_schedule
from .native import anneal_native, tabu_native
from .satfind import Unsatisfiable, coverable_classes, sat_group_rounds, sat_rounds, sat_tables
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


def main(argv: list[str] | None = None) -> int:
    """Offline finder: ``python -m seatinglab --players 44 --rounds 14 [--write]``.

    Prints what it found; with ``--write`` stores the hanchan in ``data/cyclic.json`` under the player
    count (an entry is only replaced by one with more hanchan).
    """
    parser = argparse.ArgumentParser(prog="python -m seatinglab")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--effort", type=int, default=2_000_000)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument(
        "--method",
        choices=["search", "sat", "tables", "anneal", "opponents", "matrix"],
        default="search",
        help="search: the generator's own finder (tabu); sat: a SAT solver on each cyclic shape in turn "
        "(needs python-sat, a development dependency); tables: a SAT solver on the whole schedule, "
        "table numbers included, for small fields (data/tables.json); anneal: simulated annealing on "
        "the whole schedule from the generator's; opponents: the generator's common-opponent search on its "
        "own schedule, allowed up to --table-repeats table repeats; both used as found (data/exact.json); "
        "matrix: a transversal design with its table numbers from a difference matrix over Z_(N/4), "
        "N/4 hanchan (seatinglab/matrix.py), used as found",
    )
    parser.add_argument(
        "--table-repeats", type=int, default=0, help="tables: at most this many table repeats"
    )
    parser.add_argument("--excess", type=int, default=0, help="tables: at most this many excess meetings")
    parser.add_argument(
        "--opponents",
        type=int,
        default=0,
        help="tables: at least this many common opponents for pairs who never meet",
    )
    parser.add_argument(
        "--at-fewest",
        type=int,
        default=None,
        help="tables: at most this many pairs who never meet with exactly --opponents common opponents",
    )
    parser.add_argument(
        "--hot",
        type=float,
        default=HOT,
        help="anneal: the temperature at the start (see seatinglab/anneal.py)",
    )
    parser.add_argument("--cold", type=float, default=COLD, help="anneal: the temperature at the end")
    parser.add_argument(
        "--engine",
        choices=["python", "c"],
        default="python",
        help="anneal: python (seatinglab/anneal.py) or c, the compiled core with chains of exchanges "
        "(seatinglab/anneal.c, built with the machine's C compiler on first use; see seatinglab/native.py)",
    )
    parser.add_argument(
        "--cycles",
        type=float,
        default=1.0,
        help="anneal --engine c: cool from --hot to --cold this many times",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=0,
        help="anneal --engine c: cool over this many steps instead of the time limit (the same run on any"
        " machine; the time limit still caps it)",
    )
    parser.add_argument(
        "--chains", type=float, default=0.25, help="anneal --engine c: the share of moves that are chains"
    )
    parser.add_argument(
        "--start",
        choices=["generator", "affine", "binary", "random", "group", "drop", "develop"],
        default="generator",
        help="anneal: start from the generator's schedule, from AG(3, 4) on the best directions (64 "
        "players, seatinglab/affine.py) or from planes of GF(2)^k (a power of two of players, "
        "seatinglab/binary.py, --spread-steps), with random table numbers, from random hanchan, from "
        "the first --rounds hanchan of the SAT method over --group (with --apart, a prescribed leave), "
        "from --rounds of the generator's --from-rounds hanchan (--keep), or from one base hanchan over "
        "--shape m,k,0,1 developed m times plus --transversal hanchan, annealed with the leave's shared "
        "strangers in the objective (seatinglab/develop.c: --hard per class used twice, --hot the "
        "temperature)",
    )
    parser.add_argument(
        "--tables",
        choices=["anneal", "generator"],
        default="anneal",
        help="--start group, drop or develop: table numbers by the annealing (only table numbers move) "
        "or by the generator's table search (tables.TableSearch: nobody above ceil(R/T) visits to a "
        "table), the best of --attempts seeds",
    )
    parser.add_argument("--attempts", type=int, default=10, help="--tables generator: seeds tried")
    parser.add_argument(
        "--from-rounds", type=int, default=0, help="--start drop: the longer schedule's hanchan count"
    )
    parser.add_argument(
        "--from-exact",
        action="store_true",
        help="--start drop: the longer schedule is the exact entry for that size (data/exact.json)",
    )
    parser.add_argument(
        "--keep",
        default="best",
        help="--start drop: the hanchan kept (numbers from 0, separated by ','), or 'best': of every "
        "choice, the one whose worst strangers have the most common opponents, then the fewest pairs "
        "that low (the first such in order)",
    )
    parser.add_argument(
        "--spread-steps",
        type=int,
        default=100_000,
        help="--start binary: annealing steps over the choice of planes",
    )
    parser.add_argument(
        "--table-moves",
        type=float,
        default=0.15,
        help="anneal --engine c: the share of moves that exchange the table numbers of two groups",
    )
    parser.add_argument(
        "--tabu-seconds",
        type=float,
        default=0.0,
        help="anneal --engine c: if the annealing stops short, a tabu search from its best state for this "
        "long (seatinglab/anneal.c, every exchange tried each iteration)",
    )
    parser.add_argument(
        "--tenure", type=int, default=10, help="--tabu-seconds: iterations a moved player stays"
    )
    parser.add_argument(
        "--slack", type=int, default=0, help="--tabu-seconds: excess meetings the tabu search may cross"
    )
    parser.add_argument(
        "--adaptive",
        action="store_true",
        help="anneal --engine c: --hard rises while a hard limit is broken and falls while they hold",
    )
    parser.add_argument(
        "--focus",
        type=float,
        default=0.0,
        help="anneal --engine c: the share of moves aimed at a pair of strangers at or below --opponents",
    )
    parser.add_argument(
        "--hard",
        type=int,
        default=200,
        help="anneal --engine c: the cost of each unit beyond a hard limit (lower: the search crosses "
        "them more easily)",
    )
    parser.add_argument("--shape", help="only this cyclic shape, as m,k,f,s (see CyclicShape)")
    parser.add_argument(
        "--transversal", type=int, default=0, help="this many transversal hanchan more (with --shape m,4,0,1)"
    )
    parser.add_argument(
        "--orbits",
        default="",
        help="sat: h,h,...: for each h (a divisor of m) m/h hanchan more, developed from a hanchan that "
        "translation by the subgroup of order h maps to itself (see satfind.sat_rounds)",
    )
    parser.add_argument(
        "--free", type=int, default=0, help="sat: this many hanchan more without any symmetry"
    )
    parser.add_argument(
        "--group",
        help="sat: o1,o2,...: the abelian group Z_o1 x Z_o2 x ... instead of a cyclic shape, with "
        "--types, --fixed and --stabilisers (see satfind.sat_group_rounds)",
    )
    parser.add_argument("--types", type=int, default=1, help="--group: orbits of |G| players")
    parser.add_argument("--fixed", type=int, default=0, help="--group: fixed players")
    parser.add_argument(
        "--multiplier",
        default="",
        help="--group: u,t: every developed hanchan is also fixed by (g, i) -> (u g, i + t) (see "
        "satfind.sat_group_rounds)",
    )
    parser.add_argument(
        "--short",
        default="",
        help="--group: short orbits separated by ';', each the generators of a subgroup K as in "
        "--stabilisers: one player per coset of K",
    )
    parser.add_argument(
        "--stabilisers",
        default="",
        help="--group: one subgroup per developed hanchan, separated by ';': '*' for the whole group, "
        "else its generators separated by ',', each with its coordinates separated by '.' (empty: the "
        "trivial subgroup)",
    )
    parser.add_argument(
        "--apart",
        default="",
        help="--group: pairs who never meet, with their whole classes (the leave), separated by ';', "
        "each two players joined by '-': 'i:g' is (g, i) with g's coordinates separated by '.', 'sj:g' "
        "the player of g's coset in short orbit j, 'fj' fixed player j (see satfind.sat_group_rounds); "
        "'search': the best leaves that reach --opponents and --at-fewest, tried in turn (see leave.py)",
    )
    parser.add_argument(
        "--shared",
        type=int,
        default=0,
        help="--group: every two players who never meet share at least this many players who meet "
        "neither, the solver choosing who never meets (see satfind.sat_group_rounds)",
    )
    parser.add_argument(
        "--shared-fewest",
        type=int,
        default=None,
        help="--shared: at most this many pairs who never meet share only --shared players",
    )
    parser.add_argument(
        "--leave-seconds", type=float, default=30.0, help="--apart search: seconds spent choosing leaves"
    )
    parser.add_argument("--leave-tries", type=int, default=5, help="--apart search: leaves tried at most")
    parser.add_argument(
        "--groups",
        type=int,
        default=0,
        help="sat: a resolvable group divisible design with groups of this size (see satfind.sat_rounds)",
    )
    parser.add_argument("--write", action="store_true")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="tables --write: store an exact entry, used as found, in data/exact.json (anneal and opponents "
        "always do)",
    )
    parser.add_argument(
        "--size-key",
        action="store_true",
        help="--write: store under players x hanchan (that size alone) rather than under the player count",
    )
    args = parser.parse_args(argv)
    start = time.monotonic()
    deadline = start + args.seconds if args.seconds else None
    rng = random.Random(args.seed)
    if args.method == "tables":
        return _find_tables(args, argv)
    if args.method == "matrix":
        return _find_matrix(args, argv)
    if args.method in ("anneal", "opponents"):
        return _anneal(args, argv)
    if args.group:
        found = _sat_group(args, rng)
    elif args.method == "sat":
        found = _sat_schedule(
            args.players,
            args.rounds,
            rng,
            args.shape,
            args.transversal,
            args.groups,
            args.seconds or 600.0,
            tuple(int(h) for h in args.orbits.split(",") if h),
            args.free,
        )
    elif args.shape:
        found = _search_shape(
            _parse_shape(args.shape, args.players), args.transversal, rng, args.effort, deadline
        )
    else:
        found = find_schedule(args.players, args.rounds, rng, args.effort, deadline)
    if found is None:
        print(f"nothing repeat-free found for {args.players} x {args.rounds}", file=sys.stderr)
        return 1
    method, rounds = found
    print(f"{args.players} players: {len(rounds)} hanchan ({method}) in {time.monotonic() - start:.1f} s")
    if args.write:
        data = load_data()
        # Keyed by the player count (any hanchan count up to the entry's), or with --size-key by the
        # size alone, which the generator prefers for that size (shipped.shipped_schedule).
        key = f"{args.players}x{args.rounds}" if args.size_key else str(args.players)
        old = data.get(key)
        if old is None or len(old["rounds"]) < len(rounds):
            data[key] = {"method": method, "command": _command(argv), "rounds": rounds}
            _write_data("cyclic.json", data)
    return 0


def _sat_group(args: argparse.Namespace, rng: random.Random) -> tuple[str, list[Groups]] | None:
    """The SAT method over a non-cyclic abelian group (``satfind.sat_group_rounds``)."""
    orders = tuple(int(o) for o in args.group.split(","))
    stabilisers = [None if text == "*" else _generators(text) for text in args.stabilisers.split(";")]
    short = [_generators(text) for text in args.short.split(";") if text]
    multiplier = None
    if args.multiplier:
        u, t = (int(v) for v in args.multiplier.split(","))
        multiplier = (u, t)
    name = " x ".join(f"Z_{o}" for o in orders)
    if args.apart == "search":
        leaves = _search_leaves(args, orders, stabilisers, short, rng)
    else:
        leaves = [[_apart_pair(text) for text in args.apart.split(";") if text]]
    for apart in leaves:
        began = time.monotonic()
        try:
            found = sat_group_rounds(
                orders,
                args.types,
                args.fixed,
                stabilisers,
                rng,
                args.seconds or 600.0,
                short,
                multiplier,
                apart,
                args.shared,
                args.shared_fewest,
            )
            verdict = "no answer" if found is None else "found"
        except Unsatisfiable:
            found, verdict = None, "proved impossible"
        print(
            f"  {name}, {args.types} types + {args.fixed} fixed: {verdict} in "
            f"{time.monotonic() - began:.1f} s",
            file=sys.stderr,
        )
        if found is not None:
            return f"group {name} k={args.types} f={args.fixed} (sat)", found
    return None


def _search_leaves(
    args: argparse.Namespace,
    orders: tuple[int, ...],
    stabilisers: list[list[tuple[int, ...]] | None],
    short: list[list[tuple[int, ...]]],
    rng: random.Random,
) -> list[list[tuple[PlayerRef, PlayerRef]]]:
    """``--apart search``: the leaves that G maps to itself which reach ``--opponents`` (with at most
    ``--at-fewest`` pairs there), best first, for the SAT search to try one after another."""
    action = GroupAction(orders, args.types, args.fixed, short)
    strangers = action.n - 1 - 3 * args.rounds
    stop = coverable_classes(action, stabilisers)
    forced = {c for c in action.pairs_in if c not in stop}
    leaves = leave_candidates(action, args.rounds, forced, rng, args.leave_seconds, args.leave_tries)
    chosen = []
    for leave in leaves:
        low = action.n - 2 * strangers + leave.shared
        print(
            f"  leave: worst strangers {low} common opponents ({leave.at_fewest} pairs): "
            f"--apart '{leave_text(action, leave)}'",
            file=sys.stderr,
        )
        if not _short_of_goal(low, leave.at_fewest, args):
            chosen.append(apart_pairs(action, leave))
    return chosen


def _apart_pair(text: str) -> tuple[PlayerRef, PlayerRef]:
    """Two players who never meet, written ``0:0.1-fj``: see ``--apart``."""
    first, second = text.split("-")
    return _player_ref(first), _player_ref(second)


def _player_ref(text: str) -> PlayerRef:
    if text.startswith("f"):
        return ("fixed", int(text[1:]), ())
    head, element = text.split(":")
    coordinates = tuple(int(c) for c in element.split("."))
    if head.startswith("s"):
        return ("short", int(head[1:]), coordinates)
    return ("type", int(head), coordinates)


def _generators(text: str) -> list[tuple[int, ...]]:
    """Group elements written ``1.0.0,0.0.1`` (coordinates separated by dots, elements by commas)."""
    return [tuple(int(c) for c in g.split(".")) for g in text.split(",") if g]


def _command(argv: list[str] | None) -> str:
    given = argv if argv is not None else sys.argv[1:]
    return shlex.join(["python", "-m", "seatinglab", *given])


def _find_tables(args: argparse.Namespace, argv: list[str] | None) -> int:
    """The whole-schedule SAT method (``satfind.sat_tables``); ``--write`` keeps the entry with the
    fewest (excess meetings, table repeats) for the size."""
    start = time.monotonic()
    rng = random.Random(args.seed)
    verdict = "none found in"
    try:
        rounds = sat_tables(
            args.players,
            args.rounds,
            args.table_repeats,
            rng,
            args.seconds or 600.0,
            excess=args.excess,
            opponents=args.opponents,
            at_fewest=args.at_fewest,
        )
    except Unsatisfiable:
        rounds, verdict = None, "none exists, proved in"
    took = time.monotonic() - start
    if rounds is None:
        print(
            f"no {args.players} x {args.rounds} schedule with at most {args.excess} excess meetings, "
            f"{args.table_repeats} table repeats and at least {args.opponents} common opponents for "
            f"strangers{_at_fewest_text(args.at_fewest)}: {verdict} {took:.1f} s",
            file=sys.stderr,
        )
        return 1
    figures = _figures(rounds, args.players)
    print(f"{args.players} x {args.rounds}: {figures} in {took:.1f} s")
    if args.write and args.exact:
        _write_exact("sat tables", args.players, args.rounds, figures, rounds, argv)
    elif args.write:
        data = load_data("tables.json")
        key = f"{args.players}x{args.rounds}"
        old = data.get(key)
        if old is None or _rank(old) > _rank(figures):
            data[key] = {"method": "sat tables", "command": _command(argv), **figures, "rounds": rounds}
            _write_data("tables.json", data)
    return 0


def _find_matrix(args: argparse.Namespace, argv: list[str] | None) -> int:
    """A transversal design from a difference matrix over Z_m (``matrix.difference_matrix``), for
    ``4m`` players and ``m`` hanchan; ``--write`` stores it as an exact entry."""
    start = time.monotonic()
    m = args.players // 4
    if args.players != 4 * m or args.rounds != m:
        raise SystemExit("--method matrix: N players and N/4 hanchan")
    verdict = "none found in"
    try:
        rows = difference_matrix(m, random.Random(args.seed), args.seconds or 600.0)
    except Unsatisfiable:
        rows, verdict = None, "none exists, proved in"
    took = time.monotonic() - start
    if rows is None:
        print(f"no ({m}, 5, 1) difference matrix over Z_{m}: {verdict} {took:.1f} s", file=sys.stderr)
        return 1
    rounds = matrix_schedule(rows, m)
    figures = _figures(rounds, args.players)
    print(f"{args.players} x {args.rounds}: {figures} in {took:.1f} s (matrix rows {rows})")
    if args.write:
        _write_exact("difference matrix", args.players, args.rounds, figures, rounds, argv)
    return 0


def _write_exact(
    method: str, n: int, rounds: int, figures: dict[str, int], found: list[Groups], argv: list[str] | None
) -> None:
    """Stores ``found`` in ``data/exact.json`` (used as found) when it is at least as good as the entry
    there on every figure and better on one (a trade of one figure for another keeps the entry)."""
    # Several finders may run at once, one size each: one writes at a time.
    with open(str(data_path("exact.json")), "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = load_data("exact.json")
        key = f"{n}x{rounds}"
        old = data.get(key)
        if old is None or (_as_good_everywhere(figures, old) and not _as_good_everywhere(old, figures)):
            data[key] = {"method": method, "command": _command(argv), **figures, "rounds": found}
            _write_data("exact.json", data)


def generator_start(n: int, rounds: int, seed: int) -> list[Groups]:
    """The generator's schedule for ``seed`` (players ``0..n-1``) as it is without this size's entry in
    ``data/exact.json``: where the finders start, so that a shipped command finds what it found."""
    with without_exact_entry(n, rounds):
        schedule = generate(n, rounds, seed=seed)
    return [[[int(p) - 1 for p in table] for table in hanchan] for hanchan in schedule.rounds]


def best_kept(design: list[Groups], n: int, rounds: int) -> tuple[int, ...]:
    """The ``rounds`` hanchan of ``design`` (their numbers) whose worst strangers have the most common
    opponents, then the fewest pairs that low; the first such in lexicographic order. A design where
    everyone meets everyone once (40 x 13, 52 x 17) loses three hanchan for 40 x 10: the strangers are
    the table-mates of those three, and which three decides how many strangers share only the two
    others of their table (57 pairs at 24 common opponents against 108 for the first ten)."""
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for keep in combinations(range(len(design)), rounds):
        low, at_low, _ = common_opponent_figures([design[i] for i in keep], n)
        rank = (-low, at_low)
        if best is None or rank < best[0]:
            best = (rank, keep)
    if best is None:
        raise ValueError(f"the design holds fewer than {rounds} hanchan")
    return best[1]


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",") if v)


def generator_tables(n: int, found: list[Groups], seed: int, attempts: int) -> list[Groups]:
    """Table numbers for the hanchan ``found`` (groups kept) by the generator's own table search, which
    keeps every player within ``ceil(R/T)`` visits to a table and off the table of the hanchan before;
    the fewest table repeats of ``attempts`` seeds from ``seed`` on. Where every pair outside the leave
    meets once, no exchange of players keeps the groups repeat-free, so only table numbers move."""
    tables = n // 4
    best: list[Groups] | None = None
    for attempt in range(seed, seed + attempts):
        state = GroupState(n, found, [bytearray(n) for _ in range(n)], [None] * len(found))
        search = TableSearch(
            state, tables, [[0] * tables for _ in range(n)], [-1] * n, random.Random(attempt)
        )
        search.start()
        search.run(Budget(2_000_000, time.monotonic() + 60))
        rounds = [[list(group) for group in hanchan] for hanchan in state.rounds]
        if _excess(rounds, n) == _excess(found, n) and (
            best is None or _table_repeats(rounds, n) < _table_repeats(best, n)
        ):
            best = rounds
    return best if best is not None else found


def _anneal(args: argparse.Namespace, argv: list[str] | None) -> int:
    """The whole-schedule annealing (``anneal.anneal_tables``) from the generator's schedule for
    ``--seed``; ``--write`` stores it as an exact entry (used as found) unless the entry there is at
    least as good on every figure."""
    start = time.monotonic()
    n = args.players
    rng = random.Random(args.seed)
    if args.start == "affine":
        if n != 64:
            raise SystemExit("--start affine: 64 players only (AG(3, 4))")
        first = affine_start(args.rounds, random.Random(args.seed))
    elif args.start == "binary":
        try:
            first = binary_start(n, args.rounds, random.Random(args.seed), args.spread_steps)
        except ValueError as error:
            raise SystemExit(str(error)) from None
    elif args.start == "group":
        if not args.group:
            raise SystemExit("--start group needs --group (see --method sat)")
        found = _sat_group(args, rng)
        if found is None:
            print(f"nothing repeat-free found for {n} x {args.rounds}", file=sys.stderr)
            return 1
        # The first --rounds of them: a design one hanchan longer, cut short, keeps its leave plus the
        # tables of the hanchan left out (36 x 10 from 36 x 11).
        first = found[1][: args.rounds]
        if len(first) < args.rounds:
            raise SystemExit(f"--stabilisers develop into {len(found[1])} hanchan, fewer than {args.rounds}")
    elif args.start == "drop":
        if args.from_rounds <= args.rounds:
            raise SystemExit("--start drop needs --from-rounds above --rounds")
        if args.from_exact:
            shipped = shipped_exact(n, args.from_rounds)
            if shipped is None:
                raise SystemExit(f"no exact entry for {n} x {args.from_rounds}")
            design = shipped
        else:
            design = generator_start(n, args.from_rounds, args.seed)
        keep = best_kept(design, n, args.rounds) if args.keep == "best" else _numbers(args.keep)
        print(f"kept hanchan {','.join(map(str, keep))} of {args.from_rounds}", file=sys.stderr)
        first = [design[i] for i in keep]
    elif args.start == "develop":
        developed = _developed(args)
        if developed is None:
            print(f"no development reached the goal for {n} x {args.rounds}", file=sys.stderr)
            return 1
        first = developed
    elif args.start == "random":
        shuffle = random.Random(args.seed)
        first = []
        for _ in range(args.rounds):
            order = shuffle.sample(range(n), n)
            first.append([order[i : i + 4] for i in range(0, n, 4)])
    else:
        first = generator_start(n, args.rounds, args.seed)
    seconds = args.seconds or 600.0
    rounds: list[Groups] | None
    if args.start in ("group", "drop", "develop") and args.tables == "generator":
        rounds = generator_tables(n, first, args.seed, args.attempts)
        low, at_low, _ = common_opponent_figures(rounds, n)
        if _short_of_goal(low, at_low, args) or _table_repeats(rounds, n) > args.table_repeats:
            rounds = None
    elif args.method == "opponents":
        rounds = raise_opponents(n, first, args.table_repeats, rng, args.effort, start + seconds)
        low, at_low, _ = common_opponent_figures(rounds, n)
        print(
            f"reached {_table_repeats(rounds, n)} table repeats, worst strangers {low} ({at_low})",
            file=sys.stderr,
        )
        if _short_of_goal(low, at_low, args):
            rounds = None
    elif args.engine == "c":
        outcome = anneal_native(
            n,
            first,
            args.seed,
            seconds,
            excess=args.excess,
            table_repeats=args.table_repeats,
            opponents=args.opponents,
            at_fewest=args.at_fewest,
            hard=args.hard,
            adaptive=args.adaptive,
            hot=args.hot,
            cold=args.cold,
            cycles=args.cycles,
            table_share=args.table_moves,
            chain_share=args.chains,
            focus_share=args.focus,
            steps=args.steps,
        )
        print(
            f"{outcome.steps} steps; best free of hard costs: {outcome.below} strangers below "
            f"{args.opponents} common opponents, {outcome.at_level} at it",
            file=sys.stderr,
        )
        if not outcome.reached and args.tabu_seconds > 0:
            outcome = tabu_native(
                n,
                outcome.rounds or first,
                args.seed,
                args.tabu_seconds,
                excess=args.excess,
                table_repeats=args.table_repeats,
                opponents=args.opponents,
                at_fewest=args.at_fewest,
                hard=args.hard,
                slack=args.slack,
                tenure=args.tenure,
            )
            print(
                f"tabu: {outcome.steps} iterations; best free of hard costs: {outcome.below} strangers "
                f"below {args.opponents} common opponents, {outcome.at_level} at it",
                file=sys.stderr,
            )
        rounds = outcome.rounds if outcome.reached else None
    else:
        rounds = anneal_tables(
            n,
            first,
            rng,
            seconds,
            excess=args.excess,
            table_repeats=args.table_repeats,
            opponents=args.opponents,
            at_fewest=args.at_fewest,
            report=lambda line: print(line, file=sys.stderr, flush=True),
            hot=args.hot,
            cold=args.cold,
        )
    took = time.monotonic() - start
    if rounds is None:
        print(
            f"no {n} x {args.rounds} schedule with at most {args.excess} excess meetings, "
            f"{args.table_repeats} table repeats and at least {args.opponents} common opponents for "
            f"strangers{_at_fewest_text(args.at_fewest)}: none found in {took:.1f} s",
            file=sys.stderr,
        )
        return 1
    figures = _figures(rounds, n)
    print(f"{n} x {args.rounds}: {figures} in {took:.1f} s")
    if args.write:
        _write_exact(args.method, n, args.rounds, figures, rounds, argv)
    return 0


def _developed(args: argparse.Namespace) -> list[Groups] | None:
    """``--start develop``: a repeat-free development of one base hanchan over ``--shape`` plus
    ``--transversal`` hanchan whose worst strangers reach ``--opponents`` (``seatinglab/develop.c``)."""
    if not args.shape:
        raise SystemExit("--start develop needs --shape m,k,0,1")
    shape = _parse_shape(args.shape, args.players)
    if shape.m + args.transversal != args.rounds:
        raise SystemExit(
            f"--shape {args.shape} and --transversal {args.transversal} make "
            f"{shape.m + args.transversal} hanchan, not {args.rounds}"
        )
    # Two strangers share N - 2s + c common opponents, s strangers each and c strangers in common.
    strangers = args.players - 1 - 3 * args.rounds
    shared = args.opponents - (args.players - 2 * strangers)
    try:
        outcome = develop_native(
            shape,
            args.transversal,
            args.seed,
            args.seconds or 600.0,
            shared=shared,
            at_most=None if args.at_fewest is None else args.at_fewest // shape.m,
            weight=args.hard,
            temperature=args.hot,
        )
    except ValueError as error:
        raise SystemExit(str(error)) from None
    print(
        f"{outcome.steps} moves, {outcome.free} arrivals at repeat-free states, the best leave "
        f"{outcome.best_shortfall} short ({outcome.best_shared} shared strangers at fewest)",
        file=sys.stderr,
    )
    return outcome.rounds if outcome.reached else None


def _short_of_goal(low: int, at_low: int, args: argparse.Namespace) -> bool:
    """Whether the worst strangers (``low`` common opponents, ``at_low`` pairs that low) fall short of
    ``--opponents`` (with at most ``--at-fewest`` pairs at exactly that many)."""
    return (low, -at_low) < (args.opponents, -(at_low if args.at_fewest is None else args.at_fewest))


def _as_good_everywhere(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether ``old`` has no figure worse than ``new``: excess meetings, table repeats, then the worst
    strangers (the fewest common opponents, then how many have so few)."""
    return (
        old["excess"] <= new["excess"]
        and old["table_repeats"] <= new["table_repeats"]
        and (-old["opponents"], old["at_fewest"]) <= (-new["opponents"], new["at_fewest"])
    )


def _at_fewest_text(at_fewest: int | None) -> str:
    return "" if at_fewest is None else f" (at most {at_fewest} with exactly that many)"


def _rank(figures: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """Criteria in order: excess meetings, table repeats, then the most common opponents for the
    worst stranger, the fewest strangers that low, the fewest below ``floor(sqrt(N))``."""
    return (
        figures["excess"],
        figures["table_repeats"],
        -figures.get("opponents", 0),
        figures.get("at_fewest", 1 << 30),
        figures.get("below_bar", 1 << 30),
    )


def _figures(rounds: list[Groups], n: int) -> dict[str, int]:
    """What an entry stores and ``--write`` compares: excess meetings, table repeats, then
    :func:`_opponent_figures`."""
    return {
        "excess": _excess(rounds, n),
        "table_repeats": _table_repeats(rounds, n),
        **_opponent_figures(rounds, n),
    }


def _opponent_figures(rounds: list[Groups], n: int) -> dict[str, int]:
    """``opponents``: the fewest common opponents of two players who never meet (0 if every pair
    meets); ``at_fewest``: how many such pairs have that few; ``below_bar``: how many have fewer than
    ``floor(sqrt(N))`` (counted from 5 hanchan on, as the organisers' tool does)."""
    low, at_low, below = common_opponent_figures(rounds, n, len(rounds) > 4)
    return {"opponents": low if at_low else 0, "at_fewest": at_low, "below_bar": below}


def _excess(rounds: list[Groups], n: int) -> int:
    met: dict[tuple[int, int], int] = {}
    for hanchan in rounds:
        for group in hanchan:
            for a in group:
                for b in group:
                    if a < b:
                        met[a, b] = met.get((a, b), 0) + 1
    return sum(c - 1 for c in met.values())


def _table_repeats(rounds: list[Groups], n: int) -> int:
    visits = [[0] * len(rounds[0]) for _ in range(n)]
    for hanchan in rounds:
        for t, group in enumerate(hanchan):
            for p in group:
                visits[p][t] += 1
    return sum(c - 1 for row in visits for c in row if c > 1)


def _write_data(name: str, data: dict[str, Any]) -> None:
    """One entry per line, in the order of the keys' numbers."""
    ordered = sorted(data.items(), key=lambda kv: tuple(int(v) for v in kv[0].split("x")))
    lines = [f'"{key}": {json.dumps(entry, separators=(",", ":"))}' for key, entry in ordered]
    with open(str(data_path(name)), "w", encoding="utf-8") as fh:
        fh.write("{\n" + ",\n".join(lines) + "\n}\n")
