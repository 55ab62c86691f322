"""The overall standings calculator, in plain Python (no Django): results in, ranking out.

Overall score = sum of the player's hanchan scores at signed tables - point penalties (WRCR 2015 §7.1:
penalties come off the overall score, never the table score). Scores are exact ``Decimal``s.

Ranking: descending overall score. WRCR 2015 does not say how equal scores are separated; that is the
tournament's choice, an ordered list of tie-breaks (``TIE_BREAKS``, at most ``MAX_TIE_BREAKS``), applied
one after another to the players still equal:

- ``most_firsts``: more first places at the table (a shared first counts as a first);
- ``best_hanchan``: the better single hanchan score;
- ``best_placements``: more 1sts, then more 2nds, then more 3rds (shared places count as that place);
- ``head_to_head``: among the players still equal only, the sum of each one's hanchan scores in the
  hanchan where two or more of them sat at the same table; higher is better. It is computed once for the
  whole equal group (a player who met none of the others has 0), and those still equal go on to the next
  tie-break; players who never met stay equal.

Players still equal after every tie-break share the rank (1, 2, 2, 4); an empty list means equal scores
share the rank. Who is ranked is decided by ``tournament.core.participation`` (substitutes, disqualified
players, players who did not start and, by the tournament's choice, withdrawn players are not); the
unranked keep their results.

The rank history (the rank after each hanchan) applies the same tie-breaks to the results up to that
hanchan. A penalty given for a round counts from that round on in the rank history; one with no round
counts from the first.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import groupby
from operator import attrgetter
from typing import Literal

from scoring.rules.i18n import _
from tournament.core.collation import name_key

TieBreak = Literal["most_firsts", "best_hanchan", "best_placements", "head_to_head"]
# The rank carried over from a previous phase (carry-over "rank", ``tournament.core.phases``): applied
# before the tournament's tie-breaks; not one an organiser lists.
Seed = Literal["seed"]
TIE_BREAKS: tuple[TieBreak, ...] = ("most_firsts", "best_hanchan", "best_placements", "head_to_head")
MAX_TIE_BREAKS = 5
ZERO = Decimal(0)
NO_SCORE = Decimal("-Infinity")


def tie_breaks_problem(value: object) -> str | None:
    """Why ``value`` is not a valid tie-break order (None when it is), in the reader's language: a list
    of at most ``MAX_TIE_BREAKS`` known identifiers, none twice. The identifiers stay as they are."""
    if not isinstance(value, list):
        return _("a list of tie-breaks")
    if len(value) > MAX_TIE_BREAKS:
        return _("at most {most} tie-breaks").format(most=MAX_TIE_BREAKS)
    for item in value:
        if item not in TIE_BREAKS:
            shown = item if isinstance(item, str) and len(item) <= 40 else "this value"
            return _("{value} is not a tie-break (one of {choices})").format(
                value=repr(shown), choices=", ".join(TIE_BREAKS)
            )
    if len(set(value)) != len(value):
        return _("each tie-break at most once")
    return None


@dataclass(frozen=True, slots=True)
class Entrant:
    id: Hashable
    name: str
    ranked: bool = True  # False for substitutes, disqualified players, players who did not start...
    note: str = ""  # why not ranked, or that a ranked player withdrew (participation.unranked_reason)


@dataclass(frozen=True, slots=True)
class HanchanResult:
    """One player's result at one signed table."""

    player: Hashable
    round: int
    points: int
    rank: int  # place at the table, shared on equal points
    score: Decimal  # (points - 30,000) / 1,000 + uma
    table: int = 0
    seat: int = 0


@dataclass(frozen=True, slots=True)
class PenaltyEntry:
    player: Hashable
    points: Decimal  # the amount taken off, positive
    round: int | None = None


@dataclass(slots=True)
class StandingRow:
    player: Hashable
    name: str
    ranked: bool
    note: str = ""
    rank: int | None = None
    total: Decimal = ZERO
    hanchan_total: Decimal = ZERO
    penalty_total: Decimal = ZERO
    played: int = 0
    firsts: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # 1sts, 2nds, 3rds, 4ths
    best: Decimal | None = None
    by_round: dict[int, HanchanResult] = field(default_factory=dict)
    penalties_by_round: dict[int | None, Decimal] = field(default_factory=dict)
    rank_history: list[int | None] = field(default_factory=list)
    carried: Decimal = ZERO  # the score carried over from the previous phase (tournament.phases)
    seed: int | None = None  # the rank carried over from the previous phase, ahead of the tie-breaks
    phase: int = 1  # the last phase the player reached (tournament.phases)


@dataclass(frozen=True, slots=True)
class Standings:
    rows: list[StandingRow]  # ranked players in ranking order, then the unranked by name
    rounds: int
    # The last hanchan of a penalty the totals count (0: none given for a hanchan). A penalty given
    # during a hanchan counts at once, before any sheet of it is signed: beyond ``rounds``, the heading
    # "After hanchan 3" must say that the totals hold penalties of hanchan 4.
    penalty_round: int = 0

    def row_of(self, player: Hashable) -> StandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)


@dataclass(slots=True)
class _Tally:
    """A ranked player's figures up to some hanchan (``upto``), as the tie-breaks read them."""

    row: StandingRow
    total: Decimal = ZERO
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    best: Decimal = NO_SCORE


_total = attrgetter("total")


def _head_to_head(group: Sequence[_Tally], upto: int) -> list[Decimal]:
    """Each member's sum of hanchan scores at the tables (up to hanchan ``upto``) where two or more of
    the group sat together."""
    tables: dict[tuple[int, int], list[tuple[int, Decimal]]] = {}
    for index, tally in enumerate(group):
        for round_number, result in tally.row.by_round.items():
            if round_number <= upto:
                tables.setdefault((round_number, result.table), []).append((index, result.score))
    totals = [ZERO] * len(group)
    for seated in tables.values():
        if len(seated) > 1:
            for index, score in seated:
                totals[index] += score
    return totals


def _values(step: TieBreak | Seed, group: Sequence[_Tally], upto: int) -> list[tuple[Decimal | int, ...]]:
    """The figure each member of an equal group is compared by (higher is better)."""
    if step == "seed":
        return [(-(t.row.seed if t.row.seed is not None else 1_000_000),) for t in group]
    if step == "most_firsts":
        return [(t.places[0],) for t in group]
    if step == "best_placements":
        return [(t.places[0], t.places[1], t.places[2]) for t in group]
    if step == "best_hanchan":
        return [(t.best,) for t in group]
    if step == "head_to_head":
        return [(total,) for total in _head_to_head(group, upto)]
    return [() for _ in group]  # not a tie-break (the settings refuse one): it separates no one


def _split(group: list[_Tally], steps: Sequence[TieBreak | Seed], upto: int) -> list[list[_Tally]]:
    """An equal group in order, as groups still equal after the tie-breaks ``steps``."""
    if len(group) < 2 or not steps:
        return [group]
    values = _values(steps[0], group, upto)
    order = sorted(range(len(group)), key=values.__getitem__, reverse=True)  # stable: keeps name order
    parts: list[list[_Tally]] = []
    for position, index in enumerate(order):
        if position and values[index] == values[order[position - 1]]:
            parts[-1].append(group[index])
        else:
            parts.append([group[index]])
    return [part for equal in parts for part in _split(equal, steps[1:], upto)]


def _ranked(
    tallies: list[_Tally], tie_breaks: Sequence[TieBreak | Seed], upto: int
) -> list[tuple[_Tally, int]]:
    """The tallies in ranking order with their ranks: higher total first, then the tie-breaks in order;
    those still equal share the rank. Equal players keep the order they are given in."""
    ranked: list[tuple[_Tally, int]] = []
    for _score, equal in groupby(sorted(tallies, key=_total, reverse=True), key=_total):  # stable sort
        group = list(equal)
        for part in _split(group, tie_breaks, upto) if len(group) > 1 else (group,):
            rank = len(ranked) + 1
            ranked.extend((tally, rank) for tally in part)
    return ranked


def compute_standings(
    entrants: Iterable[Entrant],
    results: Iterable[HanchanResult],
    penalties: Iterable[PenaltyEntry] = (),
    *,
    tie_breaks: Sequence[TieBreak] = (),
    rounds: int | None = None,
    first_round: int = 1,
    carried: Mapping[Hashable, Decimal] | None = None,
    seeds: Mapping[Hashable, int] | None = None,
    seeds_break_ties: bool = False,
) -> Standings:
    """The standings of ``entrants`` from their results and penalties.

    For one phase of a tournament (``tournament.core.phases``): ``first_round`` is its first hanchan (the
    rank history starts there), ``carried`` the score each player brings from the previous phase,
    ``seeds`` the rank each brings, which separates equal totals before the tie-breaks when
    ``seeds_break_ties``."""
    carried = carried or {}
    rows = {
        e.id: StandingRow(
            player=e.id,
            name=e.name,
            ranked=e.ranked,
            note=e.note,
            carried=carried.get(e.id, ZERO),
            seed=seeds.get(e.id) if seeds else None,
        )
        for e in entrants
    }
    seed_step: tuple[Seed, ...] = ("seed",) if seeds and seeds_break_ties else ()
    steps: tuple[TieBreak | Seed, ...] = (*seed_step, *tie_breaks)
    last_round = rounds or 0
    for result in results:
        row = rows[result.player]
        row.by_round[result.round] = result
        row.hanchan_total += result.score
        row.played += 1
        if result.rank == 1:
            row.firsts += 1
        if 1 <= result.rank <= 4:
            row.places[result.rank - 1] += 1
        if row.best is None or result.score > row.best:
            row.best = result.score
        last_round = max(last_round, result.round)
    penalty_round = 0
    for penalty in penalties:
        if penalty.round is not None:
            penalty_round = max(penalty_round, penalty.round)
        row = rows[penalty.player]
        row.penalty_total += penalty.points
        by_round = row.penalties_by_round
        by_round[penalty.round] = by_round.get(penalty.round, ZERO) + penalty.points
    for row in rows.values():
        row.total = row.carried + row.hanchan_total - row.penalty_total

    by_name = sorted((r for r in rows.values() if r.ranked), key=lambda r: name_key(r.name))
    tallies = [
        _Tally(row, row.total, row.places, row.best if row.best is not None else NO_SCORE) for row in by_name
    ]
    ranked = []
    for tally, rank in _ranked(tallies, steps, last_round):
        tally.row.rank = rank
        ranked.append(tally.row)
    _rank_history(ranked, first_round, last_round, steps)
    unranked = sorted((r for r in rows.values() if not r.ranked), key=lambda r: name_key(r.name))
    return Standings(rows=ranked + unranked, rounds=last_round, penalty_round=penalty_round)


def _rank_history(
    ranked: list[StandingRow], first_round: int, last_round: int, steps: Sequence[TieBreak | Seed]
) -> None:
    """Each ranked player's rank after every round from ``first_round``, from the running figures."""
    tallies = [_Tally(row, row.carried - row.penalties_by_round.get(None, ZERO)) for row in ranked]
    for round_number in range(first_round, last_round + 1):
        for tally in tallies:
            row = tally.row
            result = row.by_round.get(round_number)
            if result is not None:
                tally.total += result.score
                if 1 <= result.rank <= 4:
                    tally.places[result.rank - 1] += 1
                if result.score > tally.best:
                    tally.best = result.score
            penalty = row.penalties_by_round.get(round_number)
            if penalty:
                tally.total -= penalty
        for tally, rank in _ranked(tallies, steps, round_number):
            tally.row.rank_history.append(rank)
