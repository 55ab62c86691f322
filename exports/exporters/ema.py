"""The results file the EMA ranking (MERS) needs from a riichi tournament.

One row per ranked player, in ranking order (the tie-breaks in the tournament's order): rank, EMA
number, last name, first name, country, tournament points and table points. Choices this file makes,
documented in docs/exports.md:

* names: the player's registered Latin first and last names (the import splits a one-column name only
  where it is certain and has the organiser confirm the others). A player registered before with a name
  only has it split here where that is certain ("Daan de Vries": "de Vries", "Daan"); never a name in
  another script (山田 太郎 is the native name): those cells stay empty, and the exports page lists
  every such player before the file is made (``missing_latin_names``).
* teams: the file has no column for them; team results go in the standings export's Teams sheet.
* country: the ISO 3166-1 alpha-3 code (DEU, NLD, GBR); empty when the player has no country.
* tournament points: the overall score of the standings (hanchan scores less penalties), exact.
* table points: the sum of the player's final table points at the signed tables (raw points, e.g.
  37,400 + 26,600 = 64,000).
* EMA number: empty for a player without one (the EMA counts them as non-EMA players).
* language: the sheet's name and column headers stay English whatever the reader's language: the file
  goes to the EMA, whose ranking reads these headers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy
from django_countries import countries

from exports.exporters.base import (
    POINTS_FORMAT,
    SCORE_FORMAT,
    Column,
    ListExporter,
    Progress,
    Sheet,
    register,
)
from tournament.core.names import is_native_script, split_name
from tournament.models import Player, StaffRole, Tournament
from tournament.queries.standings_db import load_standings


def latin_names(name: str, first_name: str = "", last_name: str = "") -> tuple[str, str]:
    """(first name, last name) in Latin script: the ones registered; else the name split where that is
    certain (``tournament.core.names.split_name``); else empty."""
    if first_name or last_name:
        return ("", "") if is_native_script(first_name + last_name) else (first_name, last_name)
    split = split_name(name)
    if split.reason == split.ONE_WORD:
        return "", split.last  # a single word is the last name (the first stays empty, and is listed)
    return (split.first, split.last) if split.certain else ("", "")


def missing_latin_names(tournament: Tournament) -> list[Player]:
    """The ranked players whose Latin last or first name the EMA results file would leave empty."""
    players = Player.objects.filter(tournament=tournament, is_substitute=False, disqualified=False)
    return [p for p in players.order_by("name") if not all(latin_names(p.name, p.first_name, p.last_name))]


@register
class EMAResultsExporter(ListExporter):
    name = "ema_results"
    title = gettext_lazy("EMA results")
    position = 40
    permission = StaffRole.Role.ORGANISER
    description = gettext_lazy(
        "The results sheet for the EMA ranking: one row per ranked player (English headers, as the EMA "
        "reads them)."
    )

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        standings = load_standings(tournament.pk)
        progress(0.5)
        details = {
            pk: (ema_id, countries.alpha3(code) or "" if code else "", first, last)
            for pk, ema_id, code, first, last in Player.objects.filter(tournament=tournament).values_list(
                "pk", "ema_id", "country", "first_name", "last_name"
            )
        }

        def rows() -> Iterator[list[Any]]:
            for row in standings.rows:
                if row.rank is None:
                    continue
                ema_id, country, first_name, last_name = details.get(row.player, ("", "", "", ""))
                first, last = latin_names(row.name, first_name, last_name)
                table_points = sum(result.points for result in row.by_round.values())
                yield [row.rank, ema_id, last, first, country, row.total, table_points]

        # English on purpose, whatever the reader's language (the module's docstring).
        yield Sheet(
            "Results",
            [
                Column("Rank", 6),
                Column("EMA number", 12),
                Column("Last name", 22),
                Column("First name", 22),
                Column("Country", 9),
                Column("Tournament points", 18, SCORE_FORMAT),
                Column("Table points", 14, POINTS_FORMAT),
            ],
            rows(),
        )
