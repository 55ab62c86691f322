"""The REST API over tournaments, players, staff roles, rounds, tables and seating jobs (docs/api.md).

Every view does the same four things: check the form of the input with a serializer, authorise through
``tournament.queries.access``, call one service of ``tournament.services``, and serialize what it returns. A
private tournament (``is_public`` off) does not exist, as far as the API says, for users without a role
in it: 404, never 403.

The shared pieces of the API's views (the pagination, the lookup of a visible tournament, the
refusal in the error format) live here too; ``scoring.api`` and ``penalties.api`` import them.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.filters import SearchFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.rules.scores import format_score
from tournament import services
from tournament.core.names import matches
from tournament.core.phases import PhasePlan
from tournament.core.player_files import ImportPreview
from tournament.core.refusal import Problem, Refusal
from tournament.models import Person, Player, Round, SeatingJob, Series, StaffRole, Table, Tournament
from tournament.queries import access
from tournament.queries.live_tables import public_tables, tables_payload
from tournament.queries.participation_db import tournament_states
from tournament.queries.ratings_db import RatingList, list_rows
from tournament.queries.series_db import person_events, series_table
from tournament.queries.standings_db import (
    cached_phases,
    cached_standings,
    public_cutoff,
    reader_cutoff,
    remember_live,
)
from tournament.queries.statistics_db import player_statistics_of, statistics_of
from tournament.queries.teams_db import cached_team_standings
from tournament.serializers import (
    AbsenceSerializer,
    CallUpSerializer,
    ChangeRoleSerializer,
    CheckInPlanQuerySerializer,
    CheckInPlanSerializer,
    ClockActionSerializer,
    ClubTableSerializer,
    CutSerializer,
    ExtraTimeSerializer,
    GrantRoleSerializer,
    InvitedStaffSerializer,
    InviteStaffSerializer,
    LiveTablesSerializer,
    PersonEventSerializer,
    PhasesSerializer,
    PlayerFileSerializer,
    PlayerImportSerializer,
    PlayerSerializer,
    PublicPlayerSerializer,
    PublishSeatingSerializer,
    RegisterPlayerSerializer,
    RevealSerializer,
    RoundSerializer,
    SeatingChoiceSerializer,
    SeatingJobSerializer,
    SeatingRequestSerializer,
    SeriesInputSerializer,
    SeriesSerializer,
    SetPhasesSerializer,
    StaffRoleSerializer,
    StandingsSerializer,
    SubstituteSerializer,
    SwissSerializer,
    TableSerializer,
    TakenBackSerializer,
    TeamStandingsSerializer,
    TournamentSerializer,
    UpdatePlayerSerializer,
    WithdrawalSerializer,
    WithdrawSerializer,
)
from tournament.services import series as series_services
from tournament.services.ratings import served_series_list, served_site_list

Role = StaffRole.Role


class Pagination(PageNumberPagination):
    """Lists come a page at a time: 100 items, ``?page_size=`` up to 1,000."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


def visible_tournament(request: Request, pk: int) -> Tournament:
    """The tournament if this user may see it (``access.can_view``); otherwise 404, as if it did not exist."""
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None or not access.can_view(request.user, tournament):
        raise NotFound(_("no tournament {id}").format(id=pk))
    return tournament


def is_staff(request: Request, tournament: Tournament) -> bool:
    """Referees, head referees and organisers of the tournament (and site admins) see private fields."""
    return access.has_role(request.user, tournament, Role.REFEREE)


class TournamentScopedViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """A resource inside one tournament, under ``/api/tournaments/{tournament_pk}/``."""

    pagination_class = Pagination
    lookup_value_converter = "int"
    tournament: Tournament

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.tournament = visible_tournament(request, kwargs["tournament_pk"])

    def require(self, role: str) -> None:
        access.require_role(self.request.user, self.tournament, role)

    @cached_property
    def staff(self) -> bool:
        """Whether this user is on the tournament's staff (and so sees its private fields)."""
        return is_staff(self.request, self.tournament)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if hasattr(self, "tournament"):
            context["tournament"] = self.tournament
        return context

    def schema_only(self) -> bool:
        """True while drf-spectacular inspects the view (no request, no tournament)."""
        return getattr(self, "swagger_fake_view", False)


# -- Tournaments ---------------------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """Public tournaments, and the private ones where the user has a role."""

    serializer_class = TournamentSerializer
    pagination_class = Pagination
    lookup_value_converter = "int"
    filter_backends = [DjangoFilterBackend, SearchFilter]
    filterset_fields = ("is_public", "ruleset_preset")
    search_fields = ("name", "venue")

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):
            return Tournament.objects.none()
        return access.visible_tournaments(self.request.user)

    @extend_schema(summary="List the tournaments this user can see")
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(TournamentSerializer(page, many=True).data)

    @extend_schema(summary="Create a tournament; its creator becomes its organiser")
    def create(self, request: Request) -> Response:
        serializer = TournamentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.create_tournament(request.user, **serializer.validated_data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="A tournament")
    def retrieve(self, request: Request, pk: int) -> Response:
        return Response(TournamentSerializer(visible_tournament(request, pk)).data)

    @extend_schema(summary="Change a tournament (organiser)")
    def update(self, request: Request, pk: int, partial: bool = False) -> Response:
        tournament = visible_tournament(request, pk)
        access.require_role(request.user, tournament, Role.ORGANISER)
        serializer = TournamentSerializer(tournament, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        tournament = services.update_tournament(tournament, request.user, **serializer.validated_data)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(summary="Change some fields of a tournament (organiser)")
    def partial_update(self, request: Request, pk: int) -> Response:
        return self.update(request, pk, partial=True)

    @extend_schema(
        summary="The live tables of the current hanchan: running points, sticks, honba, the hand being "
        "played; for staff, the slow tables' flags",
        responses=LiveTablesSerializer,
    )
    @action(detail=True, methods=["get"], url_path="live-tables", pagination_class=None, filter_backends=[])
    def live_tables(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        if access.has_role(request.user, tournament, Role.REFEREE):
            return Response(tables_payload(tournament, staff=True))
        return Response(public_tables(tournament))

    @extend_schema(
        summary="The standings (from the cache) and the tables still without a signed sheet",
        responses=StandingsSerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        # Staff see the standings whole; everyone else as the tournament publishes them.
        up_to = None if access.has_role(request.user, tournament, Role.REFEREE) else public_cutoff(tournament)
        return Response(
            remember_live(
                tournament,
                f"api:{up_to}",
                lambda: {
                    **cached_standings(tournament, up_to),
                    "as_of": up_to,
                    "pending_tables": pending_tables(tournament),
                },
            )
        )

    @extend_schema(
        summary="The team standings under the tournament's team rule (no rows when it has none)",
        responses=TeamStandingsSerializer,
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="team-standings",
        pagination_class=None,
        filter_backends=[],
    )
    def team_standings(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        # As the individual standings: staff see them whole, everyone else as the tournament publishes.
        up_to = None if access.has_role(request.user, tournament, Role.REFEREE) else public_cutoff(tournament)
        return Response({**cached_team_standings(tournament, up_to), "as_of": up_to})

    @extend_schema(
        summary="Form a table of a club session from four players present and free (organiser)",
        request=ClubTableSerializer,
        responses={201: TableSerializer},
    )
    @action(detail=True, methods=["post"], url_path="club-tables")
    def club_tables(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        access.require_role(request.user, tournament, Role.ORGANISER)
        serializer = ClubTableSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.form_table(tournament, request.user, data["players"], draw_winds=data["draw_winds"])
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Show the public the ranking of the hidden last hanchan, or hide it again (organiser)",
        request=RevealSerializer,
        responses={200: TournamentSerializer},
    )
    @action(detail=True, methods=["post"])
    def reveal(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        access.require_role(request.user, tournament, Role.ORGANISER)
        serializer = RevealSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        revealed = serializer.validated_data["revealed"]
        return Response(
            TournamentSerializer(services.reveal_standings(tournament, request.user, revealed=revealed)).data
        )

    @extend_schema(
        summary="How the checked-in field fills its tables (organiser)",
        parameters=[CheckInPlanQuerySerializer],
        responses=CheckInPlanSerializer,
    )
    @action(detail=True, methods=["get"], url_path="check-in-plan", pagination_class=None, filter_backends=[])
    def check_in_plan(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        access.require_role(request.user, tournament, Role.ORGANISER)
        query = CheckInPlanQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        plan = services.check_in_plan(tournament, prefer=query.validated_data["prefer"])
        return Response(CheckInPlanSerializer(plan).data)

    @extend_schema(
        summary="The tournament's statistics from its signed sheets (organiser)",
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def statistics(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        access.require_role(request.user, tournament, Role.ORGANISER)
        return Response(statistics_of(tournament).as_json())


def pending_tables(tournament: Tournament) -> list[dict[str, Any]]:
    """Tables of seated or started hanchan whose sheet is not signed yet (one query)."""
    tables = (
        Table.objects.filter(
            round__tournament=tournament, round__status__in=[Round.Status.SEATED, Round.Status.STARTED]
        )
        .exclude(sheet__status="signed")
        .order_by("round__number", "number")
        .values_list("pk", "round__number", "number", "sheet__status")
    )
    return [
        {"id": pk, "round": round_number, "table": number, "sheet_status": sheet_status}
        for pk, round_number, number, sheet_status in tables
    ]


# -- Players -------------------------------------------------------------------------------------------


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


# -- Staff roles ---------------------------------------------------------------------------------------


@extend_schema(tags=["staff"])
class StaffViewSet(TournamentScopedViewSet):
    """Who referees and organises the tournament; organisers only, for reading and for changing."""

    serializer_class = StaffRoleSerializer

    def get_queryset(self) -> QuerySet[StaffRole]:
        if self.schema_only():
            return StaffRole.objects.none()
        return self.tournament.staff.select_related("user", "granted_by")

    @extend_schema(summary="List the staff roles (organiser)")
    def list(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(StaffRoleSerializer(page, many=True).data)

    @extend_schema(
        summary="Grant a user a role, or change the role they have (organiser)",
        request=GrantRoleSerializer,
        responses={201: StaffRoleSerializer},
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = GrantRoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        grantee, role = serializer.validated_data["username"], serializer.validated_data["role"]
        staff = services.grant_role(self.tournament, request.user, grantee, role)
        return Response(StaffRoleSerializer(staff).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Invite a new account with a role; its password is in this answer only (organiser)",
        request=InviteStaffSerializer,
        responses={201: InvitedStaffSerializer},
    )
    @action(detail=False, methods=["post"])
    def invite(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = InviteStaffSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        staff, password = services.invite_staff(
            self.tournament, request.user, data["username"], data["role"], email=data["email"]
        )
        answer = {"username": staff.user.get_username(), "role": staff.role, "password": password}
        response = Response(InvitedStaffSerializer(answer).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(
        summary="Change a staff member's role (organiser)",
        request=ChangeRoleSerializer,
        responses={200: StaffRoleSerializer},
    )
    def partial_update(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        staff = self.get_object()
        serializer = ChangeRoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        staff = services.grant_role(
            self.tournament, request.user, staff.user, serializer.validated_data["role"]
        )
        return Response(StaffRoleSerializer(staff).data)

    @extend_schema(summary="Remove a staff member's role (organiser)", responses={204: None})
    def destroy(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.ORGANISER)
        staff = self.get_object()
        services.remove_role(self.tournament, request.user, staff.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- Rounds, tables, the clock -------------------------------------------------------------------------


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


# -- Seating generation --------------------------------------------------------------------------------


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


# -- Phases ----------------------------------------------------------------------------------------------


@extend_schema(tags=["phases"])
class PhaseViewSet(TournamentScopedViewSet):
    """The phases of a tournament (``tournament.core.phases``): qualifying, cuts, semifinal and final."""

    serializer_class = PhasesSerializer
    pagination_class = None

    def get_object(self) -> Tournament:
        """What a PUT changes: the tournament's phases, which only its organisers set. DRF's ``OPTIONS``
        calls this to decide whether to describe the PUT (a refusal leaves it out); with no queryset,
        DRF's own would fail."""
        self.require(Role.ORGANISER)
        return self.tournament

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:
        """A PUT takes every phase at once (``SetPhasesSerializer``); what answers is the phases."""
        if self.request is not None and self.request.method == "PUT":
            return SetPhasesSerializer
        return PhasesSerializer

    def phases(self) -> Response:
        staff = access.has_role(self.request.user, self.tournament, Role.REFEREE)
        up_to = None if staff else public_cutoff(self.tournament)
        self.tournament.refresh_from_db(fields=["standings_version", "hanchan_count"])
        return Response(cached_phases(self.tournament, up_to))

    @extend_schema(
        summary="The phases, each with its players after the cut and its standings",
        responses=PhasesSerializer,
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        return self.phases()

    @extend_schema(
        summary="Set every phase at once; the tournament's hanchan count becomes their sum (organiser)",
        request=SetPhasesSerializer,
        responses={200: PhasesSerializer},
    )
    def set_all(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = SetPhasesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        plans = [PhasePlan(**plan) for plan in serializer.validated_data["phases"]]
        services.set_phases(self.tournament, request.user, plans)
        return self.phases()

    @extend_schema(
        summary="Make the cut into this phase from the previous phase's standings (organiser)",
        request=CutSerializer,
        responses={200: PhasesSerializer},
    )
    def cut(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = CutSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.make_cut(
            self.tournament, int(number), request.user, chosen=serializer.validated_data["chosen"]
        )
        return self.phases()

    @extend_schema(
        summary="A player leaves this phase before it starts: the next in line takes the place (organiser)",
        request=CallUpSerializer,
        responses={200: PhasesSerializer},
    )
    def call_up(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = CallUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        leaver = self.tournament.players.filter(pk=serializer.validated_data["player"]).first()
        if leaver is None:
            raise Refusal(
                "player", "phase-member", _("player: no such player in this tournament"), status=404
            )
        services.call_up(self.tournament, int(number), leaver, request.user)
        return self.phases()

    @extend_schema(
        summary="Seat every hanchan of this phase at fixed tables by rank (organiser)",
        request=None,
        responses={200: PhasesSerializer},
    )
    def seat_by_rank(self, request: Request, tournament_pk: int, number: int) -> Response:
        self.require(Role.ORGANISER)
        services.seat_by_rank(self.tournament, int(number), request.user)
        return self.phases()


# The routes, mapped by hand: the phases are set all at once (PUT on the list). No handler is named after
# an HTTP method: a view answers only the methods of its own mapping (DRF's dispatch would otherwise
# find a method-named handler on every route of the class).
phases_view = PhaseViewSet.as_view({"get": "list", "put": "set_all"})
phase_cut_view = PhaseViewSet.as_view({"post": "cut"})
phase_call_up_view = PhaseViewSet.as_view({"post": "call_up"})
phase_seat_by_rank_view = PhaseViewSet.as_view({"post": "seat_by_rank"})


# -- Rating lists (docs/ratings.md) -------------------------------------------------------------------

RATING_LIST_PARAMETERS = [
    OpenApiParameter(
        "list",
        str,
        enum=["skill", "mers"],
        description="skill (default): the skill rating, mu - 3 sigma; mers: the EMA's MERS ranking.",
    ),
    OpenApiParameter("page", int, description="The page, 100 entrants a page (?page_size= up to 1,000)."),
    OpenApiParameter("page_size", int),
]


def rating_list_response(request: Request, view: Any, ratings: RatingList) -> Response:
    """A page of a rating list (``count``, ``next``, ``previous``, ``results``) with ``list``, ``as_of``,
    when it was computed (``updated_at``), whether a newer one is being computed (``stale``) and the
    ``events`` counted (each with ``mers`` and its MERS weight)."""
    which = "mers" if request.query_params.get("list") == "mers" else "skill"
    entries: list[Any] = list(ratings.mers if which == "mers" else ratings.skill)
    paginator = Pagination()
    page = paginator.paginate_queryset(entries, request, view=view) or []
    first = paginator.page.start_index() if page else 1
    response = paginator.get_paginated_response(list_rows(ratings, which, page, first))
    response.data = {
        "list": which,
        "as_of": ratings.as_of.isoformat(),
        "updated_at": ratings.updated_at.isoformat() if ratings.updated_at else None,
        "stale": ratings.stale,
        "events": ratings.events,
        **response.data,
    }
    return response


# -- Series and persons --------------------------------------------------------------------------------


@extend_schema(tags=["series"])
class SeriesViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """Series of tournaments and their standings (public); organisers create them, their creator changes
    them (docs/series.md)."""

    serializer_class = SeriesSerializer
    pagination_class = Pagination
    lookup_value_converter = "int"

    def get_queryset(self) -> QuerySet[Series]:
        return Series.objects.prefetch_related("tournaments")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False):
            context["visible"] = set(
                access.visible_tournaments(self.request.user).values_list("pk", flat=True)
            )
        return context

    def _series(self, pk: int) -> Series:
        series = self.get_queryset().filter(pk=pk).first()
        if series is None:
            raise NotFound(_("no series {id}").format(id=pk))
        return series

    @extend_schema(summary="List the series")
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(summary="Create a series (organisers)", request=SeriesInputSerializer)
    def create(self, request: Request) -> Response:
        access.require_edit_series(request.user, None)
        serializer = SeriesInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = series_services.create_series(request.user, **serializer.validated_data)
        return Response(self.get_serializer(series).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="A series")
    def retrieve(self, request: Request, pk: int) -> Response:
        return Response(self.get_serializer(self._series(pk)).data)

    @extend_schema(
        summary="Change some fields of a series (its creator, site admins)", request=SeriesInputSerializer
    )
    def partial_update(self, request: Request, pk: int) -> Response:
        series = self._series(pk)
        access.require_edit_series(request.user, series)
        serializer = SeriesInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        series = series_services.update_series(series, request.user, **serializer.validated_data)
        return Response(self.get_serializer(self._series(series.pk)).data)

    @extend_schema(
        summary="The series' standings: what the public sees of each of its tournaments",
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: int) -> Response:
        return Response(series_table(self._series(pk)))

    @extend_schema(
        summary="The series' rating list (skill or MERS): what the public sees of its tournaments",
        parameters=RATING_LIST_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def ratings(self, request: Request, pk: int) -> Response:
        return rating_list_response(request, self, served_series_list(self._series(pk)))


@extend_schema(tags=["ratings"])
class RatingListViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """The site's rating list: the skill rating and the MERS ranking over what the public sees of every
    public tournament (docs/ratings.md)."""

    pagination_class = None
    filter_backends: list[Any] = []

    @extend_schema(
        summary="The site's rating list (skill or MERS), a page of entrants",
        parameters=RATING_LIST_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT},
    )
    def list(self, request: Request) -> Response:
        return rating_list_response(request, self, served_site_list())


@extend_schema(tags=["persons"])
class PersonViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """A person across tournaments: their events this user may see, as this user sees each."""

    pagination_class = None
    lookup_value_converter = "int"
    serializer_class = PersonEventSerializer

    def get_queryset(self) -> QuerySet[Person]:
        return Person.objects.all()

    @extend_schema(
        summary="A person's events and their figures across them", responses={200: OpenApiTypes.OBJECT}
    )
    def retrieve(self, request: Request, pk: int) -> Response:
        person = Person.objects.filter(pk=pk).first()
        events, figures = person_events(person, request.user) if person is not None else ([], None)
        if person is None or figures is None or not events:
            raise NotFound(_("no person {id}").format(id=pk))
        latest = events[0]["player"]
        return Response(
            {
                "id": person.pk,
                "name": latest.name,
                "native_name": latest.native_name,
                "country": latest.country.code or "",
                "events": PersonEventSerializer(events, many=True).data,
                "figures": {
                    "events": figures.events,
                    "hanchan": figures.hanchan,
                    "total": format_score(figures.total),
                    "mean_score": None if figures.mean_score is None else str(figures.mean_score),
                    "mean_placement": None if figures.mean_placement is None else str(figures.mean_placement),
                    "best_rank": figures.best_rank,
                    "placements": list(figures.placements),
                },
            }
        )
