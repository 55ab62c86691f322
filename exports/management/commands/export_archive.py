"""Write a tournament's archive (the lossless JSON backup, docs/exports.md) to a file or standard output."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exports.archive.dump import export_archive
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament as a JSON archive (everything: players, seating, score sheets, penalties...)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament has the slug {options['slug']!r}") from None
        data = export_archive(tournament)
        output = options.get("output")
        if output and output != "-":
            Path(output).write_bytes(data)
            self.stderr.write(f"Wrote the archive of {tournament.name} to {output} ({len(data):,} bytes)")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
