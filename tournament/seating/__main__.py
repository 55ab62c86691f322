"""Command line: ``python -m tournament.seating --players N --rounds R [--seed S] [--time-limit SECONDS]``.

Prints ``{"rounds": [[[e, s, w, n], ...tables...], ...hanchan...]}`` (players numbered 1..N, a table's
index is its number, a player's index at the table is the seat wind) and exits 0. Impossible input
(N not a multiple of 4, N < 4, R < 1) exits 2 with a one-line error on stderr. ``--report`` adds the
quality report (JSON, one line) on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from .generator import generate
from .model import SeatingError
from .report import quality_report


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m tournament.seating", description="Generate a tournament seating.")
    parser.add_argument("--players", type=int, required=True, help="number of players (a multiple of 4)")
    parser.add_argument("--rounds", type=int, required=True, help="number of hanchan")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same seating)")
    parser.add_argument(
        "--time-limit", type=float, default=None, help="upper bound on the search time in seconds"
    )
    parser.add_argument("--report", action="store_true", help="print the quality report on stderr")
    args = parser.parse_args(argv)
    if args.time_limit is not None and args.time_limit <= 0:
        parser.error("--time-limit must be positive")
    try:
        schedule = generate(args.players, args.rounds, seed=args.seed, time_limit=args.time_limit)
    except SeatingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(schedule.to_json_dict(), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    if args.report:
        print(json.dumps(quality_report(schedule)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
