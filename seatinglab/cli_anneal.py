"""The command line's whole-schedule annealing (``--method anneal`` and ``opponents``, see :mod:`.cli`)
and its starts: the generator's schedule (:func:`generator_start`), AG(3, 4), planes of GF(2)^k, the SAT
method over ``--group``, hanchan kept from a longer schedule (:func:`best_kept`), a development of one
base hanchan; table numbers by the generator's table search (:func:`generator_tables`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations

from tournament.seating.constructions import common_opponent_figures
from tournament.seating.cyclic import Groups
from tournament.seating.generator import generate
from tournament.seating.search import Budget, GroupState
from tournament.seating.shipped import shipped_exact, without_exact_entry
from tournament.seating.tables import TableSearch

from .affine import affine_start
from .allowance import raise_opponents
from .anneal import anneal_tables
from .binary import binary_start
from .cli_cyclic import _parse_shape
from .cli_entries import _at_fewest_text, _excess, _figures, _short_of_goal, _table_repeats, _write_exact
from .cli_group import _sat_group
from .develop import develop_native
from .native import anneal_native, tabu_native


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
