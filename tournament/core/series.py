"""A series' cumulative standings, in plain Python (no Django): each event's final results in, one
ranking out.

A series groups tournaments (a league season, a club's year). Each event gives every ranked entrant a
final rank and a total (the event's overall score, penalties included: ``tournament.core.standings``). An
entrant of the series is a person (``tournament.core.persons``), or a registration not linked to one, which
then counts alone. The series ranks its entrants by one of four rules:

- ``sum``: the sum of the entrant's totals over every event they were ranked in;
- ``best_n``: the sum of their ``best_n`` best totals (fewer if they played fewer events);
- ``average``: the mean of their totals, rounded to hundredths (half to even), for the entrants ranked in
  at least ``min_events`` events; the others are listed below, unranked, with their average;
- ``points_per_rank``: points by final rank in each event, from a table (``points``: the first value for
  a 1st place, the next for a 2nd...; a rank beyond the table earns 0), summed over the events. Entrants
  who share a rank in an event share the points of the places they fill: two tied 2nds of a table
  10, 6, 3, 1 get (6 + 3) / 2 = 4.5 each (exact decimals; a third of a point is rounded to hundredths,
  half to even).

Entrants with an equal series score share the series rank (1, 2, 2, 4); within a rank, by name. Totals
are exact ``Decimal``s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from itertools import groupby
from typing import Literal

from scoring.rules.i18n import _
from tournament.core.collation import name_key

Rule = Literal["sum", "best_n", "average", "points_per_rank"]
RULES: tuple[Rule, ...] = ("sum", "best_n", "average", "points_per_rank")
MAX_BEST_N = 100
MAX_POINTS = 200  # places in a points table
HUNDREDTHS = Decimal("0.01")
ZERO = Decimal(0)


@dataclass(frozen=True)
class EventResult:
    """One entrant's final result in one event: ``entrant`` identifies them across events (a person's key,
    or a registration's), ``event`` the event."""

    entrant: str
    name: str
    event: int
    rank: int
    total: Decimal


@dataclass(frozen=True)
class SeriesRule:
    rule: Rule
    best_n: int | None = None
    min_events: int | None = None
    points: tuple[Decimal, ...] = ()


@dataclass(frozen=True)
class Counted:
    """An event of an entrant's: its rank and total there, the score it gives under the rule, and whether
    it counts (``best_n`` leaves the others out)."""

    event: int
    rank: int
    total: Decimal
    score: Decimal
    counts: bool


@dataclass(frozen=True)
class SeriesRow:
    entrant: str
    name: str
    rank: int | None  # None: not ranked (an average over fewer than ``min_events`` events)
    score: Decimal
    events: int
    results: tuple[Counted, ...]


def rule_problem(rule: SeriesRule) -> tuple[str, str] | None:
    """(field, why) when ``rule`` cannot rank a series, in the reader's language; None when it can."""
    if rule.rule not in RULES:
        return "rule", _("{value} is not a series rule (one of {choices})").format(
            value=str(rule.rule)[:40], choices=", ".join(RULES)
        )
    if rule.rule == "best_n" and not (rule.best_n is not None and 1 <= rule.best_n <= MAX_BEST_N):
        return "best_n", _("the best-N rule counts the best N events: give N from 1 to {most}").format(
            most=MAX_BEST_N
        )
    if rule.rule == "average" and not (rule.min_events is not None and 1 <= rule.min_events <= MAX_BEST_N):
        return "min_events", _(
            "the average rule ranks those with at least a number of events: give it, from 1 to {most}"
        ).format(most=MAX_BEST_N)
    if rule.rule == "points_per_rank":
        if not rule.points or len(rule.points) > MAX_POINTS:
            return "points", _(
                "the points-per-rank rule needs the points of each place, 1 to {most} of them"
            ).format(most=MAX_POINTS)
        if any(not value.is_finite() for value in rule.points):
            return "points", _("each place's points are a number")
    return None


def place_points(ranks: Sequence[int], table: Sequence[Decimal]) -> list[Decimal]:
    """The points each of an event's ranks earns (``ranks`` as the event ranked its entrants, ties
    sharing a rank): tied entrants share the points of the places they fill, in hundredths."""
    earned = []
    for rank in ranks:
        tied = ranks.count(rank)
        places = range(rank - 1, rank - 1 + tied)
        share = sum((table[place] if place < len(table) else ZERO for place in places), ZERO) / tied
        earned.append(share.quantize(HUNDREDTHS, ROUND_HALF_EVEN) if tied > 1 else share)
    return earned


def series_standings(results: Iterable[EventResult], rule: SeriesRule) -> list[SeriesRow]:
    """The series' ranking under ``rule`` (which ``rule_problem`` accepts)."""
    results = list(results)
    scores: dict[tuple[str, int], Decimal] = {}
    if rule.rule == "points_per_rank":
        by_event = sorted(results, key=lambda r: r.event)
        for _event, group in groupby(by_event, key=lambda r: r.event):
            members = list(group)
            earned = place_points([r.rank for r in members], rule.points)
            for result, points in zip(members, earned, strict=True):
                scores[result.entrant, result.event] = points
    else:
        scores = {(r.entrant, r.event): r.total for r in results}
    by_entrant: dict[str, list[EventResult]] = {}
    names: dict[str, str] = {}
    for result in sorted(results, key=lambda r: r.event):
        by_entrant.setdefault(result.entrant, []).append(result)
        names[result.entrant] = result.name  # the name of their latest event
    rows = []
    for entrant, played in by_entrant.items():
        own = [scores[entrant, r.event] for r in played]
        counting = set(range(len(played)))
        if rule.rule == "best_n" and rule.best_n is not None:
            best = sorted(range(len(played)), key=lambda i: (-own[i], played[i].event))[: rule.best_n]
            counting = set(best)
        total = sum((own[i] for i in counting), ZERO)
        ranked = True
        if rule.rule == "average":
            total = (total / len(played)).quantize(HUNDREDTHS, ROUND_HALF_EVEN)
            ranked = len(played) >= (rule.min_events or 1)
        counted = tuple(
            Counted(r.event, r.rank, r.total, own[i], i in counting) for i, r in enumerate(played)
        )
        rows.append(SeriesRow(entrant, names[entrant], 0 if ranked else None, total, len(played), counted))
    ranked_rows = sorted(
        (row for row in rows if row.rank is not None), key=lambda row: (-row.score, name_key(row.name))
    )
    unranked = sorted(
        (row for row in rows if row.rank is None), key=lambda row: (-row.score, name_key(row.name))
    )
    ordered: list[SeriesRow] = []
    for index, row in enumerate(ranked_rows):
        previous = ordered[-1] if ordered else None
        rank = previous.rank if previous is not None and previous.score == row.score else index + 1
        ordered.append(SeriesRow(row.entrant, row.name, rank, row.score, row.events, row.results))
    return ordered + unranked
