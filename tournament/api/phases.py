"""The REST API of a tournament's phases: set them, make a cut, call a player up, seat a phase by rank."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import services
from tournament.api.base import Role, TournamentScopedViewSet
from tournament.core.phases import PhasePlan
from tournament.core.refusal import Refusal
from tournament.models import (
    Phase,
    Tournament,
)
from tournament.queries import access
from tournament.queries.standings_db import (
    cached_phases,
    public_cutoff,
)


class PhasePlanSerializer(serializers.Serializer[Any]):
    """One phase (``tournament.core.phases.PhasePlan``); ``advance`` and ``carry_over`` from the second on."""

    name = serializers.CharField(max_length=80)
    hanchan = serializers.IntegerField(min_value=1, max_value=40)
    seating = serializers.ChoiceField(choices=Phase.Seating.choices, default=Phase.Seating.OPTIMISED)
    carry_over = serializers.ChoiceField(choices=Phase.CarryOver.choices, default=Phase.CarryOver.KEEP)
    advance = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=4,
        max_value=10_000,
        help_text="How many players the cut before this phase keeps (a multiple of 4); none for the first.",
    )


class SetPhasesSerializer(serializers.Serializer[Any]):
    phases = PhasePlanSerializer(many=True, max_length=6, help_text="Every phase in order; [] for one phase.")


class PhaseEntrySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(help_text="The rank brought from the previous phase (1 the best).")
    replaces = serializers.CharField(allow_null=True, help_text="Called up in place of this player.")
    left = serializers.BooleanField(help_text="Left the phase before it started; ranked in the one before.")


class PhaseSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    first_hanchan = serializers.IntegerField()
    last_hanchan = serializers.IntegerField()
    seating = serializers.CharField()
    carry_over = serializers.CharField(allow_null=True)
    advance = serializers.IntegerField(allow_null=True)
    cut_at = serializers.DateTimeField(allow_null=True)
    reached = serializers.BooleanField(help_text="The cut into it is made (always, for the first phase).")
    entries = PhaseEntrySerializer(many=True)
    standings = serializers.ListField(child=serializers.DictField(), help_text="Rows as in the standings.")


class PhasesSerializer(serializers.Serializer[Any]):
    phases = PhaseSerializer(many=True)
    as_of = serializers.IntegerField(allow_null=True)


class CutSerializer(serializers.Serializer[Any]):
    chosen = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=1000,
        required=False,
        default=list,
        help_text="Players equal across the line after every tie-break: the ones who advance.",
    )


class CallUpSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1, help_text="The player who leaves the phase.")


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
