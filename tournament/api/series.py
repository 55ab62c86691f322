"""The REST API of series and ratings: series and their standings, the site's rating lists, a person's
events.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.rules.scores import format_score
from tournament.api.base import Pagination
from tournament.models import (
    SERIES_FIELDS,
    Person,
    Series,
    Tournament,
)
from tournament.queries import access
from tournament.queries.ratings_db import RatingList, list_rows
from tournament.queries.series_db import person_events, series_table
from tournament.services import series as series_services
from tournament.services.ratings import served_series_list, served_site_list


class SeriesSerializer(serializers.ModelSerializer[Series]):
    """A series as anyone sees it: its rule and the ids of its tournaments this user may see."""

    tournaments = serializers.SerializerMethodField(help_text="The ids of its tournaments this user sees.")

    class Meta:
        model = Series
        fields = ("id", *SERIES_FIELDS, "tournaments", "created_at")
        read_only_fields = fields

    def get_tournaments(self, series: Series) -> list[int]:
        visible = self.context["visible"]
        return [t.pk for t in series.tournaments.all() if t.pk in visible]


class SeriesInputSerializer(serializers.Serializer[Any]):
    """A new series, or the fields of one to change (PATCH: only those given)."""

    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    rule = serializers.ChoiceField(choices=Series.Rule.choices)
    best_n = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    min_events = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    points = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        max_length=200,
        help_text="The points of each final rank, first place first (numbers or decimal strings).",
    )
    tournaments = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=200,
        help_text="Tournament ids.",
    )
    awards = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.Award.choices),
        max_length=len(Tournament.Award.choices),
        required=False,
        help_text="The awards shown on the series' awards page and projector, over the hands of its "
        "tournaments the public sees (the tournament's award names), each at most once.",
    )

    def validate_awards(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Awards: each award at most once."), code="awards")
        return value


class PersonEventSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    slug = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    starts_on = serializers.DateField(source="tournament.starts_on")
    player = serializers.IntegerField(source="player.pk")
    rank = serializers.IntegerField(allow_null=True)
    ranked_count = serializers.IntegerField()
    total = serializers.CharField()
    played = serializers.IntegerField()


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
