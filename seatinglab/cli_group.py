"""The command line's SAT method over an abelian group (``--group``, see :mod:`.cli`):
:func:`.sat_group.sat_group_rounds`, with ``--apart`` read as pairs of players or chosen by the leave
search (``--apart search``), and the parsing of group elements and players.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tournament.seating.cyclic import Groups

from .cli_entries import _short_of_goal
from .group import GroupAction, PlayerRef
from .leave import apart_pairs, leave_candidates, leave_text
from .sat_group import coverable_classes, sat_group_rounds
from .satfind import Unsatisfiable


def _sat_group(args: argparse.Namespace, rng: random.Random) -> tuple[str, list[Groups]] | None:
    """The SAT method over a non-cyclic abelian group (``sat_group.sat_group_rounds``)."""
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
