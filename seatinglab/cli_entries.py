"""What the command line measures and stores (see :mod:`.cli`): a schedule's figures (excess meetings,
table repeats, the worst strangers' common opponents), the comparisons that decide whether ``--write``
replaces an entry, and the data files (``data/cyclic.json``, ``data/tables.json``, ``data/exact.json``)
written one entry a line.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import shlex
import sys
from typing import Any

from tournament.seating.constructions import common_opponent_figures
from tournament.seating.cyclic import Groups
from tournament.seating.shipped import data_path, load_data


def _command(argv: list[str] | None) -> str:
    given = argv if argv is not None else sys.argv[1:]
    return shlex.join(["python", "-m", "seatinglab", *given])


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
