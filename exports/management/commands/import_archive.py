"""Load a tournament archive (written by export_archive or the archive export) into this database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exports.archive.load import import_archive
from tournament.models import Round, Table
from tournament.refusal import Refusal


class Command(BaseCommand):
    help = (
        "Import a tournament from its JSON archive, in one transaction. Refused when a tournament with "
        "its slug exists. Users it does not find are created with unusable passwords."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive file ('-' for standard input)")
        parser.add_argument("--slug", help="import under this slug instead of the archive's")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(f"{name}: {exc.strerror}") from None
        try:
            tournament = import_archive(data, slug=options.get("slug"))
        except Refusal as exc:
            raise CommandError(str(exc)) from None
        rounds = Round.objects.filter(tournament=tournament).count()
        tables = Table.objects.filter(round__tournament=tournament).count()
        self.stdout.write(
            f"Imported {tournament.name} ({tournament.slug}): {tournament.players.count()} players, "
            f"{rounds} hanchan, {tables} tables."
        )
