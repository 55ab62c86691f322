"""The REST API over penalties and disqualifications, under ``/api/tournaments/{tournament_pk}/``.

Head referees and organisers give and revoke penalties and disqualify (``penalties.services``);
anyone who can see the tournament sees the active penalties (player, kind, points, hanchan) and who is
disqualified; the staff also see reasons, who gave what, and the revoked penalties.
"""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from penalties import services
from penalties.models import Disqualification, Penalty
from penalties.serializers import (
    DisqualificationSerializer,
    DisqualifySerializer,
    GivePenaltySerializer,
    PenaltySerializer,
    PublicDisqualificationSerializer,
    PublicPenaltySerializer,
    RevokePenaltySerializer,
)
from tournament.api.base import TournamentScopedViewSet
from tournament.models import StaffRole
from tournament.queries.standings_db import reader_cutoff, visible_penalties

Role = StaffRole.Role


class PenaltyFilter(django_filters.FilterSet):
    round = django_filters.NumberFilter(field_name="round__number", help_text="The hanchan number.")
    active = django_filters.BooleanFilter(
        field_name="revoked_at", lookup_expr="isnull", help_text="Staff: false lists the revoked ones."
    )

    class Meta:
        model = Penalty
        fields = ("player", "kind", "round", "active")


@extend_schema(tags=["penalties"])
class PenaltyViewSet(TournamentScopedViewSet):
    """Point penalties, taken off the overall score (WRCR 2015 §7.1)."""

    serializer_class = PenaltySerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = PenaltyFilter

    def get_queryset(self) -> QuerySet[Penalty]:
        if self.schema_only():
            return Penalty.objects.none()
        penalties = self.tournament.penalties.select_related(
            "player", "round", "given_by", "revoked_by", "sheet__table"
        )
        if not self.staff:
            penalties = penalties.filter(revoked_at=None)  # a revoked penalty is history, for the staff
            # Only those of the hanchan whose results this reader sees (a hidden hanchan's are not).
            penalties = visible_penalties(penalties, reader_cutoff(self.request.user, self.tournament))
        return penalties

    def penalty_serializer(self) -> type[PublicPenaltySerializer]:
        return PenaltySerializer if self.staff else PublicPenaltySerializer

    @extend_schema(
        summary="List the penalties (filters: player, kind, round, active)",
        responses=PenaltySerializer(many=True),
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(self.penalty_serializer()(page, many=True).data)

    @extend_schema(summary="A penalty", responses=PenaltySerializer)
    def retrieve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        return Response(self.penalty_serializer()(self.get_object()).data)

    @extend_schema(
        summary="Give a penalty (head referee)",
        request=GivePenaltySerializer,
        responses={201: PenaltySerializer},
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.HEAD_REFEREE)
        serializer = GivePenaltySerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        penalty = services.give_penalty(
            data["player"],
            data["kind"],
            request.user,
            round=data["round"],
            points=data["points"],
            minutes_late=data["minutes_late"],
            reason=data["reason"],
        )
        return Response(PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Revoke a penalty, with a reason (head referee)",
        request=RevokePenaltySerializer,
        responses={200: PenaltySerializer},
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, tournament_pk: int, pk: int) -> Response:
        self.require(Role.HEAD_REFEREE)
        penalty = self.get_object()
        serializer = RevokePenaltySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        penalty = services.revoke_penalty(penalty, request.user, reason=serializer.validated_data["reason"])
        return Response(PenaltySerializer(penalty).data)


@extend_schema(tags=["penalties"])
class DisqualificationViewSet(TournamentScopedViewSet):
    """Disqualified players leave the ranking; the tables they played keep their results (WRCR 2015 §7.1)."""

    serializer_class = DisqualificationSerializer

    def get_queryset(self) -> QuerySet[Disqualification]:
        if self.schema_only():
            return Disqualification.objects.none()
        disqualified = Disqualification.objects.filter(player__tournament=self.tournament)
        return disqualified.select_related("player", "given_by").order_by("given_at", "pk")

    @extend_schema(
        summary="List the disqualified players",
        responses=DisqualificationSerializer(many=True),
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        serializer = DisqualificationSerializer if self.staff else PublicDisqualificationSerializer
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(serializer(page, many=True).data)

    @extend_schema(
        summary="Disqualify a player, with a reason (head referee)",
        request=DisqualifySerializer,
        responses={201: DisqualificationSerializer},
    )
    def create(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.HEAD_REFEREE)
        serializer = DisqualifySerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        record = services.disqualify(
            serializer.validated_data["player"], request.user, reason=serializer.validated_data["reason"]
        )
        return Response(DisqualificationSerializer(record).data, status=status.HTTP_201_CREATED)
