"""The exports' API representations: an exporter a user may run, and a job with its progress."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from exports import services
from exports.exporters import Exporter
from exports.models import ExportJob


class ExporterSerializer(serializers.Serializer):  # type: ignore[type-arg]
    identifier = serializers.CharField(help_text="What a request names, e.g. standings_xlsx.")
    name = serializers.CharField(source="verbose_name")
    description = serializers.CharField()
    permission = serializers.CharField(
        help_text="Who may run it: public (whoever sees the tournament), referee, head_referee or organiser."
    )

    def to_representation(self, instance: Exporter) -> dict[str, Any]:
        return super().to_representation(instance)  # type: ignore[no-any-return]


class ExportRequestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    exporter = serializers.CharField(
        max_length=40, help_text="An exporter's identifier (GET .../exporters/)."
    )


class ExportJobSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    name = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField(
        help_text="Where the file is, once the job is done and until it expires; null before and after."
    )

    class Meta:
        model = ExportJob
        fields = (
            "id",
            "exporter",
            "name",
            "state",
            "progress",
            "error",
            "filename",
            "requested_at",
            "finished_at",
            "expires_at",
            "download_url",
        )
        read_only_fields = fields

    def get_name(self, job: ExportJob) -> str:
        exporter = services.get_exporter(job.exporter)
        return exporter.verbose_name if exporter else job.exporter

    def get_download_url(self, job: ExportJob) -> str | None:
        if not services.is_ready(job):
            return None
        return reverse("api:export-download", kwargs={"tournament_pk": job.tournament_id, "pk": job.pk})
