"""The overall standings calculator, in plain Python (no Django): results in, ranking out.

Overall score = sum of the player's hanchan scores at signed tables - point penalties (WRCR 2015 §7.1:
penalties come off the overall score, never the table score). Scores are exact ``Decimal``s.

Ranking: descending overall score. Equal scores share a rank (1, 2, 2, 4) unless the tournament sets a
tie-break: ``most_firsts`` (more first places at the table, a shared first counting as a first) or
``best_hanchan`` (the better single hanchan score); players still equal after it share the rank.
Who is ranked is decided by ``tournament.participation`` (substitutes, disqualified players, players who
did not start and, by the tournament's choice, withdrawn players are not); the unranked keep their
results.

A penalty given for a round counts from that round on in the rank history; one with no round counts from
the first.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from tournament.collation import name_key

TieBreak = Literal["none", "most_firsts", "best_hanchan"]
ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Entrant:
    id: Hashable
    name: str
    ranked: bool = True  # False for substitutes, disqualified players, players who did not start...
    note: str = ""  # why not ranked, in the product's words (tournament.participation.unranked_reason)


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
    best: Decimal | None = None
    by_round: dict[int, HanchanResult] = field(default_factory=dict)
    penalties_by_round: dict[int | None, Decimal] = field(default_factory=dict)
    rank_history: list[int | None] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Standings:
    rows: list[StandingRow]  # ranked players in ranking order, then the unranked by name
    rounds: int

    def row_of(self, player: Hashable) -> StandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)


def _key(total: Decimal, firsts: int, best: Decimal | None, tie_break: TieBreak) -> tuple[Decimal, ...]:
    """Sort key: higher total first, then the tie-break (higher is better)."""
    if tie_break == "most_firsts":
        return (-total, Decimal(-firsts))
    if tie_break == "best_hanchan":
        return (-total, -(best if best is not None else Decimal("-Infinity")))
    return (-total,)


def _competition_ranks(keys: Sequence[tuple[Decimal, ...]]) -> list[int]:
    """Ranks (1, 2, 2, 4) for keys already in order: equal keys share the rank."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and key == keys[index - 1] else index + 1)
    return ranks


def compute_standings(
    entrants: Iterable[Entrant],
    results: Iterable[HanchanResult],
    penalties: Iterable[PenaltyEntry] = (),
    *,
    tie_break: TieBreak = "none",
    rounds: int | None = None,
) -> Standings:
    rows = {e.id: StandingRow(player=e.id, name=e.name, ranked=e.ranked, note=e.note) for e in entrants}
    last_round = rounds or 0
    for result in results:
        row = rows[result.player]
        row.by_round[result.round] = result
        row.hanchan_total += result.score
        row.played += 1
        if result.rank == 1:
            row.firsts += 1
        if row.best is None or result.score > row.best:
            row.best = result.score
        last_round = max(last_round, result.round)
    for penalty in penalties:
        row = rows[penalty.player]
        row.penalty_total += penalty.points
        by_round = row.penalties_by_round
        by_round[penalty.round] = by_round.get(penalty.round, ZERO) + penalty.points
    for row in rows.values():
        row.total = row.hanchan_total - row.penalty_total

    def final_key(row: StandingRow) -> tuple[Decimal, ...]:
        return _key(row.total, row.firsts, row.best, tie_break)

    ranked = sorted((r for r in rows.values() if r.ranked), key=lambda r: (final_key(r), name_key(r.name)))
    for row, rank in zip(ranked, _competition_ranks([final_key(r) for r in ranked]), strict=True):
        row.rank = rank
    _rank_history(ranked, last_round, tie_break)
    unranked = sorted((r for r in rows.values() if not r.ranked), key=lambda r: name_key(r.name))
    return Standings(rows=ranked + unranked, rounds=last_round)


def _rank_history(ranked: list[StandingRow], last_round: int, tie_break: TieBreak) -> None:
    """Each ranked player's rank after every round, from the running totals."""
    count = len(ranked)
    running = [-row.penalties_by_round.get(None, ZERO) for row in ranked]
    firsts = [0] * count
    best: list[Decimal | None] = [None] * count
    for round_number in range(1, last_round + 1):
        for index, row in enumerate(ranked):
            result = row.by_round.get(round_number)
            if result is not None:
                running[index] += result.score
                if result.rank == 1:
                    firsts[index] += 1
                if best[index] is None or result.score > best[index]:  # type: ignore[operator]
                    best[index] = result.score
            penalty = row.penalties_by_round.get(round_number)
            if penalty:
                running[index] -= penalty
        keys = [_key(running[i], firsts[i], best[i], tie_break) for i in range(count)]
        order = sorted(range(count), key=keys.__getitem__)
        for index, rank in zip(order, _competition_ranks([keys[i] for i in order]), strict=True):
            ranked[index].rank_history.append(rank)
