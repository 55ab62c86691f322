"""Seating: every hanchan table by table, and every player's table and wind in every hanchan, in the
reader's language."""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries

from exports.exporters.base import Column, ListExporter, Progress, Sheet, register
from tournament.core.collation import by_name
from tournament.models import Player, Seat, Tournament

WINDS = Seat.Wind.labels  # East to North, translated when read


@register
class SeatingExporter(ListExporter):
    name = "seating"
    title = gettext_lazy("Seating")
    position = 20
    description = gettext_lazy("By hanchan and table; and one row per player with every table and wind.")

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        seats = Seat.objects.filter(round__tournament=tournament)
        if tournament.seating_publication == tournament.SeatingPublication.BY_HANCHAN:
            seats = seats.exclude(round__published_at=None)  # a public file: the published hanchan only
        seats = list(
            seats.order_by("round__number", "table__number", "wind").values_list(
                "round__number",
                "table__number",
                "wind",
                "player__name",
                "replaces__name",
                "player__is_substitute",
            )
        )
        progress(0.3)
        tables: dict[tuple[int, int], list[str]] = {}
        notes: dict[tuple[int, int], list[str]] = {}
        by_player: dict[str, dict[int, tuple[int, int]]] = {}
        for round_number, table, wind, name, replaces, is_substitute in seats:
            tables.setdefault((round_number, table), ["", "", "", ""])[wind] = name
            if replaces:
                note = _("{name} sits in for {replaced}").format(name=name, replaced=replaces)
                notes.setdefault((round_number, table), []).append(note)
            elif is_substitute:
                note = _("{name} is a substitute (not ranked)").format(name=name)
                notes.setdefault((round_number, table), []).append(note)
            by_player.setdefault(name, {})[round_number] = (table, wind)
        rounds = max([tournament.hanchan_count, *(key[0] for key in tables)])

        winds = [str(wind) for wind in WINDS]
        yield Sheet(
            _("By table"),
            [
                Column(_("Hanchan"), 9),
                Column(_("Table"), 7),
                *(Column(wind, 26) for wind in winds),
                Column(_("Note"), 30),
            ],
            ([*key, *names, "; ".join(notes.get(key, []))] for key, names in tables.items()),
            key="by table",
        )
        progress(0.6)
        country_names = dict(countries)
        players = by_name(
            Player.objects.filter(tournament=tournament).values_list("name", "country", "is_substitute"),
            itemgetter(0),
        )

        def player_rows() -> Iterator[list[Any]]:
            for name, code, is_substitute in players:
                places = by_player.get(name, {})
                row: list[Any] = [name, str(country_names.get(code, code)) if code else ""]
                row.append(substitute if is_substitute else "")
                for number in range(1, rounds + 1):
                    table, wind = places.get(number, (None, None))
                    row += [table, winds[wind] if wind is not None else ""]
                yield row

        substitute = _("Substitute")
        columns = [Column(_("Name"), 28), Column(_("Country"), 16), Column(_("Note"), 11)]
        for number in range(1, rounds + 1):
            columns += [
                Column(_("H{number} table").format(number=number), 9),
                Column(_("H{number} wind").format(number=number), 8),
            ]
        yield Sheet(_("By player"), columns, player_rows(), key="by player")
