"""The seating laboratory's command line: ``python -m seatinglab --players 44 --rounds 14 [--write]``
(see :func:`main`).

Methods: ``search`` (the tabu and depth-first searches of :mod:`tournament.seating.cyclic`, on one shape with
``--shape`` and transversal hanchan), ``sat`` (:func:`.sat_cyclic.sat_rounds` on each cyclic shape, or
:func:`.sat_group.sat_group_rounds` over an abelian group with ``--group``) and ``tables``
(:func:`.sat_tables.sat_tables`, whole schedules with their table numbers) and ``anneal``
(:func:`.anneal.anneal_tables`, a whole schedule from the generator's, table repeats and common opponents
in one objective). ``--write`` stores what it found in ``data/cyclic.json``, ``data/tables.json`` or
(used as found) ``data/exact.json``, which the generator reads at run time.

The parser and the dispatch are here; each family of methods has a module of its own: ``search`` and
``sat`` on cyclic shapes in :mod:`.cli_cyclic`, ``sat --group`` in :mod:`.cli_group`, ``anneal`` and
``opponents`` in :mod:`.cli_anneal`, ``tables`` and ``matrix`` in :mod:`.cli_tables`; the figures of a
schedule and the data files they write in :mod:`.cli_entries`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tournament.seating.cyclic import find_schedule
from tournament.seating.shipped import load_data

from .anneal import COLD, HOT
from .cli_anneal import _anneal
from .cli_cyclic import _parse_shape, _sat_schedule, _search_shape
from .cli_entries import _command, _write_data
from .cli_group import _sat_group
from .cli_tables import _find_matrix, _find_tables


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
        "translation by the subgroup of order h maps to itself (see sat_cyclic.sat_rounds)",
    )
    parser.add_argument(
        "--free", type=int, default=0, help="sat: this many hanchan more without any symmetry"
    )
    parser.add_argument(
        "--group",
        help="sat: o1,o2,...: the abelian group Z_o1 x Z_o2 x ... instead of a cyclic shape, with "
        "--types, --fixed and --stabilisers (see sat_group.sat_group_rounds)",
    )
    parser.add_argument("--types", type=int, default=1, help="--group: orbits of |G| players")
    parser.add_argument("--fixed", type=int, default=0, help="--group: fixed players")
    parser.add_argument(
        "--multiplier",
        default="",
        help="--group: u,t: every developed hanchan is also fixed by (g, i) -> (u g, i + t) (see "
        "sat_group.sat_group_rounds)",
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
        "the player of g's coset in short orbit j, 'fj' fixed player j (see sat_group.sat_group_rounds); "
        "'search': the best leaves that reach --opponents and --at-fewest, tried in turn (see leave.py)",
    )
    parser.add_argument(
        "--shared",
        type=int,
        default=0,
        help="--group: every two players who never meet share at least this many players who meet "
        "neither, the solver choosing who never meets (see sat_group.sat_group_rounds)",
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
        help="sat: a resolvable group divisible design with groups of this size (see sat_cyclic.sat_rounds)",
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
