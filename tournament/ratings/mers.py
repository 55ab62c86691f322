"""The EMA's ranking of players (MERS, the Mahjong European Ranking System), from tournament results.
Plain Python: no Django. Exact arithmetic (``Fraction``); rounded only for display (``rounded``).

Sources, and how sure each part is (docs/ratings.md says the same with the full citations):

* **Base rank** (verified). The EMA's "Basics for ranking system" (mahjong-europe.org, the page in force
  since the update of 1 January 2018, adopted by the General Assembly of 25 May 2017): a player's base
  rank in a MERS tournament is between 0 and 1000; the EMA's "Calculation" text says how: the number of
  players less the player's place, divided by the number of players less one, times 1000. The winner
  gets 1000, the last 0. Tied players share a place (1, 2, 2, 4), as the tournament's standings rank
  them, and each gets that place's base rank.
* **Tournament weight** (verified). The same 2018 page: TOTAL_MERS = Weight_duration + Weight_players
  + Weight_countries + Weight_qualif, with 1, 2 or 3 for one, two or three days; +0.5 above 40 players
  and +1 above 80 (substitutes count, three at most); +0.5 from 6 countries and +1 from 10; +1 when the
  players had to qualify. Two stored copies of that page differ on 10 countries (one table says
  "6 <= X <= 10: +0.5, X > 10: +1", the other table and its prose "6 <= X <= 9: +0.5, X >= 10: +1"):
  this module follows the second, whose table and prose agree. The table stops at three days: a longer
  event counts as three here (unverified: the text says nothing of longer events).
* **Decay by age** (UNVERIFIED). The 2018 text's part on time could not be read from a copy of the
  EMA's page. Implemented as a third-party reimplementation that reports matching the EMA's published
  rankings describes it (the "European-Mahjong" ranking app by ldekerg, its ``app/ranking.py``): a result
  counts fully for a year after the tournament, half in the second year, not after. This module counts
  the year in days from the tournament's last day (that app counts 52 weeks from the Monday after the
  tournament's week, and leaves out the EMA's COVID freeze); ``FULL_DAYS`` and ``HALF_DAYS``.
* **Averaging** (UNVERIFIED, same secondary source). The ranking is 50 % Part A + 50 % Part B. Part A:
  the weighted average of the player's best results, five and then 80 % (rounded up) of the others;
  Part B: the weighted average of the best four. A result's weight is its tournament's weight times its
  decay. Missing results (fewer than five for Part A, four for Part B) count as base rank 0 with weight
  1; a player with fewer than two results that count is not ranked. The filling with zeros and the
  two-result minimum are also in the EMA's text of the earlier system (in force from 12 July 2010 to
  2017: "a player with less than five tournaments is given a result of 0 (weight 1) for each missing
  tournament"; "at least two tournaments to appear on the ranking").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

BASE = 1000
# Weight_duration: 1, 2, 3 for one, two, three days (longer events as three days: unverified).
MAX_DAYS = 3
# Weight_players: +0.5 above 40, +1 above 80; at most three substitutes count.
PLAYERS_HALF, PLAYERS_FULL, MAX_SUBSTITUTES = 40, 80, 3
# Weight_countries: +0.5 from 6 countries, +1 from 10.
COUNTRIES_HALF, COUNTRIES_FULL = 6, 10
# The decay by age (unverified): full weight up to FULL_DAYS after the tournament, half up to HALF_DAYS.
FULL_DAYS, HALF_DAYS = 365, 730
# The averaging (unverified): Part A keeps the best PART_A_FIRST and PART_A_SHARE of the others (rounded
# up); Part B the best PART_B; at least MINIMUM_RESULTS results to be ranked.
PART_A_FIRST, PART_A_SHARE, PART_B, MINIMUM_RESULTS = 5, Fraction(4, 5), 4, 2
HUNDREDTH = Decimal("0.01")


def base_rank(place: int, players: int) -> Fraction:
    """1000 x (players - place) / (players - 1): the winner 1000, the last 0."""
    if players < 2:
        raise ValueError("players: a ranked tournament has at least two players")
    if not 1 <= place <= players:
        raise ValueError(f"place: between 1 and {players}")
    return Fraction(BASE * (players - place), players - 1)


def tournament_weight(
    *, days: int, players: int, countries: int, qualification: bool, substitutes: int = 0
) -> Fraction:
    """TOTAL_MERS = Weight_duration + Weight_players + Weight_countries + Weight_qualif (EMA 2018)."""
    if days < 1:
        raise ValueError("days: at least one")
    if players < 2 or countries < 1 or substitutes < 0:
        raise ValueError("players, countries, substitutes: at least two players and one country")
    counted = players + min(substitutes, MAX_SUBSTITUTES)
    duration = Fraction(min(days, MAX_DAYS))
    size = (
        Fraction(0) if counted <= PLAYERS_HALF else Fraction(1, 2) if counted <= PLAYERS_FULL else Fraction(1)
    )
    spread = (
        Fraction(0)
        if countries < COUNTRIES_HALF
        else Fraction(1, 2)
        if countries < COUNTRIES_FULL
        else Fraction(1)
    )
    return duration + size + spread + (1 if qualification else 0)


def decay(ended_on: date, as_of: date) -> Fraction:
    """How much a result counts on ``as_of`` (unverified, see the module): 1 up to a year after the
    tournament's last day, 1/2 in the second year, 0 after (and 0 before the tournament has ended)."""
    age = (as_of - ended_on).days
    if age < 0 or age > HALF_DAYS:
        return Fraction(0)
    return Fraction(1) if age <= FULL_DAYS else Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class Result:
    """A player's result in one MERS tournament: its base rank, the tournament's weight and last day."""

    tournament: Hashable
    base_rank: Fraction
    weight: Fraction
    ended_on: date


@dataclass(frozen=True, slots=True)
class Ranking:
    """A player's MERS ranking on a day: (Part A + Part B) / 2, and what it was made of."""

    value: Fraction
    part_a: Fraction
    part_b: Fraction
    results: int  # the results that count on that day

    @property
    def rounded(self) -> Decimal:
        """The ranking to two decimals, half up, for display."""
        return rounded(self.value)


def rounded(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(HUNDREDTH, ROUND_HALF_UP)


def part_a_count(results: int) -> int:
    """How many results Part A keeps: the best five, then 80 % of the others rounded up."""
    others = max(0, results - PART_A_FIRST)
    return PART_A_FIRST + -(-others * PART_A_SHARE.numerator // PART_A_SHARE.denominator)


def _weighted(kept: Sequence[tuple[Fraction, Fraction]], size: int) -> Fraction:
    """The weighted average of ``kept`` (base rank, weight), filled up to ``size`` results with base
    rank 0 and weight 1."""
    missing = max(0, size - len(kept))
    total = sum((rank * weight for rank, weight in kept), Fraction(0))
    weights = sum((weight for _rank, weight in kept), Fraction(0)) + missing
    return total / weights if weights else Fraction(0)


def player_ranking(results: Iterable[Result], as_of: date) -> Ranking | None:
    """The player's ranking on ``as_of`` from his results, None with fewer than two that count."""
    counted = [(r, r.weight * decay(r.ended_on, as_of)) for r in results]
    active = [(r, weight) for r, weight in counted if weight > 0]
    if len(active) < MINIMUM_RESULTS:
        return None
    # Equal base ranks: Part A keeps the most recent first, Part B the heaviest (as the secondary source).
    by_date = sorted(active, key=lambda item: (-item[0].base_rank, -item[0].ended_on.toordinal(), -item[1]))
    by_weight = sorted(active, key=lambda item: (-item[0].base_rank, -item[1], -item[0].ended_on.toordinal()))
    size_a = part_a_count(len(active))
    part_a = _weighted([(r.base_rank, w) for r, w in by_date[:size_a]], size_a)
    part_b = _weighted([(r.base_rank, w) for r, w in by_weight[:PART_B]], PART_B)
    return Ranking((part_a + part_b) / 2, part_a, part_b, len(active))


def ranking_list(results: Mapping[Hashable, Iterable[Result]], as_of: date) -> list[tuple[Hashable, Ranking]]:
    """Every ranked player with his ranking on ``as_of``, the highest first (equal rankings in the order
    of ``results``)."""
    ranked = [(player, player_ranking(own, as_of)) for player, own in results.items()]
    found = [(player, ranking) for player, ranking in ranked if ranking is not None]
    return sorted(found, key=lambda item: -item[1].value)


__all__ = [
    "Ranking",
    "Result",
    "base_rank",
    "decay",
    "part_a_count",
    "player_ranking",
    "ranking_list",
    "rounded",
    "tournament_weight",
]
