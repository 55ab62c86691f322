"""The REST API of a tournament's staff: roles given, changed and removed, accounts invited."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import services
from tournament.api.base import Role, TournamentScopedViewSet
from tournament.core.inputs import RULE_PRINTABLE, control_problem
from tournament.models import (
    StaffRole,
)


class StaffRoleSerializer(serializers.ModelSerializer[StaffRole]):
    username = serializers.CharField(source="user.get_username", read_only=True)
    granted_by = serializers.SerializerMethodField()

    class Meta:
        model = StaffRole
        fields = ("id", "user", "username", "role", "granted_by", "granted_at")
        read_only_fields = fields

    def get_granted_by(self, staff: StaffRole) -> str | None:
        return staff.granted_by.get_username() if staff.granted_by else None


class PrintableSlugField(serializers.SlugRelatedField[Any]):
    """A slug looked up only when it is printable text: a NUL in it would reach the database's query."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            why = control_problem(data)
            if why is not None:
                raise serializers.ValidationError(f"{self.field_name}: {why}", code=RULE_PRINTABLE)
        return super().to_internal_value(data)


class GrantRoleSerializer(serializers.Serializer[Any]):
    username = PrintableSlugField(
        slug_field="username", queryset=get_user_model().objects.all(), help_text="The user's login name."
    )
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class InviteStaffSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, help_text="The new account's login name.")
    email = serializers.EmailField(required=False, default="")
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class InvitedStaffSerializer(serializers.Serializer[Any]):
    """The invited account: its role, and its password, given in this answer only."""

    username = serializers.CharField()
    role = serializers.CharField()
    password = serializers.CharField(help_text="Shown once: only its hash is stored.")


class ChangeRoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


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
