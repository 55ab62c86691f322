"""The command line's whole schedules with their table numbers for small fields (see :mod:`.cli`):
``--method tables`` (:func:`.sat_tables.sat_tables`) and ``--method matrix`` (a transversal design from a
difference matrix, :mod:`.matrix`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tournament.seating.shipped import load_data

from .cli_entries import _at_fewest_text, _command, _figures, _rank, _write_data, _write_exact
from .matrix import difference_matrix, matrix_schedule
from .sat_tables import sat_tables
from .satfind import Unsatisfiable


def _find_tables(args: argparse.Namespace, argv: list[str] | None) -> int:
    """The whole-schedule SAT method (``sat_tables.sat_tables``); ``--write`` keeps the entry with the
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
