"""The EMA's ranking of players (MERS, the Mahjong European Ranking System), from tournament results.
Plain Python: no Django. Exact arithmetic (``Fraction``); rounded only for display (``rounded``).

Sources (docs/ratings.md, "MERS: the EMA's ranking", gives the same with what each one says):

[EMA-2018] The EMA's "Basics for ranking system", the system in force since 1 January 2018 (adopted by the
    General Assembly of 25 May 2017): https://mahjong-europe.org/ranking/Basicsranking.html, sections
    "Base rank" and "Weight" ("Weight calculation", notes (1) to (4)); its announcement copy
    http://mahjong-europe.org/ranking/Basicsranking2018.html. Its "Averaging" section (the EMA's news
    announcing the 2018 system points there) was not in any copy that could be read.
[EMA-2010] The EMA's text of the system before 2018 (mahjong-europe.org/portal, "Ranking", article 28),
    sections "Minimum requirement" and "Calculation".
[EMA-COVID] The EMA's news "COVID-FREEZE period" (mahjong-europe.org/portal, article 58): "COVID-FREEZE
    period begun on April 1st 2020. So, tournaments from April 1st 2018 contribute to the MERS."
[GA-2017] Mahjong News' report of the EMA General Assembly 2017 (mahjongnews.com, "General Assembly
    2017: new ranking system and more"): Part A, "an average of 5 tournaments played in the last two
    years and 80% of the remaining tournaments (rounded up)"; Part B, "an average of the 4 best results
    (base rank) during the last two years"; "New Ranking = 50% Part A + 50% Part B".
[GA-2017-MINUTES] The EMA's own minutes of that General Assembly (Póvoa de Varzim, 25 May 2017; the
    report Mahjong News links to): Part A, "5 tournaments and 80% of the remaining tournaments (rounded
    up)"; Part B, "4 best tournaments".
[REIMPL] Reimplementations that compare themselves with the EMA's published rankings: ldekerg's
    "European-Mahjong" (GitHub, ``app/ranking.py`` and its "formulas" page), MahjongRepository's
    "mahjong-portal" (``server/rating/calculation/ema.py`` and ``rr.py``).

Rule by rule:

* **Base rank** [EMA-2010 "Calculation", EMA-2018 "Base rank"]: the number of players less the
  player's place, divided by the number of players less one, times 1000: the winner 1000, the last 0.
  A whole number: the EMA's example gives one ("number 75 out of 100 ... 252"), and [REIMPL] round to
  one to match the published lists (mahjong-portal: "for ema we had to round base rank"). The EMA's
  example rounds 252.53 down, the reimplementations to the nearest (253), as this module, and a half to
  the even number (16th of 17, 62.5: 62), as they do: the EMA's text is ambiguous there, and its
  published base ranks show no 1-point difference that a half rounded up would make. Tied players share
  a place (1, 2, 2, 4) and its base rank: the EMA's text says nothing of ties (riichi.wiki reports the
  EMA gave tied players "the best possible rating").
* **Tournament weight** [EMA-2018 "Weight calculation"]: TOTAL_MERS = Weight_duration + Weight_players
  + Weight_countries + Weight_qualif: 1, 2, 3 for one, two, three days; players +0 up to 40, +0.5 for
  41 to 80, +1 above 80, substitutes counted, three at most (note (2)); countries +0 up to 5, +0.5 for 6
  to 9, +1 from 10 (the page in force; its 2018 announcement copy says "6 <= X <= 10" and "X > 10");
  +1 when the players had to qualify. Longer than three days: as three (the table stops there; so do
  [REIMPL], whose 5-day OEMC weighs 6).
* **Decay by age** [GA-2017 "the last two years", EMA-COVID]: a result counts until the day two years
  after the tournament, that day included (the freeze of 1 April 2020 kept "tournaments from April 1st
  2018"). Full weight the first year, half the second: [REIMPL] (the EMA's text read says only "the last
  two years"). A year is a calendar year from the tournament's last day (29 February: 28 February of a
  year without one); that day included in the first year. Which day of a tournament counts is not in
  the EMA's text: the last here, as mahjong-portal. The COVID freeze (2020-2022) is not modelled.
* **Averaging** [GA-2017-MINUTES, GA-2017]: ranking = (Part A + Part B) / 2. Part A: the weighted
  average of the player's best results by base rank, five and then 80 % of the others rounded up; Part
  B: the weighted average of the best four. A result's weight is its tournament's weight times its
  decay. Missing results (fewer than five for Part A, four for Part B) count as base rank 0 with
  weight 1, and a player with fewer than two results that count is not ranked: [EMA-2010 "Minimum
  requirement"] ("a result of 0 (weight 1) for each missing tournament", "at least two tournaments to
  appear on the ranking"), kept in 2018 by [REIMPL]. Equal base ranks: Part A keeps the more recent
  result, Part B the heavier (ldekerg, inferred from the published lists; the EMA's text is silent).
* **Display**: the ranking to two decimals, half up (the EMA's text read says nothing of it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

BASE = 1000
# Weight_duration: 1, 2, 3 for one, two, three days; a longer event as three days.
MAX_DAYS = 3
# Weight_players: +0.5 above 40, +1 above 80; at most three substitutes count.
PLAYERS_HALF, PLAYERS_FULL, MAX_SUBSTITUTES = 40, 80, 3
# Weight_countries: +0.5 from 6 countries, +1 from 10.
COUNTRIES_HALF, COUNTRIES_FULL = 6, 10
# The decay by age: full weight up to FULL_YEARS after the tournament's last day, half up to HALF_YEARS.
FULL_YEARS, HALF_YEARS = 1, 2
# The averaging: Part A keeps the best PART_A_FIRST and PART_A_SHARE of the others (rounded up); Part B
# the best PART_B; at least MINIMUM_RESULTS results that count to be ranked.
PART_A_FIRST, PART_A_SHARE, PART_B, MINIMUM_RESULTS = 5, Fraction(4, 5), 4, 2
HUNDREDTH = Decimal("0.01")


def base_rank(place: int, players: int) -> Fraction:
    """1000 x (players - place) / (players - 1) to the nearest whole number, a half to the even one (16th
    of 17: 62.5 -> 62; 14th of 17: 187.5 -> 188): the winner 1000, the last 0. The even number is what
    the reimplementations that match the EMA's published lists give, and the published base ranks show
    none of the 1-point differences a half rounded up would make (docs/ratings.md)."""
    if players < 2:
        raise ValueError("players: a ranked tournament has at least two players")
    if not 1 <= place <= players:
        raise ValueError(f"place: between 1 and {players}")
    beaten, others = players - place, players - 1
    # ``round`` of a Fraction is exact and sends a half to the even number.
    return Fraction(round(Fraction(BASE * beaten, others)))


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


def years_after(day: date, years: int) -> date:
    """The same day ``years`` later; 29 February gives 28 February of a year without one."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def decay(ended_on: date, as_of: date) -> Fraction:
    """How much a result counts on ``as_of``: 1 up to the day a year after the tournament's last day
    (included), 1/2 up to the day two years after (included), then 0; 0 before the tournament has
    ended."""
    if as_of < ended_on or as_of > years_after(ended_on, HALF_YEARS):
        return Fraction(0)
    return Fraction(1) if as_of <= years_after(ended_on, FULL_YEARS) else Fraction(1, 2)


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
    # Equal base ranks: Part A keeps the most recent first, Part B the heaviest (ldekerg's reading of the
    # published lists; the EMA's text is silent).
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
    "years_after",
]
