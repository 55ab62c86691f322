"""The REST API of exports, under ``/api/tournaments/{tournament_pk}/`` (docs/api.md).

Everything the exports page does: list the exporters this user may run, request one (202, the job
queued; the same export still under way is handed back), poll the job, download its file. With a token
or a session; anonymous callers may run the public exporters of a public tournament, as on the page.
Refusals come from ``exports.services`` and take the API's error format (404 for an exporter or job that
does not exist for the user, 403 for an export not open to them, 409 for a file not ready, 410 for an
expired one). Messages follow Accept-Language; a requested file is written in that language too.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from exports import services
from exports.models import ExportJob
from exports.serializers import ExporterSerializer, ExportJobSerializer, ExportRequestSerializer
from exports.views import asked_address, asked_language
from tournament.api.base import TournamentScopedViewSet


@extend_schema(tags=["exports"])
class ExporterViewSet(TournamentScopedViewSet):
    """The exports this user may run in this tournament."""

    serializer_class = ExporterSerializer
    permission_classes = [AllowAny]
    pagination_class = None

    @extend_schema(summary="List the exports this user may run")
    def list(self, request: Request, tournament_pk: int) -> Response:
        return Response(
            ExporterSerializer(services.exporters_for(request.user, self.tournament), many=True).data
        )


@extend_schema(tags=["exports"])
class ExportJobViewSet(TournamentScopedViewSet):
    """Export jobs: requested, produced in the background, downloaded until they expire."""

    serializer_class = ExportJobSerializer
    permission_classes = [AllowAny]

    def get_queryset(self) -> QuerySet[ExportJob]:
        if self.schema_only():
            return ExportJob.objects.none()
        user = self.request.user
        if not user.is_authenticated:
            return ExportJob.objects.none()
        allowed = [exporter.identifier for exporter in services.exporters_for(user, self.tournament)]
        return ExportJob.objects.filter(tournament=self.tournament, requested_by=user, exporter__in=allowed)

    @extend_schema(summary="List the exports this user asked for, latest first")
    def list(self, request: Request, tournament_pk: int) -> Response:
        page = self.paginate_queryset(self.get_queryset().order_by("-requested_at"))
        return self.get_paginated_response(ExportJobSerializer(page, many=True).data)

    @extend_schema(
        summary="Request an export; it is produced in the background",
        request=ExportRequestSerializer,
        responses={
            202: OpenApiResponse(ExportJobSerializer, description="The job, queued (or still under way).")
        },
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        serializer = ExportRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = services.request_export(
            self.tournament,
            request.user,
            serializer.validated_data["exporter"],
            asked_language(request),
            asked_address(request),
        )
        return Response(ExportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(summary="An export job: state, progress, and where its file is once done")
    def retrieve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        job = services.access_export_job(request.user, self.tournament, int(pk))
        return Response(ExportJobSerializer(job).data)

    @extend_schema(
        summary="Download the file of a finished export",
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY, description="The file."),
            409: OpenApiResponse(description="Not ready yet."),
            410: OpenApiResponse(description="Expired: ask for it again."),
        },
    )
    @action(detail=True, methods=["get"])
    def download(self, request: Request, tournament_pk: int, pk: int) -> FileResponse:
        job = services.job_for_download(request.user, self.tournament, int(pk))
        response = FileResponse(
            job.file.open("rb"), as_attachment=True, filename=job.filename, content_type=job.content_type
        )
        response["Cache-Control"] = "private, no-store"
        return response
