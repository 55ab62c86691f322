"""The tournament archive as an export (organisers): ``exports.archive.dump`` writes it. Its keys and
values are data, English in every language (``import_archive`` reads them back)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from exports.archive.dump import export_archive
from exports.exporters.base import JSON, Exporter, ExportFile, Progress, no_progress, register
from tournament.models import StaffRole, Tournament


@register
class ArchiveExporter(Exporter):
    identifier = "archive_json"
    position = 90
    verbose_name = gettext_lazy("Tournament archive (JSON)")
    description = gettext_lazy(
        "Everything about the tournament, to back it up or move it; import_archive loads it."
    )
    permission = StaffRole.Role.ORGANISER

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        return ExportFile(f"{tournament.slug}-archive.json", JSON, export_archive(tournament, progress))
