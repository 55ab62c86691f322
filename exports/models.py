"""Export jobs: one file of one tournament, produced in the background (``exports.services``) and kept
until it expires."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


def export_upload_to(instance: ExportJob, filename: str) -> str:
    return f"exports/{instance.tournament_id}/{instance.pk or 'new'}-{filename}"


class ExportJob(models.Model):
    """One export of a tournament, produced in the background and kept until it expires."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="export_jobs")
    exporter = models.CharField(max_length=40)  # the identifier of a registered exporter
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    progress = models.FloatField(default=0.0)
    file = models.FileField(upload_to=export_upload_to, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=120, blank=True)
    error = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # The language the file is written in: the asker's own choice (the switcher's cookie or the browser's),
    # blank when they made none; the task then writes the tournament's default language, else the site's.
    language = models.CharField(max_length=16, blank=True, default="", db_default="")
    # The scheme and host of the request that asked for the file (``https://club.example``): the absolute
    # addresses in it (QR codes) are made on it when the site's SITE_URL is not set.
    site_address = models.CharField(max_length=300, blank=True, default="", db_default="")
    # Background-job bookkeeping (tournament.services.jobs): the last sign of life (when the task was sent,
    # then with each progress update), how many deliveries have started it, and the latest one's task id
    # (with database defaults, so that rows loaded from an archive need not name them).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempt = models.PositiveIntegerField(default=0, db_default=0)
    task_id = models.CharField(max_length=64, blank=True, db_default="")

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.exporter} export of {self.tournament}: {self.state}"
