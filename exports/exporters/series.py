"""Exports of a series: its standings as the public sees them, in the reader's language.

A series is a public page (docs/series.md): everyone, its staff included, sees the same standings, made of
what the public sees of each of its tournaments (``tournament.queries.series_db.series_table``: no private
tournament, no hidden hanchan, standings published per completed hanchan as of that hanchan). Its exports
hold exactly that, and nothing the page does not show (no EMA id, no country): anyone who sees the page may
have them.

A series exporter is a small class like a tournament's list exporter: ``sheets(series, progress)`` yields
``Sheet``s, and one registered per format (``series_standings_xlsx``, ``series_standings_csv``) writes
them through the same writers (``base.list_file``). They have a registry of their own: a tournament's
exports page never offers them, nor the other way round.

One series export is not the public's: the series archive (``series_archive_json``, ``exports.archive.
series``), whose ``permission`` is ``SERIES_ORGANISER``: whoever may change the series and organises every
one of its tournaments (``tournament.queries.access.can_archive_series``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from exports.archive.series import export_series_archive
from exports.exporters.base import JSON, PUBLIC, SCORE_FORMAT, Column, ExportFile, Sheet, file_stem, list_file
from exports.progress import Progress, no_progress
from tournament.models import Series
from tournament.queries.series_db import series_table

# The permission of a series export that only whoever may change the series and organises every one of its
# tournaments may have (``tournament.queries.access.can_archive_series``); the others are ``PUBLIC``.
SERIES_ORGANISER = "series_organiser"


class SeriesListExporter:
    """One kind of series export, in one format (``xlsx`` or ``csv``)."""

    name: ClassVar[str] = ""
    title: ClassVar[Any] = ""  # gettext_lazy
    description: ClassVar[Any] = ""  # gettext_lazy
    formats: ClassVar[tuple[str, ...]] = ("xlsx", "csv")
    permission: ClassVar[str] = PUBLIC
    FORMAT_LABELS: ClassVar[dict[str, str]] = {"xlsx": "Excel", "csv": "CSV"}

    def __init__(self, file_format: str) -> None:
        if file_format not in self.FORMAT_LABELS:
            raise ValueError(f"file_format: {file_format!r} is not one of {sorted(self.FORMAT_LABELS)}")
        self.file_format = file_format
        self.identifier = f"{self.name}_{file_format}"
        self.verbose_name = format_lazy("{} ({})", self.title, self.FORMAT_LABELS[file_format])

    def sheets(self, series: Series, progress: Progress) -> Iterator[Sheet]:
        raise NotImplementedError

    def render(self, series: Series, progress: Progress = no_progress) -> ExportFile:
        stem = file_stem(series.slug, self.name)
        return list_file(self.sheets(series, progress), self.file_format, stem, series.name, str(self.title))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.identifier}>"


class SeriesStandingsExporter(SeriesListExporter):
    """The series' standings (rank, player, series score, events, and the score each event gave), then
    every entrant's results event by event: the event's rank and total, what it gives under the series'
    rule and whether it counts (``best_n`` leaves the others out)."""

    name = "series_standings"
    title = gettext_lazy("Series standings")
    description = gettext_lazy(
        "The series' ranking with what each event gave every player; each player's results event by "
        "event, and whether they count."
    )

    def sheets(self, series: Series, progress: Progress) -> Iterator[Sheet]:
        table = series_table(series)
        progress(0.5)
        events = table["events"]
        columns = [
            Column(_("Rank"), 6),
            Column(_("Name"), 28),
            Column(_("Native name"), 18),
            Column(_("Score"), 9, SCORE_FORMAT),
            Column(_("Events"), 7),
            *(Column(event["name"], 12, SCORE_FORMAT) for event in events),
        ]

        def standings() -> Iterator[list[Any]]:
            for row in table["rows"]:
                scores = {result["event"]: Decimal(result["score"]) for result in row["results"]}
                yield [
                    row["rank"],
                    row["name"],
                    row["native_name"],
                    Decimal(row["score"]),
                    row["events"],
                    *(scores.get(event["id"]) for event in events),
                ]

        yield Sheet(_("Standings"), columns, standings(), key="standings")
        names = {event["id"]: event["name"] for event in events}
        dates = {event["id"]: date.fromisoformat(event["starts_on"]) for event in events}
        result_columns = [
            Column(_("Name"), 28),
            Column(_("Event"), 28),
            Column(_("Date"), 11),
            Column(_("Rank"), 6),
            Column(_("Total"), 9, SCORE_FORMAT),
            Column(_("Score"), 9, SCORE_FORMAT),
            Column(_("Counts"), 8),
        ]

        def results() -> Iterator[list[Any]]:
            for row in table["rows"]:
                for result in row["results"]:
                    yield [
                        row["name"],
                        names[result["event"]],
                        dates[result["event"]],
                        result["rank"],
                        Decimal(result["total"]),
                        Decimal(result["score"]),
                        _("yes") if result["counts"] else _("no"),
                    ]

        yield Sheet(_("Results"), result_columns, results(), key="results")


class SeriesArchiveExporter:
    """The series' archive (``exports.archive.series``): the series, each of its tournaments' archives and
    the persons its players link to, in one JSON file that ``import_archive`` loads. Its keys and values
    are data, English in every language."""

    identifier = "series_archive_json"
    verbose_name = gettext_lazy("Series archive (JSON)")
    description = gettext_lazy(
        "The series, the archive of each of its tournaments and the persons its players are, to back it up "
        "or move it; import_archive loads it."
    )
    permission = SERIES_ORGANISER

    def render(self, series: Series, progress: Progress = no_progress) -> ExportFile:
        return ExportFile(f"{series.slug}-series-archive.json", JSON, export_series_archive(series, progress))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.identifier}>"


SeriesExporter = SeriesListExporter | SeriesArchiveExporter
_registry: dict[str, SeriesExporter] = {}


def register(cls: type[SeriesListExporter]) -> type[SeriesListExporter]:
    for file_format in cls.formats:
        exporter = cls(file_format)
        _registry[exporter.identifier] = exporter
    return cls


register(SeriesStandingsExporter)
_registry[SeriesArchiveExporter.identifier] = SeriesArchiveExporter()


def series_exporters() -> list[SeriesExporter]:
    """Every series exporter, in the order of registration."""
    return list(_registry.values())


def get_series_exporter(identifier: str) -> SeriesExporter | None:
    return _registry.get(identifier)
