"""Load a tournament archive (written by export_archive or the archive export) into this database, or a
series archive (export_archive --series, or the series archive export): the file says which."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exports.archive.fields import SERIES_FORMAT
from exports.archive.load import import_archive, parse
from exports.archive.series import import_series_archive
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, Series, Table, Tournament


class Command(BaseCommand):
    help = (
        "Import a tournament from its JSON archive, or a series from its series archive, in one "
        "transaction. Refused when a tournament (or the series) with its slug exists. Users it does not "
        "find are created with unusable passwords; a series' persons are matched by EMA id."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive file ('-' for standard input)")
        parser.add_argument("--slug", help="import a tournament under this slug instead of the archive's")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(f"{name}: {exc.strerror}") from None
        try:
            archive = parse(data, "an archive")
            if isinstance(archive, dict) and archive.get("format") == SERIES_FORMAT:
                if options.get("slug"):
                    raise CommandError(
                        "--slug renames one tournament; a series archive is imported under its own slugs"
                    )
                self.report_series(import_series_archive(archive))
                return
            tournament = import_archive(data, slug=options.get("slug"))  # read within bounds again
        except Refusal as exc:
            raise CommandError(str(exc)) from None
        self.report(tournament)

    def report(self, tournament: Tournament) -> None:
        rounds = Round.objects.filter(tournament=tournament).count()
        tables = Table.objects.filter(round__tournament=tournament).count()
        self.stdout.write(
            f"Imported {tournament.name} ({tournament.slug}): {tournament.players.count()} players, "
            f"{rounds} hanchan, {tables} tables."
        )

    def report_series(self, series: Series) -> None:
        tournaments = list(series.tournaments.order_by("starts_on", "slug"))
        persons = Player.objects.filter(tournament__in=tournaments).exclude(person=None)
        self.stdout.write(
            f"Imported the series {series.name} ({series.slug}): {len(tournaments)} tournaments "
            f"({', '.join(t.slug for t in tournaments)}), "
            f"{persons.values('person').distinct().count()} persons."
        )
        for tournament in tournaments:
            self.report(tournament)
