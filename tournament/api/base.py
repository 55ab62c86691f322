"""The shared pieces of the REST API's views (docs/api.md): the pagination, the lookup of a tournament the
caller may see, the base of every view scoped to a tournament, and the references to a player and a
hanchan that several resources read. ``scoring.api``, ``penalties.api`` and ``exports.api`` import them.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from tournament.models import (
    Player,
    Round,
    StaffRole,
    Tournament,
)
from tournament.queries import access


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ("id", "name")
        read_only_fields = fields


class TournamentPlayerField(serializers.PrimaryKeyRelatedField[Player]):
    """A player id, looked up among the players of the view's tournament (context ``tournament``)."""

    queryset = Player.objects.all()

    def get_queryset(self) -> Any:
        return Player.objects.filter(tournament=self.context["tournament"])


class RoundNumberField(serializers.SlugRelatedField[Round]):
    """A hanchan given by its number in the view's tournament (context ``tournament``)."""

    queryset = Round.objects.all()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="number", **kwargs)

    def get_queryset(self) -> Any:
        return Round.objects.filter(tournament=self.context["tournament"]).select_related("tournament")


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
