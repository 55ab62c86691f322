"""The results file the EMA ranking (MERS) needs from a riichi tournament.

One row per ranked player, in ranking order (the tie-breaks in the tournament's order): rank, EMA
number, last name, first name, country, tournament points and table points. Choices this file makes,
documented in docs/exports.md:

* names: the player's registered first and last names; a player registered with one ``name`` only has it
  split when it is two words ("Ana Alves"); a longer one cannot be split safely ("Pieter de Vries",
  "Nguyen Van An"), so all of it is the last name (``split_name``).
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
from tournament.models import Player, StaffRole, Tournament
from tournament.standings_db import load_standings


def split_name(name: str, first_name: str = "", last_name: str = "") -> tuple[str, str]:
    """(first name, last name): the ones registered; else a two-word name split in two; a longer one
    cannot be split safely ("Dunlaith O Briain", "Nguyen Van An"), so all of it is the last name."""
    if first_name or last_name:
        return first_name, last_name
    words = name.split()
    if len(words) == 2:
        return words[0], words[1]
    return "", " ".join(words)


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
                first, last = split_name(row.name, first_name, last_name)
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
