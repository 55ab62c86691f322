"""The awards of a tournament (``tournament.core.awards``) from its signed sheets, limited to what the reader
may see: ``up_to`` (``standings_db.reader_cutoff`` or ``public_cutoff``: no hanchan still hidden) and
``rounds`` (``access.public_rounds``); None for either means no limit (the tournament's staff). Only the
ranked field wins: substitutes and disqualified players do not (WRCR 2015 §7.1, §7.2).

A series' awards (``series_awards_of``) read what the public sees of each of its public tournaments (its
``public_cutoff`` and public hanchan, as the series' standings do), each with its own ruleset, and are won
by the series' entrants: a person across their registrations, or a registration linked to none."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from tournament.core.awards import AWARDS, Awards, EventSheets, compute_awards, compute_series_awards
from tournament.models import Player, Series, Tournament
from tournament.queries import access
from tournament.queries.series_db import public_events
from tournament.queries.standings_db import public_cutoff
from tournament.queries.statistics_db import signed_sheets


def awards_of(tournament: Tournament, *, up_to: int | None, rounds: Collection[int] | None) -> Awards:
    """The awards the organisers chose, in the awards' order, over the sheets the reader may see."""
    sheets = signed_sheets(tournament, up_to=up_to, rounds=rounds)
    eligible = _eligible(tournament)
    # The field is checked wherever it is written (form, API, archive); an identifier no longer known is
    # skipped rather than failing the page.
    return compute_awards(sheets, tournament.ruleset(), chosen_awards(tournament.awards), eligible)


def chosen_awards(value: Any) -> list[str]:
    """The awards chosen (a tournament's or a series' ``awards``), in the awards' order."""
    return [key for key in AWARDS if isinstance(value, list) and key in value]


def _eligible(tournament: Tournament) -> set[int]:
    return set(
        Player.objects.filter(tournament=tournament, is_substitute=False, disqualified=False).values_list(
            "pk", flat=True
        )
    )


@dataclass(frozen=True, slots=True)
class SeriesEntrant:
    """A winner of a series' award: ``pk`` is the number the awards know it by, ``person`` its person
    (None: a registration linked to none), its name as its latest event the public sees wrote it."""

    pk: int
    name: str
    native_name: str
    person: int | None


def series_awards_of(series: Series) -> tuple[Awards, dict[int, SeriesEntrant]]:
    """The awards chosen for a series over what the public sees of its tournaments, and its entrants
    by the number the awards give them."""
    events = public_events(series)
    numbers: dict[str, int] = {}
    entrants: dict[int, SeriesEntrant] = {}
    per_event = []
    for event in events:
        mapping = {}
        for pk, person, name, native in Player.objects.filter(tournament=event).values_list(
            "pk", "person_id", "name", "native_name"
        ):
            key = f"person:{person}" if person is not None else f"player:{pk}"
            number = numbers.setdefault(key, len(numbers) + 1)
            entrants[number] = SeriesEntrant(number, name, native, person)  # the latest event's name
            mapping[pk] = number
        sheets = signed_sheets(event, up_to=public_cutoff(event), rounds=access.public_rounds(None, event))
        per_event.append(EventSheets(event.pk, sheets, event.ruleset(), _eligible(event), mapping))
    return compute_series_awards(per_event, chosen_awards(series.awards)), entrants


def winners_of(tournament: Tournament, awards: Awards) -> dict[int, Player]:
    """The players named by ``awards``, by id (one query)."""
    ids = {feat.player for award in awards.awards for feat in award.winners}
    return {player.pk: player for player in Player.objects.filter(tournament=tournament, pk__in=ids)}
