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

A result that cannot be rated (a place outside 1 to 4 at a table, a person seated twice at one table or
at two tables of one hanchan, a person ranked twice in one event, a final place outside the field) is
left out of the list, with the reason (``LeftOut``), instead of stopping the whole list: the rest of the
list is computed as if it had not been stored (docs/ratings.md, "Results that cannot be rated").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from tournament.ratings.mers import Result, base_rank, tournament_weight
from tournament.ratings.skill import Game

# (tournament, hanchan, table, entrant, place), in the order of play; the entrant is a key of ``entrant``
# (a tournament's own list: a registration's id).
SeatRow = tuple[int, int, int, Hashable, int]


def entrant(person: int | None, player: int) -> str:
    """The entrant of a registration: its person, or the registration itself when it has none."""
    return f"person:{person}" if person is not None else f"player:{player}"


def entrant_person(key: str) -> int | None:
    """The person's id of an entrant; None for a registration counting alone."""
    kind, _sep, number = key.partition(":")
    return int(number) if kind == "person" else None


SEATS = 4  # the players of a table, and the places a table gives (1 to 4)


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A result left out of a list because it cannot be rated: where it is (the tournament, and the
    hanchan and table of a skill game, or the entrant of a MERS result), the ``rule`` it breaks and a
    sentence saying how."""

    tournament: int
    rule: str
    detail: str
    hanchan: int | None = None
    table: int | None = None
    entrant: str | None = None


def games(rows: Iterable[SeatRow]) -> list[Game]:
    """The tables of four of ``rows`` that can be rated, as games (``rated_games``)."""
    return rated_games(rows)[0]


def rated_games(rows: Iterable[SeatRow]) -> tuple[list[Game], list[LeftOut]]:
    """The tables of four of ``rows`` as games, in the order of the rows (``key``: tournament, hanchan,
    table), and the tables left out because they cannot be rated. A table with fewer than four results
    is no game and no fault (a hanchan the reader may not see). Left out: a table of more than four
    results, a place outside 1 to 4, an entrant seated twice at the table, and every table of an
    entrant who sits at two tables of one hanchan (one person registered twice): none of these is a
    game that was played as stored."""
    tables: dict[tuple[int, int, int], list[tuple[Hashable, int]]] = {}
    for tournament, hanchan, table, who, place in rows:
        tables.setdefault((tournament, hanchan, table), []).append((who, place))
    tables_of: dict[tuple[int, int, Hashable], list[int]] = {}
    for (tournament, hanchan, table), seats in tables.items():
        for who in {who for who, _place in seats}:
            tables_of.setdefault((tournament, hanchan, who), []).append(table)
    found, left_out = [], []
    for key, seats in tables.items():
        if len(seats) < SEATS:
            continue
        fault = _table_fault(key, seats, tables_of)
        if fault is not None:
            left_out.append(fault)
            continue
        found.append(Game(key, tuple(who for who, _place in seats), tuple(place for _who, place in seats)))
    return found, left_out


Tables = Mapping[tuple[int, int, Hashable], list[int]]  # (tournament, hanchan, entrant): their tables


def _table_fault(
    key: tuple[int, int, int], seats: list[tuple[Hashable, int]], tables_of: Tables
) -> LeftOut | None:
    """Why the table ``key`` cannot be rated; None when it can."""
    tournament, hanchan, table = key

    def fault(rule: str, detail: str, who: Hashable | None = None) -> LeftOut:
        where = f"hanchan {hanchan}, table {table}: {detail}"
        shown = None if who is None else str(who)
        return LeftOut(tournament, rule, where, hanchan=hanchan, table=table, entrant=shown)

    if len(seats) > SEATS:
        return fault("table-size", f"{len(seats)} results at a table of {SEATS}")
    for who, place in seats:
        if not 1 <= place <= SEATS:
            return fault("place-range", f"place {place} outside 1 to {SEATS}", who)
    players = [who for who, _place in seats]
    for who in players:
        if players.count(who) > 1:
            return fault("seated-twice", f"{who} holds two seats at the table", who)
        elsewhere = [other for other in tables_of[(tournament, hanchan, who)] if other != table]
        if elsewhere:
            return fault("two-tables", f"{who} also sits at table {elsewhere[0]} of this hanchan", who)
    return None


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
    # The ranked players the places are out of (the base rank's N): the places' number unless a result
    # was left out (``mers_places``), whose player still counts in the field as the standings rank him.
    ranked: int | None = None

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
        ranked = len(event.places) if event.ranked is None else event.ranked
        if ranked < 2:
            continue
        weight = event.weight()
        for who, place in event.places.items():
            found.setdefault(who, []).append(
                Result(event.tournament, base_rank(place, ranked), weight, event.ends_on)
            )
    return found


@dataclass(frozen=True, slots=True)
class EventPlaces:
    """A MERS event's places that can be rated (``mers_places``), out of ``ranked`` ranked players."""

    places: dict[str, int]
    ranked: int
    left_out: list[LeftOut] = field(default_factory=list)


def mers_places(tournament: int, ranked_rows: Sequence[tuple[str, int]]) -> EventPlaces:
    """The final places of an event's ranked registrations (entrant, place) as the MERS ranking takes
    them, out of as many players as there are ranked registrations. Left out: every place of an
    entrant ranked twice (one person registered twice: which result would be theirs?) and a place
    outside 1 to the number of ranked players; the others keep the places the standings give them."""
    ranked = len(ranked_rows)
    counts: dict[str, int] = {}
    for who, _place in ranked_rows:
        counts[who] = counts.get(who, 0) + 1
    places: dict[str, int] = {}
    left_out = []
    for who, place in ranked_rows:
        if counts[who] > 1:
            detail = f"{who} is ranked {counts[who]} times in the event (place {place})"
            left_out.append(LeftOut(tournament, "ranked-twice", detail, entrant=who))
        elif not 1 <= place <= ranked:
            detail = f"place {place} outside 1 to {ranked}"
            left_out.append(LeftOut(tournament, "mers-place-range", detail, entrant=who))
        else:
            places[who] = place
    return EventPlaces(places, ranked, left_out)


__all__ = [
    "EventPlaces",
    "LeftOut",
    "MersEvent",
    "SeatRow",
    "entrant",
    "entrant_person",
    "games",
    "mers_places",
    "mers_results",
    "rated_games",
]
