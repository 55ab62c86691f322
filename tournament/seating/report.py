"""Quality report of any schedule, in the terms of the organisers' evaluation tool.

The figures and their names are those of the organisers' evaluation tool ``seating_eval.py``, so an
organiser sees the same numbers whichever tool computed them:

* ``excess_meetings`` (meetings beyond the first of every pair), ``repeat_pairs``, ``max_pair_meetings``
  and the counting lower bounds ``excess_meetings_lower_bound`` = ceil(N * max(0, 3R-(N-1)) / 2) and
  ``repeat_pairs_lower_bound``;
* ``table_repeats`` (visits to a table beyond the first) with bound ``N * max(0, R - T)``,
  ``table_warnings`` (players above ``ceil(R/T)`` visits to a table);
* ``wind_imbalance`` (largest difference between a player's most and least frequent wind, bound 0 when
  R is a multiple of 4, else 1), ``wind_warnings`` (players outside ``floor(R/4)..ceil(R/4)``);
* indirect meets: for pairs who never meet, the number of common opponents; ``min_indirect``,
  ``indirect_warnings`` (pairs below ``floor(sqrt(N))``, counted only when R > 4) and
  ``opponent_graph_components``.

Added here: ``consecutive_table_repeats`` (a player at the same table in two consecutive hanchan) and
``optimal``, which says per criterion whether the schedule reaches its lower bound.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from scoring.rules.i18n import _

from .model import PlayerId, Schedule


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def lower_bounds(n: int, rounds: int) -> dict[str, int]:
    per_player_excess = max(0, 3 * rounds - (n - 1))
    excess = _ceil_div(n * per_player_excess, 2)
    if per_player_excess and rounds > 1:
        repeat_pairs = _ceil_div(n * _ceil_div(per_player_excess, rounds - 1), 2)
    else:
        repeat_pairs = 0
    tables = n // 4
    return {
        "excess_meetings": excess,
        "repeat_pairs": repeat_pairs,
        "table_repeats": n * max(0, rounds - tables) if tables else 0,
        "wind_imbalance": 0 if rounds % 4 == 0 else 1,
    }


def quality_report(
    schedule: Schedule | Sequence[Sequence[Sequence[PlayerId]]],
    n_players: int | None = None,
    *,
    name_of: Callable[[PlayerId], str] | None = None,
    field_changes: bool = False,
) -> dict[str, Any]:
    """Figures of a schedule (a :class:`Schedule` or its ``rounds`` lists).

    ``n_players`` sets the field size used for the lower bounds and the indirect threshold (by default
    the number of distinct players seen). With ``name_of``, the errors name players by it and number
    hanchan from 1, as a person reads them (the product passes the players' names). With
    ``field_changes`` (a re-seating after a withdrawal or a late arrival: the players of the hanchan
    played and of those to come differ), a player absent from some hanchan, and a total of players that
    is not a multiple of four, are not errors; every hanchan still seats each of its players once, four
    to a table.
    """

    def who(players: list[PlayerId]) -> str:
        return str(players) if name_of is None else ", ".join(name_of(p) for p in players)

    def hanchan_of(r: int) -> str:
        return f"round {r}" if name_of is None else _("hanchan {number}").format(number=r + 1)

    rounds = (
        schedule.as_lists() if isinstance(schedule, Schedule) else [[list(t) for t in h] for h in schedule]
    )
    errors: list[str] = []
    universe: dict[tuple[str, PlayerId], int] = {}
    for hanchan in rounds:
        for table in hanchan:
            for p in table:
                key = (type(p).__name__, p)
                if key not in universe:
                    universe[key] = len(universe)
    n = len(universe)
    num_rounds = len(rounds)
    tables = max((len(h) for h in rounds), default=0)
    for r, hanchan in enumerate(rounds):
        seen: Counter[tuple[str, PlayerId]] = Counter()
        for t, table in enumerate(hanchan):
            if len(table) != 4:
                errors.append(
                    _("{hanchan} table {table}: expected a list of 4 players").format(
                        hanchan=hanchan_of(r), table=t
                    )
                )
            keys = [(type(p).__name__, p) for p in table]
            if len(set(keys)) != len(keys):
                errors.append(
                    _("{hanchan} table {table}: duplicate player at one table").format(
                        hanchan=hanchan_of(r), table=t
                    )
                )
            seen.update(keys)
        dup = [k[1] for k, c in seen.items() if c > 1]
        missing = [k[1] for k in universe if k not in seen]
        if dup:
            errors.append(
                _("{hanchan}: players seated more than once: {players}").format(
                    hanchan=hanchan_of(r), players=who(dup[:10])
                )
            )
        if missing and not field_changes:
            errors.append(
                _("{hanchan}: players missing: {players}").format(
                    hanchan=hanchan_of(r), players=who(missing[:10])
                )
            )
        if len(hanchan) != tables and not field_changes:
            errors.append(
                _("{hanchan}: {count} tables, other rounds have {tables}").format(
                    hanchan=hanchan_of(r), count=len(hanchan), tables=tables
                )
            )
    if n % 4 and not field_changes:
        errors.append(_("{count} players is not a multiple of 4").format(count=n))

    pair_meet: Counter[tuple[int, int]] = Counter()
    table_use: Counter[tuple[int, int]] = Counter()
    wind_use = [[0, 0, 0, 0] for _ in range(n)]
    position: list[dict[int, int]] = [{} for _ in range(n)]  # player -> {round: table}
    for r, hanchan in enumerate(rounds):
        for t, table in enumerate(hanchan):
            if len(table) != 4:
                continue
            ids = []
            for seat, p in enumerate(table):
                i = universe[(type(p).__name__, p)]
                ids.append(i)
                table_use[(i, t)] += 1
                wind_use[i][seat] += 1
                position[i][r] = t
            for a in range(len(ids)):
                for b in range(a + 1, len(ids)):
                    x, y = ids[a], ids[b]
                    if x != y:
                        pair_meet[(x, y) if x < y else (y, x)] += 1

    repeat_pairs = sum(1 for c in pair_meet.values() if c > 1)
    excess = sum(c - 1 for c in pair_meet.values() if c > 1)
    table_repeats = sum(c - 1 for c in table_use.values() if c > 1)
    wind_imbalance = max((max(w) - min(w) for w in wind_use), default=0)
    meet_hist = Counter(pair_meet.values())

    wind_lo = num_rounds // 4
    wind_hi = _ceil_div(num_rounds, 4)
    wind_bad = [sum(1 for c in w if c < wind_lo or c > wind_hi) for w in wind_use]
    wind_hist = Counter(c for w in wind_use for c in w)

    table_hi = _ceil_div(num_rounds, tables) if tables else 0
    per_player_table = [[0] * tables for _ in range(n)]
    for (i, t), c in table_use.items():
        if t < tables:
            per_player_table[i][t] = c
    table_bad = [sum(1 for c in row if c > table_hi) for row in per_player_table]
    table_hist = Counter(c for row in per_player_table for c in row)
    consecutive = 0
    for i in range(n):
        for r, t in position[i].items():
            if position[i].get(r + 1) == t:
                consecutive += 1

    opp = [0] * n
    for x, y in pair_meet:
        opp[x] |= 1 << y
        opp[y] |= 1 << x
    indirect_hist: Counter[int] = Counter()
    for x in range(n):
        ox = opp[x]
        for y in range(x + 1, n):
            if not (ox >> y) & 1:
                indirect_hist[(ox & opp[y]).bit_count()] += 1
    components = 0
    seen_mask = 0
    for start in range(n):
        if (seen_mask >> start) & 1:
            continue
        components += 1
        frontier = 1 << start
        seen_mask |= frontier
        while frontier:
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= opp[low.bit_length() - 1]
                frontier ^= low
            frontier = nxt & ~seen_mask
            seen_mask |= frontier

    field = n_players if n_players is not None else n
    bounds = lower_bounds(field, num_rounds)
    sqrt_floor = math.isqrt(field)
    sqrt_ceil = sqrt_floor if sqrt_floor * sqrt_floor == field else sqrt_floor + 1
    indirect_checked = num_rounds > 4
    indirect_warnings = sum(v for k, v in indirect_hist.items() if k < sqrt_floor) if indirect_checked else 0
    indirect_warnings_ceil = (
        sum(v for k, v in indirect_hist.items() if k < sqrt_ceil) if indirect_checked else 0
    )
    report: dict[str, Any] = {
        "players": n,
        "rounds": num_rounds,
        "tables": tables,
        "valid": not errors,
        "table_repeats": table_repeats,
        "table_repeats_lower_bound": bounds["table_repeats"],
        "repeat_pairs": repeat_pairs,
        "repeat_pairs_lower_bound": bounds["repeat_pairs"],
        "max_pair_meetings": max(pair_meet.values(), default=0),
        "excess_meetings": excess,
        "excess_meetings_lower_bound": bounds["excess_meetings"],
        "distinct_pairs_met": len(pair_meet),
        "pair_meeting_histogram": {str(k): v for k, v in sorted(meet_hist.items())},
        "wind_imbalance": wind_imbalance,
        "wind_imbalance_lower_bound": bounds["wind_imbalance"],
        "wind_allowed_range": [wind_lo, wind_hi],
        "wind_warnings": sum(1 for b in wind_bad if b),
        "wind_warning_cells": sum(wind_bad),
        "wind_count_histogram": {str(k): v for k, v in sorted(wind_hist.items())},
        "table_visit_max_allowed": table_hi,
        "table_warnings": sum(1 for b in table_bad if b),
        "table_warning_cells": sum(table_bad),
        "table_visit_histogram": {str(k): v for k, v in sorted(table_hist.items())},
        "opponent_graph_components": components,
        "non_meeting_pairs": sum(indirect_hist.values()),
        "min_indirect": min(indirect_hist) if indirect_hist else None,
        "indirect_checked": indirect_checked,
        "indirect_threshold": sqrt_floor,
        "indirect_warnings": indirect_warnings,
        "indirect_threshold_ceil": sqrt_ceil,
        "indirect_warnings_ceil": indirect_warnings_ceil,
        "indirect_histogram": {str(k): v for k, v in sorted(indirect_hist.items())},
        "consecutive_table_repeats": consecutive,
    }
    report["optimal"] = {
        "pair_meetings": excess == bounds["excess_meetings"],
        "tables": table_repeats == bounds["table_repeats"] and consecutive == 0,
        "winds": wind_imbalance == bounds["wind_imbalance"] and report["wind_warnings"] == 0,
        "indirect": indirect_warnings == 0 and components <= 1,
    }
    if errors:
        report["errors"] = errors[:50]
    return report


def summary_line(report: dict[str, Any]) -> str:
    """One line for people: the figures and their bounds."""
    return (
        f"{report['players']} players x {report['rounds']} hanchan: "
        f"excess meetings {report['excess_meetings']} (bound {report['excess_meetings_lower_bound']}), "
        f"repeat pairs {report['repeat_pairs']}, "
        f"table repeats {report['table_repeats']} (bound {report['table_repeats_lower_bound']}), "
        f"consecutive tables {report['consecutive_table_repeats']}, "
        f"wind imbalance {report['wind_imbalance']} (bound {report['wind_imbalance_lower_bound']}), "
        f"min common opponents {report['min_indirect']}, "
        f"indirect warnings {report['indirect_warnings']}, "
        f"components {report['opponent_graph_components']}"
    )
