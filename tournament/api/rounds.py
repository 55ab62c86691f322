"""The REST API of the hanchan: rounds and their seating (published, Swiss pairing, the clock), tables
(extra time, a club table taken back) and the background seating jobs.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import services
from tournament.api.base import PlayerRefSerializer, Role, TournamentScopedViewSet
from tournament.models import (
    Round,
    Seat,
    SeatingJob,
    Table,
)
from tournament.queries import access


class ClockSerializer(serializers.Serializer[Any]):
    """``tournament.core.clock.Clock.as_dict``: state, when it runs out (while running), seconds left."""

    state = serializers.ChoiceField(choices=["stopped", "running", "paused", "over"])
    ends_at = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField()


class SeatSerializer(serializers.ModelSerializer[Seat]):
    wind_name = serializers.CharField(source="get_wind_display", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    replaces = PlayerRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Seat
        fields = ("wind", "wind_name", "player", "replaces")
        read_only_fields = fields


class SheetStateSerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    version = serializers.IntegerField()


class TableSerializer(serializers.ModelSerializer[Table]):
    """A table of a hanchan: its seating, its extra minutes, the state of its score sheet."""

    round = serializers.IntegerField(source="round.number", read_only=True)
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    sheet = serializers.SerializerMethodField()
    seconds_left = serializers.SerializerMethodField(
        help_text="The hanchan clock's seconds left at this table, its extra minutes included."
    )

    class Meta:
        model = Table
        fields = ("id", "tournament", "round", "number", "extra_minutes", "seconds_left", "seats", "sheet")
        read_only_fields = fields

    @extend_schema_field(SheetStateSerializer(allow_null=True))
    def get_sheet(self, table: Table) -> dict[str, Any] | None:
        sheet = getattr(table, "sheet", None)
        return None if sheet is None else {"status": sheet.status, "version": sheet.version}

    def get_seconds_left(self, table: Table) -> float:
        return round(table.round.clock().seconds_left(timezone.now(), table.extra_minutes), 1)


class RoundTableSerializer(TableSerializer):
    class Meta(TableSerializer.Meta):
        fields = ("id", "number", "extra_minutes", "seconds_left", "seats", "sheet")
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A hanchan with its clock and its seating: every table, every seat."""

    clock = serializers.SerializerMethodField()
    seating_published = serializers.SerializerMethodField(
        help_text="Whether the public sees this hanchan's seating; without it, others get no tables."
    )
    tables = RoundTableSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ("number", "status", "mode", "starts_at", "clock", "seating_published", "tables")
        read_only_fields = fields

    @extend_schema_field(ClockSerializer())
    def get_clock(self, round_: Round) -> dict[str, object]:
        return round_.clock().as_dict(timezone.now())

    def get_seating_published(self, round_: Round) -> bool:
        return round_.seating_is_public

    def to_representation(self, round_: Round) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(round_)
        visible = self.context.get("visible_rounds")  # None: this user sees every hanchan's seating
        if visible is not None and round_.number not in visible:
            data["tables"] = []
        return data


class PublishSeatingSerializer(serializers.Serializer[Any]):
    published = serializers.BooleanField(
        default=True, help_text="true: the public sees the seating; false: staff only (before it starts)."
    )


class SwissSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-(2**31),
        max_value=2**31 - 1,
        help_text="Breaks ties between equal moves.",
    )


class ClockActionSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=["start", "pause", "extend"])
    minutes = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-24 * 60,
        max_value=24 * 60,
        help_text="For extend: minutes to add (negative to shorten).",
    )


class ExtraTimeSerializer(serializers.Serializer[Any]):
    minutes = serializers.IntegerField(
        min_value=-32768, max_value=32767, help_text="This table's extra minutes (replaces the last value)."
    )


class TakenBackSerializer(serializers.Serializer[Any]):
    """A club session's table taken back (``services.take_back_table``)."""

    round = serializers.IntegerField(source="hanchan", help_text="The hanchan the table was.")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Its four players, East to North, free again."
    )


class SeatingRequestSerializer(serializers.Serializer[Any]):
    from_round = serializers.IntegerField(
        required=False, default=1, help_text="The first hanchan to (re)generate; earlier ones are kept."
    )
    seed = serializers.IntegerField(required=False, default=0, min_value=-(2**31), max_value=2**31 - 1)
    prefer = serializers.ChoiceField(
        choices=["substitutes", "sit_out"],
        default="substitutes",
        help_text="A field not a multiple of four: substitutes complete the last table, or the last players "
        "to check in sit out (no penalty).",
    )


class SeatingChoiceSerializer(serializers.Serializer[Any]):
    choice = serializers.ChoiceField(
        choices=list(SeatingJob.PROPOSALS),
        default=SeatingJob.PROPOSALS[0],
        help_text="Which proposal of the re-seating to put in place: the fewest players moved from the "
        "published seating (the default), or the best schedule for the hanchan left.",
    )


class SeatingJobSerializer(serializers.ModelSerializer[SeatingJob]):
    """``SeatingJob.as_dict`` (state, progress, quality report, error) with when it was asked for."""

    report = serializers.JSONField(read_only=True, help_text="The quality report once done.")
    awaiting_confirmation = serializers.BooleanField(
        read_only=True,
        help_text="A re-seating done and not in place yet: POST .../apply/ puts it in place.",
    )
    alternatives = serializers.JSONField(
        read_only=True,
        help_text="A re-seating's two proposals, fewest_moves and best_schedule: each with its rounds "
        "(tables of player ids, East to North), report, moved, joined and sitting_out (player ids per "
        "hanchan) and moves; lower_bound (the fewest moves any re-seating can make, proven) and left "
        "(player ids leaving, per hanchan).",
    )

    class Meta:
        model = SeatingJob
        fields = (
            "id",
            "state",
            "progress",
            "from_round",
            "seed",
            "prefer",
            "report",
            "before_report",
            "proposal",
            "awaiting_confirmation",
            "alternatives",
            "choice",
            "applied_at",
            "error",
            "requested_at",
            "finished_at",
        )
        read_only_fields = fields

    def to_representation(self, job: SeatingJob) -> dict[str, Any]:
        data = super().to_representation(job)
        return {**data, **job.as_dict()}


def tables_with_seating() -> Prefetch[Any]:
    return Prefetch(
        "tables",
        queryset=Table.objects.select_related("sheet").prefetch_related("seats__player", "seats__replaces"),
    )


@extend_schema(tags=["rounds"])
class RoundViewSet(TournamentScopedViewSet):
    """The hanchan of the tournament (by number), each with its clock and its seating."""

    serializer_class = RoundSerializer
    lookup_field = "number"
    filter_backends = [DjangoFilterBackend]
    filterset_fields = ("status",)

    def get_queryset(self) -> QuerySet[Round]:
        if self.schema_only():
            return Round.objects.none()
        return self.tournament.rounds.select_related("tournament").prefetch_related(tables_with_seating())

    def round_context(self) -> dict[str, Any]:
        return {"visible_rounds": access.public_rounds(self.request.user, self.tournament)}

    @extend_schema(
        summary="List the hanchan with their tables and seats (published seating only, for the public)"
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(
            RoundSerializer(page, many=True, context=self.round_context()).data
        )

    @extend_schema(
        summary="A hanchan with its clock, tables and seats (published seating only, for the public)"
    )
    def retrieve(self, request: Request, tournament_pk: int, number: int) -> Response:
        return Response(RoundSerializer(self.get_object(), context=self.round_context()).data)

    @extend_schema(
        summary="Publish this hanchan's seating to the public, or take it back before it starts (organiser)",
        request=PublishSeatingSerializer,
        responses={200: RoundSerializer},
    )
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = PublishSeatingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.publish_seating(
            self.get_object(), request.user, published=serializer.validated_data["published"]
        )
        return Response(RoundSerializer(self.get_object(), context=self.round_context()).data)

    @extend_schema(
        summary="Start (or resume), pause or extend the hanchan clock (organiser)",
        request=ClockActionSerializer,
        responses={200: RoundSerializer},
    )
    @action(detail=True, methods=["post"])
    def clock(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        round_ = self.get_object()
        serializer = ClockActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.operate_clock(
            round_,
            request.user,
            serializer.validated_data["action"],
            minutes=serializer.validated_data["minutes"],
        )
        return Response(RoundSerializer(self.get_object()).data)

    @extend_schema(
        summary="Seat this hanchan from the current standings, Swiss style (organiser)",
        request=SwissSerializer,
        responses={200: RoundSerializer},
    )
    @action(detail=True, methods=["post"])
    def swiss(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = SwissSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = services.seat_swiss_round(
            self.tournament, int(number), request.user, seed=serializer.validated_data["seed"]
        )
        return Response(RoundSerializer(self.get_queryset().get(pk=round_.pk)).data)

    @extend_schema(
        summary="Close a started hanchan once every table's sheet is signed (organiser)",
        request=None,
        responses={200: RoundSerializer},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        services.finish_round(self.get_object(), request.user)
        return Response(RoundSerializer(self.get_object()).data)


@extend_schema(tags=["rounds"])
class TableViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """One table of one hanchan (its score sheet is under ``/api/tables/{id}/sheet/``)."""

    serializer_class = TableSerializer
    lookup_value_converter = "int"
    queryset = Table.objects.select_related("round__tournament", "sheet").prefetch_related(
        "seats__player", "seats__replaces"
    )

    def get_object(self) -> Table:
        table: Table = super().get_object()
        tournament = table.round.tournament
        visible = (
            access.public_rounds(self.request.user, tournament)
            if access.can_view(self.request.user, tournament)
            else set()
        )
        if visible is not None and table.round.number not in visible:
            # A private tournament, or a seating not published.
            raise NotFound(_("no table {id}").format(id=table.pk))
        return table

    @extend_schema(summary="A table: its seating, extra minutes, clock and sheet state")
    def retrieve(self, request: Request, pk: int) -> Response:
        return Response(TableSerializer(self.get_object()).data)

    @extend_schema(
        summary="Give this table extra minutes on the hanchan clock (head referee)",
        request=ExtraTimeSerializer,
        responses={200: TableSerializer},
    )
    @action(detail=True, methods=["post"], url_path="extra-time")
    def extra_time(self, request: Request, pk: int) -> Response:
        table = self.get_object()
        access.require_role(request.user, table.round.tournament, Role.HEAD_REFEREE)
        serializer = ExtraTimeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.give_table_extra_time(table, request.user, serializer.validated_data["minutes"])
        return Response(TableSerializer(self.get_object()).data)

    @extend_schema(
        summary="Take back a club session's table formed by mistake, before its sheet (head referee)",
        request=None,
        responses={200: TakenBackSerializer},
    )
    @action(detail=True, methods=["post"], url_path="take-back")
    def take_back(self, request: Request, pk: int) -> Response:
        table = self.get_object()
        access.require_role(request.user, table.round.tournament, Role.HEAD_REFEREE)
        return Response(TakenBackSerializer(services.take_back_table(table, request.user)).data)


@extend_schema(tags=["rounds"])
class SeatingJobViewSet(TournamentScopedViewSet):
    """Seating generation runs in the background: POST queues a job (202), GET follows it (organiser)."""

    serializer_class = SeatingJobSerializer

    def get_queryset(self) -> QuerySet[SeatingJob]:
        if self.schema_only():
            return SeatingJob.objects.none()
        return self.tournament.seating_jobs.all()

    @extend_schema(summary="List the seating jobs, latest first (organiser)")
    def list(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(SeatingJobSerializer(page, many=True).data)

    @extend_schema(summary="A seating job: state, progress, quality report (organiser)")
    def retrieve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        return Response(SeatingJobSerializer(self.get_object()).data)

    @extend_schema(
        summary="Generate the seating of hanchan from_round to the last (organiser)",
        request=SeatingRequestSerializer,
        responses={202: OpenApiResponse(SeatingJobSerializer, description="The job, queued.")},
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = SeatingRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = services.request_seating(self.tournament, request.user, **serializer.validated_data)
        return Response(SeatingJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Put a re-seating in place after seeing what it changes: the proposal chosen, fewest "
        "moves by default (organiser)",
        request=SeatingChoiceSerializer,
        responses={200: SeatingJobSerializer},
    )
    @action(detail=True, methods=["post"])
    def apply(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = SeatingChoiceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = services.apply_seating(self.get_object(), request.user, serializer.validated_data["choice"])
        return Response(SeatingJobSerializer(job).data)
