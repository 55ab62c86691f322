"""The REST API of a tournament's players: registration by hand or by file, corrections, check-in,
withdrawals, substitutes and absences.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.filters import SearchFilter
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import services
from tournament.api.base import (
    PlayerRefSerializer,
    Role,
    RoundNumberField,
    TournamentPlayerField,
    TournamentScopedViewSet,
)
from tournament.core.names import matches
from tournament.core.player_files import ImportPreview
from tournament.core.refusal import Problem, Refusal
from tournament.core.spreadsheets import MAX_FILE_BYTES
from tournament.models import (
    Absence,
    Player,
)
from tournament.queries import access
from tournament.queries.participation_db import tournament_states
from tournament.queries.standings_db import (
    reader_cutoff,
)
from tournament.queries.statistics_db import player_statistics_of


class PublicPlayerSerializer(serializers.ModelSerializer[Player]):
    """What anyone who can see the tournament sees of a player."""

    country = serializers.CharField(
        source="country.code", read_only=True, help_text="ISO 3166 alpha-2 code, or empty."
    )
    participation = serializers.SerializerMethodField(
        help_text="The player's state in the tournament now (tournament.participation): registered, "
        "checked_in, playing, absent, withdrawn, disqualified, did_not_start or substitute."
    )

    class Meta:
        model = Player
        fields = (
            "id",
            "name",
            "first_name",
            "last_name",
            "native_name",
            "country",
            "club",
            "team",
            "status",
            "participation",
        )
        read_only_fields = fields

    def get_participation(self, player: Player) -> str | None:
        states = self.context.get("states")  # the tournament's states, read once for a page of players
        if states is None:
            return None
        state = states.get(player.pk)
        return str(state) if state is not None else None


class PlayerSerializer(PublicPlayerSerializer):
    """A player as the tournament's staff see them; anyone else gets the public fields only (id, name,
    country, club, team, status)."""

    class Meta(PublicPlayerSerializer.Meta):
        fields = (
            *PublicPlayerSerializer.Meta.fields,
            "ema_id",
            "is_substitute",
            "disqualified",
            "checked_in_at",
            "registered_at",
        )
        read_only_fields = fields


class RegisterPlayerSerializer(serializers.Serializer[Any]):
    """One player registered by hand; ``tournament.services.register_player`` checks it like a file row."""

    name = serializers.CharField(
        max_length=200, allow_blank=True, required=False, default="", help_text="Empty: first and last name."
    )
    first_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    last_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    native_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    country = serializers.CharField(max_length=80, allow_blank=True, required=False, default="")
    club = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    ema_id = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    team = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    is_substitute = serializers.BooleanField(required=False, default=False)


class UpdatePlayerSerializer(serializers.Serializer[Any]):
    """A correction of a registration: any of its fields; ``tournament.services.update_player`` checks it."""

    name = serializers.CharField(max_length=200, required=False)
    first_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    last_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    native_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    country = serializers.CharField(max_length=80, allow_blank=True, required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    ema_id = serializers.CharField(max_length=40, allow_blank=True, required=False)
    team = serializers.CharField(max_length=120, allow_blank=True, required=False)
    is_substitute = serializers.BooleanField(required=False)


class PlayerFileSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="A CSV (UTF-8, comma or semicolon) or XLSX player list.")
    dry_run = serializers.BooleanField(
        required=False, default=False, help_text="true: check the file and show its rows, store nothing."
    )

    def validate_file(self, upload: Any) -> Any:
        if upload.size > MAX_FILE_BYTES:
            raise serializers.ValidationError(
                _("the file has {size} bytes; a player list is at most {most}").format(
                    size=number_format(upload.size, force_grouping=True),
                    most=number_format(MAX_FILE_BYTES, force_grouping=True),
                ),
                code="file-size",
            )
        return upload


class PlayerRowSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    club = serializers.CharField()
    ema_id = serializers.CharField()
    team = serializers.CharField()
    is_substitute = serializers.BooleanField()


class RowErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    line = serializers.IntegerField(help_text="The file's line (the header is line 1).")


class PlayerImportSerializer(serializers.Serializer[Any]):
    """The preview (``dry_run``) or the result of an import: every good row and every bad one."""

    valid = serializers.BooleanField()
    dry_run = serializers.BooleanField()
    imported = serializers.IntegerField(help_text="Players stored (0 on a dry run or a refused file).")
    rows = PlayerRowSerializer(many=True)
    errors = RowErrorSerializer(many=True)


class WithdrawSerializer(serializers.Serializer[Any]):
    from_round = serializers.IntegerField(min_value=1, help_text="The first hanchan the player misses.")
    substitute = TournamentPlayerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A substitute who takes the seat in every seated hanchan not started; without one, "
        "re-seat from from_round with a seating job.",
    )


class SubstituteSerializer(serializers.Serializer[Any]):
    round = RoundNumberField(help_text="The hanchan number.")
    substitute = TournamentPlayerField(help_text="The substitute's player id.")
    reason = serializers.ChoiceField(choices=Absence.Reason.choices, default=Absence.Reason.ABSENT)


class AbsenceSerializer(serializers.ModelSerializer[Absence]):
    round = serializers.IntegerField(source="round.number", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    substitute = PlayerRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Absence
        fields = ("id", "round", "player", "substitute", "reason", "recorded_at")
        read_only_fields = fields


class WithdrawalSerializer(serializers.Serializer[Any]):
    player = PlayerSerializer()
    absences = AbsenceSerializer(many=True)


class PlayerNameSearch(SearchFilter):
    """``?search=``: the players either of whose names (the Latin one, the one in its own script)
    contains the search, ignoring case and accents ("lukasz" finds Łukasz; tournament.names.matches).
    Compared in Python over the tournament's players (a few hundred at most), the same on every
    database."""

    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> QuerySet[Any]:
        query = " ".join(self.get_search_terms(request))
        if not query:
            return queryset
        found = [
            pk
            for pk, name, native in queryset.values_list("pk", "name", "native_name")
            if matches(query, (name, native))
        ]
        return queryset.filter(pk__in=found)


@extend_schema(tags=["players"])
class PlayerViewSet(TournamentScopedViewSet):
    """The tournament's players and substitutes. Anyone who can see the tournament sees name, country,
    club, team and status; its staff also see the EMA id, check-in time and the rest."""

    serializer_class = PlayerSerializer
    filter_backends = [DjangoFilterBackend, PlayerNameSearch]
    filterset_fields = ("status", "is_substitute")
    search_fields = ("name", "native_name")  # the schema's description; PlayerNameSearch compares

    def get_queryset(self) -> QuerySet[Player]:
        if self.schema_only():
            return Player.objects.none()
        return self.tournament.players.all()

    def player_serializer(self) -> type[PublicPlayerSerializer]:
        return PlayerSerializer if self.staff else PublicPlayerSerializer

    @extend_schema(
        summary="List the players (filters: status, is_substitute, search by either name, ignoring accents)",
        responses=PlayerSerializer(many=True),
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        context = {"states": tournament_states(self.tournament)}
        return self.get_paginated_response(self.player_serializer()(page, many=True, context=context).data)

    @extend_schema(summary="A player", responses=PlayerSerializer)
    def retrieve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        context = {"states": tournament_states(self.tournament)}
        return Response(self.player_serializer()(self.get_object(), context=context).data)

    @extend_schema(
        summary="Register one player by hand (organiser)",
        request=RegisterPlayerSerializer,
        responses={201: PlayerSerializer},
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = RegisterPlayerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.register_player(self.tournament, request.user, **serializer.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Correct a player's registration (organiser; audited)",
        request=UpdatePlayerSerializer,
        responses={200: PlayerSerializer},
    )
    def partial_update(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = UpdatePlayerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.update_player(self.get_object(), request.user, **serializer.validated_data)
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        summary="Remove a registration made in error; refused once the player has played (organiser)",
        responses={204: None},
    )
    def destroy(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        services.remove_player(self.get_object(), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Import players from a CSV or XLSX file, all or nothing (organiser)",
        description="With dry_run=true: every row and every error, nothing stored (200). Without: the "
        "players stored (201), or, when any row is bad, nothing stored and each bad row's error (400).",
        request={"multipart/form-data": PlayerFileSerializer},
        responses={200: PlayerImportSerializer, 201: PlayerImportSerializer},
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[MultiPartParser, FormParser])
    def import_file(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = PlayerFileSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload, dry_run = serializer.validated_data["file"], serializer.validated_data["dry_run"]
        if dry_run:
            preview = services.preview_player_file(
                self.tournament, upload.read(), upload.name, user=request.user
            )
            return Response(import_result(preview, dry_run=True))
        preview = services.import_players(self.tournament, upload.read(), upload.name, user=request.user)
        if not preview.ok:
            raise Refusal.of(
                Problem(error.field, error.rule, error.message, line=error.line) for error in preview.errors
            )
        return Response(import_result(preview, dry_run=False), status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Check a player in (POST) or take the check-in back (DELETE) (organiser)",
        request=None,
        responses={200: PlayerSerializer},
    )
    @action(detail=True, methods=["post", "delete"], url_path="check-in")
    def check_in(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        player = self.get_object()
        player = services.check_in(player, user=request.user, checked_in=request.method == "POST")
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        summary="Withdraw a player from a hanchan on (organiser)",
        request=WithdrawSerializer,
        responses={200: WithdrawalSerializer},
    )
    @extend_schema(
        summary="A player's statistics from the signed sheets the caller may see, their yaku included",
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def statistics(self, request: Request, tournament_pk: int, pk: int) -> Response:
        player = self.get_object()
        stats = player_statistics_of(
            self.tournament,
            player,
            up_to=reader_cutoff(request.user, self.tournament),
            rounds=access.public_rounds(request.user, self.tournament),
        )
        return Response(stats.as_json())

    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        player = self.get_object()
        serializer = WithdrawSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        absences = services.withdraw_player(player, request.user, **serializer.validated_data)
        player.refresh_from_db()
        return Response(WithdrawalSerializer({"player": player, "absences": absences}).data)

    @extend_schema(
        summary="Seat a substitute in this player's seat for one hanchan (organiser)",
        request=SubstituteSerializer,
        responses={201: AbsenceSerializer},
    )
    @action(detail=True, methods=["post"])
    def substitute(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        player = self.get_object()
        serializer = SubstituteSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        absence = services.replace_with_substitute(
            data["round"], player, data["substitute"], request.user, reason=data["reason"]
        )
        return Response(AbsenceSerializer(absence).data, status=status.HTTP_201_CREATED)


def import_result(preview: ImportPreview, *, dry_run: bool) -> dict[str, Any]:
    stored = preview.ok and not dry_run
    return {
        "valid": preview.ok,
        "dry_run": dry_run,
        "imported": len(preview.rows) if stored else 0,
        "rows": [
            {
                "line": row.line,
                "name": row.name,
                "country": row.country,
                "club": row.club,
                "ema_id": row.ema_id,
                "team": row.team,
                "is_substitute": row.is_substitute,
            }
            for row in preview.rows
        ],
        "errors": [
            {"field": error.field, "rule": error.rule, "message": error.message, "line": error.line}
            for error in preview.errors
        ],
    }
