"""Rating lists over many tournaments (the site's, a series'): the games and the MERS results of their
entrants, from plain rows read elsewhere. Plain Python: no Django.

An **entrant** is a person (``"person:<id>"``), or a registration not linked to one
(``"player:<id>"``), which then counts alone, as in a series' standings (docs/series.md).

* The skill rating (``skill.rate``) takes every hanchan at a table of four, in the order of play: the
  tournaments by their first day (then their id), in each the hanchan by number, then the tables by
  number. The rows come in that order; a table whose four results are not all there (a hanchan the
  reader may not see) is not a game.
* The MERS ranking (``mers.ranking_list``) takes each MERS event's final places: a ranked player's place
  among the ranked players of the event gives the base rank; the event's weight is made of its days
  (from its first to its last day), its players and substitutes (registrations), its countries (the
  registrations' countries; none known counts as one) and whether its players had to qualify.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from tournament.ratings.mers import Result, base_rank, tournament_weight
from tournament.ratings.skill import Game

# (tournament, hanchan, table, entrant, place), in the order of play.
SeatRow = tuple[int, int, int, str, int]


def entrant(person: int | None, player: int) -> str:
    """The entrant of a registration: its person, or the registration itself when it has none."""
    return f"person:{person}" if person is not None else f"player:{player}"


def entrant_person(key: str) -> int | None:
    """The person's id of an entrant; None for a registration counting alone."""
    kind, _sep, number = key.partition(":")
    return int(number) if kind == "person" else None


def games(rows: Iterable[SeatRow]) -> list[Game]:
    """The tables of four of ``rows`` as games, in the order of the rows; ``key``: (tournament, hanchan,
    table)."""
    tables: dict[tuple[int, int, int], list[tuple[str, int]]] = {}
    for tournament, hanchan, table, who, place in rows:
        tables.setdefault((tournament, hanchan, table), []).append((who, place))
    return [
        Game(key, tuple(who for who, _place in seats), tuple(place for _who, place in seats))
        for key, seats in tables.items()
        if len(seats) == 4 and len({who for who, _place in seats}) == 4
    ]


@dataclass(frozen=True, slots=True)
class MersEvent:
    """A MERS event as the ranking needs it: each ranked entrant's place (1 to the number of ranked
    players, tied places shared), and the inputs of its weight."""

    tournament: int
    starts_on: date
    ends_on: date
    places: Mapping[str, int]
    players: int  # registrations that are not substitutes
    substitutes: int
    countries: int  # distinct countries of the registrations
    qualified: bool  # the players had to qualify

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days + 1

    def weight(self) -> Fraction:
        """The event's MERS weight (``mers.tournament_weight``)."""
        return tournament_weight(
            days=self.days,
            players=max(self.players, 2),
            countries=max(self.countries, 1),
            qualification=self.qualified,
            substitutes=self.substitutes,
        )


def mers_results(events: Sequence[MersEvent]) -> dict[str, list[Result]]:
    """Each entrant's MERS results: one per event they were ranked in (an event of fewer than two ranked
    players ranks no one)."""
    found: dict[str, list[Result]] = {}
    for event in events:
        field = len(event.places)
        if field < 2:
            continue
        weight = event.weight()
        for who, place in event.places.items():
            found.setdefault(who, []).append(
                Result(event.tournament, base_rank(place, field), weight, event.ends_on)
            )
    return found


__all__ = ["MersEvent", "SeatRow", "entrant", "entrant_person", "games", "mers_results"]
