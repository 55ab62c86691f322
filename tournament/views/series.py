"""A series' public pages: the list of series, a series' standings, its events and its projector view.
Everyone sees the same: what the public sees of each of its tournaments (``tournament.queries.series_db``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import translation
from django.views.decorators.http import require_GET, require_http_methods

from tournament.core.awards import AWARDS
from tournament.core.names import shown_name
from tournament.core.refusal import Refusal
from tournament.forms.organiser import SeriesForm
from tournament.models import Series
from tournament.queries import access
from tournament.queries.awards_db import series_awards_of
from tournament.queries.series_db import public_events, series_page, series_table
from tournament.services import series as series_services
from tournament.views.awards import series_award_rows
from tournament.views.base import add_refusal, render_page

# The standings page shows this many entrants a page (a season of thousands renders in time).
PAGE_SIZE = 100


def _shown_rows(table: dict[str, Any], rows: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    language = translation.get_language() or ""
    names = {event["id"]: event["name"] for event in table["events"]}
    return [
        {
            **row,
            "shown": shown_name(row["name"], row["native_name"], language),
            "counted": [{**result, "event_name": names[result["event"]]} for result in row["results"]],
        }
        for row in (table["rows"] if rows is None else rows)
    ]


@require_GET
def series_index(request: HttpRequest) -> HttpResponse:
    return render_page(
        request,
        "tournament/series_index.html",
        None,
        {"series_list": Series.objects.all(), "can_create": access.can_create_series(request.user)},
    )


@require_GET
def series_standings(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    # Only the page shown is read from the cache, not the whole season.
    head, first = series_page(series, 1, PAGE_SIZE)
    page = Paginator(range(head["count"]), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = first if page.number == 1 else series_page(series, page.number, PAGE_SIZE)[1]
    return render_page(
        request,
        "tournament/series.html",
        None,
        {
            "series": series,
            "table": head,
            "page": page,
            "rows": _shown_rows(head, rows),
            "can_edit": access.can_edit_series(request.user, series),
        },
    )


@require_GET
def series_events(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    return render_page(
        request, "tournament/series_events.html", None, {"series": series, "events": public_events(series)}
    )


@require_GET
def series_projector(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    table = series_table(series)
    return render_page(
        request,
        "tournament/series_projector.html",
        None,
        {"series": series, "rows": [row for row in _shown_rows(table) if row["rank"] is not None]},
    )


def _awards_context(series: Series) -> dict[str, Any]:
    """The series' chosen awards over what the public sees of its tournaments (the page and the
    projector alike: a series is public, its staff see what everyone sees)."""
    result, entrants = series_awards_of(series)
    names = {event.pk: event.name for event in public_events(series)}
    return {"series": series, "result": result, "awards": series_award_rows(result, entrants, names)}


@require_GET
def series_awards(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    return render_page(request, "tournament/series_awards.html", None, _awards_context(series))


@require_GET
def series_projector_awards(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    return render_page(request, "tournament/series_awards_projector.html", None, _awards_context(series))


@login_required
@require_http_methods(["GET", "POST"])
def series_form(request: HttpRequest, series_slug: str | None = None) -> HttpResponse:
    """A new series (organisers: whoever may create a tournament), or a series changed by its creator
    or a site admin; the tournaments offered are those the user may see."""
    series = get_object_or_404(Series, slug=series_slug) if series_slug is not None else None
    access.require_edit_series(request.user, series)
    visible = access.visible_tournaments(request.user).order_by("-starts_on", "name")
    initial = {}
    if series is not None:
        initial = {
            "name": series.name,
            "slug": series.slug,
            "rule": series.rule,
            "best_n": series.best_n,
            "min_events": series.min_events,
            "points": ", ".join(series.points),
            "awards": series.awards,
            "tournaments": list(series.tournaments.all()),
        }
    form = SeriesForm(request.POST or None, initial=initial, visible=visible)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {name: data[name] for name in ("name", "slug", "rule", "best_n", "min_events")}
        fields["points"] = form.points_list()
        fields["awards"] = [key for key in AWARDS if key in set(data["awards"])]
        chosen = [t.pk for t in data["tournaments"]]
        try:
            if series is None:
                series = series_services.create_series(request.user, tournaments=chosen, **fields)
            else:
                series = series_services.update_series(series, request.user, tournaments=chosen, **fields)
        except (Refusal, ValidationError) as refusal:
            add_refusal(form, refusal)
        else:
            return redirect("tournament:series", series_slug=series.slug)
    return render_page(request, "tournament/series_form.html", None, {"form": form, "series": series})
