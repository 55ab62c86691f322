"""The REST API of tournaments (docs/api.md): the tournaments, their check-in plan, standings and team
standings, live tables, club sessions' tables and the standings' reveal.

Every view does the same four things: check the form of the input with a serializer, authorise through
``tournament.queries.access``, call one service of ``tournament.services``, and serialize what it
returns. A private tournament (``is_public`` off) does not exist, as far as the API says, for users
without a role in it: 404, never 403.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.filters import SearchFilter
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import services
from tournament.api.base import Pagination, PlayerRefSerializer, Role, visible_tournament
from tournament.api.rounds import TableSerializer
from tournament.core.standings import MAX_TIE_BREAKS, tie_breaks_problem
from tournament.models import (
    TOURNAMENT_FIELDS,
    Round,
    Table,
    Tournament,
)
from tournament.queries import access
from tournament.queries.live_tables import public_tables, tables_payload
from tournament.queries.standings_db import (
    cached_standings,
    public_cutoff,
    remember_live,
)
from tournament.queries.statistics_db import statistics_of
from tournament.queries.teams_db import cached_team_standings


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.TieBreak.choices),
        max_length=MAX_TIE_BREAKS,
        required=False,
        help_text="Tie-breaks in the order applied to equal overall scores (most_firsts, best_hanchan, "
        "best_placements, head_to_head), each at most once; [] for shared ranks.",
    )

    awards = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.Award.choices),
        max_length=len(Tournament.Award.choices),
        required=False,
        help_text="The awards shown on the awards page and the projector (best_hand, most_wins, "
        "fewest_deal_ins, most_riichi, longest_dealer_streak, best_comeback, most_yakuman), each at most "
        "once; docs/awards.md defines them.",
    )

    def validate_awards(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Awards: each award at most once."), code="awards")
        return value

    def validate_tie_breaks(self, value: list[str]) -> list[str]:
        problem = tie_breaks_problem(value)
        if problem is not None:
            raise serializers.ValidationError(
                _("Tie-breaks: {problem}.").format(problem=problem), code="tie-breaks"
            )
        return value

    class Meta:
        model = Tournament
        fields = ("id", *TOURNAMENT_FIELDS, "created_at")
        read_only_fields = ("id", "created_at")


class CheckInPlanQuerySerializer(serializers.Serializer[Any]):
    prefer = serializers.ChoiceField(
        choices=["substitutes", "sit_out"],
        default="substitutes",
        help_text="substitutes: substitutes complete the last table; sit_out: the last to check in sit out.",
    )


class CheckInPlanSerializer(serializers.Serializer[Any]):
    checked_in = serializers.IntegerField()
    tables = serializers.IntegerField()
    substitutes_needed = serializers.IntegerField()
    substitutes_available = serializers.IntegerField()
    short_of_substitutes = serializers.IntegerField()
    substitutes_not_checked_in = serializers.IntegerField(
        help_text="Substitutes registered but not checked in yet (check-in in use)."
    )
    substitutes_to_check_in = serializers.IntegerField(
        help_text="How many of the shortfall the substitutes not checked in yet cover: check them in."
    )
    substitutes_to_register = serializers.IntegerField(
        help_text="The shortfall left once every registered substitute is checked in: register more."
    )
    sitting_out = PlayerRefSerializer(many=True)


class PendingTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    sheet_status = serializers.CharField(allow_null=True, help_text="null: no sheet yet.")


class HanchanResultSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    points = serializers.IntegerField()
    rank = serializers.IntegerField()
    score = serializers.CharField()


class StandingRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    ranked = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    total = serializers.CharField(help_text="Exact decimal, as text.")
    hanchan_total = serializers.CharField()
    penalties = serializers.CharField()
    played = serializers.IntegerField()
    firsts = serializers.IntegerField()
    by_round = serializers.DictField(child=HanchanResultSerializer(), help_text="Keyed by hanchan number.")
    rank_history = serializers.ListField(child=serializers.IntegerField(allow_null=True))


class LiveSeatSerializer(serializers.Serializer[Any]):
    wind = serializers.IntegerField(help_text="0 East, 1 South, 2 West, 3 North.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField(allow_null=True, help_text="Running points; final once handed in.")


class LiveFlagSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=["hands-behind", "no-entry"])
    hands = serializers.IntegerField(required=False, help_text="hands-behind: how many hands behind.")
    median = serializers.IntegerField(required=False, help_text="hands-behind: the median table's hands.")
    minutes = serializers.IntegerField(required=False, help_text="no-entry: minutes since the last entry.")


class LiveTableSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(help_text="The table's hanchan (a club session's tables: each its own).")
    table = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["waiting", "playing", "over", "submitted", "signed", "disputed"],
        help_text="waiting: no entry yet; over: the hands entered end the hanchan, not submitted yet.",
    )
    seats = LiveSeatSerializer(many=True)
    riichi_sticks = serializers.IntegerField()
    honba = serializers.IntegerField()
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand being played: 0 is East 1, 7 South 4; null once over."
    )
    hands_played = serializers.IntegerField(allow_null=True, help_text="null: a sheet of final points only.")
    last_entry_at = serializers.DateTimeField(allow_null=True)
    flags = LiveFlagSerializer(many=True, required=False, help_text="Staff only: why the table is slow.")


class LiveTablesSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        allow_null=True, help_text="The current hanchan; null when none shown, and in a club session."
    )
    club = serializers.BooleanField(
        help_text="A club session: the tables are every table in play, each its own hanchan, by hanchan."
    )
    shown = serializers.BooleanField(help_text="false: the current hanchan is hidden from this reader.")
    now = serializers.DateTimeField()
    tables = LiveTableSerializer(many=True)
    hands_behind = serializers.IntegerField(required=False, help_text="Staff only: the slow-table rule.")
    idle_minutes = serializers.IntegerField(required=False, help_text="Staff only: the slow-table rule.")


class StandingsSerializer(serializers.Serializer[Any]):
    """``tournament.queries.standings_db.cached_standings`` and the tables still waiting for a signed
    sheet."""

    rounds = serializers.IntegerField()
    as_of = serializers.IntegerField(
        allow_null=True,
        help_text="The standings after this hanchan, as the tournament publishes them; null: live and whole "
        "(always, for its staff).",
    )
    rows = StandingRowSerializer(many=True)
    pending_tables = PendingTableSerializer(many=True)


class TeamMemberSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True, help_text="The individual rank; null: not ranked.")
    total = serializers.CharField(help_text="The individual total, penalties in (exact decimal).")
    contribution = serializers.CharField(help_text="What the member adds to the team total.")
    counted = serializers.BooleanField(help_text="Whether any of the member's scores count.")
    counted_hanchan = serializers.ListField(
        child=serializers.IntegerField(), help_text="best_per_hanchan: the hanchan whose score counts."
    )


class TeamRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.CharField(help_text="Exact decimal.")
    penalties = serializers.CharField(help_text="The members' penalties, already in the total.")
    counted = serializers.IntegerField(help_text="Members of whom something counts.")
    played = serializers.IntegerField(help_text="Hanchan in which at least one member played.")
    best_member_rank = serializers.IntegerField(allow_null=True)
    members = TeamMemberSerializer(many=True)


class TeamStandingsSerializer(serializers.Serializer[Any]):
    """``tournament.queries.teams_db.cached_team_standings``: the teams under the tournament's rule."""

    rule = serializers.CharField(
        help_text="The tournament's team_ranking: none, sum, best_per_hanchan or best_overall."
    )
    best_n = serializers.IntegerField(allow_null=True)
    substitutes_count = serializers.BooleanField()
    rounds = serializers.IntegerField()
    as_of = serializers.IntegerField(
        allow_null=True,
        help_text="The team standings after this hanchan, as the tournament publishes the standings; "
        "null: live and whole (always, for its staff).",
    )
    rows = TeamRowSerializer(many=True)


class ClubTableSerializer(serializers.Serializer[Any]):
    """A club session's table (``tournament.core.club``): the players East to North, or with the winds
    drawn."""

    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=8,
        help_text="Four player ids, East, South, West, North (the service refuses another count, naming "
        "`players`, and each seat at fault by its wind: `east`, `south`, `west`, `north`).",
    )
    draw_winds = serializers.BooleanField(
        default=False, help_text="true: the four draw their winds at random."
    )


class RevealSerializer(serializers.Serializer[Any]):
    revealed = serializers.BooleanField(default=True, help_text="false: hide the last hanchan again.")


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
