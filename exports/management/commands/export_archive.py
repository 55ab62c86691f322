"""Write a tournament's archive (the lossless JSON backup, docs/exports.md), or with ``--series`` a series'
archive (the series, its tournaments' archives and its persons), to a file or standard output."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exports.archive.dump import export_archive
from exports.archive.series import export_series_archive
from tournament.models import Series, Tournament


class Command(BaseCommand):
    help = (
        "Export a tournament as a JSON archive (everything: players, seating, score sheets, penalties...), "
        "or with --series a series (its settings, each of its tournaments' archives, its persons)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the tournament's slug")
        parser.add_argument("--series", metavar="SLUG", help="export the series of this slug instead")
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        slug, series_slug = options.get("slug"), options.get("series")
        if bool(slug) == bool(series_slug):
            raise CommandError("give a tournament's slug, or --series and a series' slug (one of the two)")
        if series_slug:
            try:
                series = Series.objects.get(slug=series_slug)
            except Series.DoesNotExist:
                raise CommandError(f"no series has the slug {series_slug!r}") from None
            name, data = series.name, export_series_archive(series)
        else:
            try:
                tournament = Tournament.objects.get(slug=slug)
            except Tournament.DoesNotExist:
                raise CommandError(f"no tournament has the slug {slug!r}") from None
            name, data = tournament.name, export_archive(tournament)
        output = options.get("output")
        if output and output != "-":
            Path(output).write_bytes(data)
            self.stderr.write(f"Wrote the archive of {name} to {output} ({len(data):,} bytes)")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
