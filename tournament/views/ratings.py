"""The ratings (docs/ratings.md): a tournament's skill rating list of its players from the hanchan the
reader may see; the site's and a series' rating lists (the skill rating and the MERS ranking) from what
the public sees of their tournaments."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.views.decorators.http import require_GET

from tournament.core.names import shown_name
from tournament.models import Player, Series, Tournament
from tournament.queries import access
from tournament.queries.ratings_db import RatingList, entrant_names, list_rows, skill_of
from tournament.queries.standings_db import reader_cutoff, remember_live
from tournament.services.ratings import run_of, served_series_list, served_site_list
from tournament.views.base import access_tournament, render_page


@require_GET
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    up_to = reader_cutoff(request.user, tournament)
    rounds = access.public_rounds(request.user, tournament)
    # Every hanchan is rated again for the page (about 150 us a table): a visitor without a session gets
    # the copy every other gets, computed once per change of the results (the standings' version) and per
    # language, as the awards page does.
    if request.user.is_authenticated or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return _page(request, tournament, up_to, rounds)
    shown = "all" if rounds is None else ",".join(str(number) for number in sorted(rounds))
    part = f"ratings-html:{up_to}:{shown}:{translation.get_language()}"
    body = remember_live(
        tournament, part, lambda: {"body": _page(request, tournament, up_to, rounds).content.decode()}
    )["body"]
    return HttpResponse(body)


def _page(
    request: HttpRequest, tournament: Tournament, up_to: int | None, rounds: Collection[int] | None
) -> HttpResponse:
    result = skill_of(tournament, up_to=up_to, rounds=rounds)
    # The ranked field only: substitutes' and disqualified players' games rate the others, but they are
    # not listed (WRCR 2015 §7.1, §7.2).
    players = {
        player.pk: player
        for player in Player.objects.filter(tournament=tournament, is_substitute=False, disqualified=False)
    }
    rows = []
    for player, skill, games in result.table():
        if player in players:
            rating, mu, sigma = skill.shown()
            rows.append(
                {"player": players[player], "rating": rating, "mu": mu, "sigma": sigma, "games": games}
            )
    return render_page(request, "tournament/ratings.html", tournament, {"rows": rows, "as_of": up_to})


# -- The site's and a series' rating lists ------------------------------------------------------------

PAGE_SIZE = 100


@require_GET
def site_ratings(request: HttpRequest) -> HttpResponse:
    """The site's rating list: the skill rating, or (``?list=mers``) the MERS ranking, over every public
    tournament, a hundred entrants a page; the stored list, never computed here once one is stored
    (``services.ratings.served_list``)."""
    return _list_page(request, served_site_list(), None)


@require_GET
def series_ratings(request: HttpRequest, series_slug: str) -> HttpResponse:
    """A series' rating list: the same over its public tournaments."""
    series = get_object_or_404(Series, slug=series_slug)
    return _list_page(request, served_series_list(series), series)


def _list_page(request: HttpRequest, ratings: RatingList, series: Series | None) -> HttpResponse:
    which = "mers" if request.GET.get("list") == "mers" else "skill"
    entries: list[Any] = ratings.mers if which == "mers" else ratings.skill
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    language = translation.get_language() or ""
    rows = [
        {**row, "shown": shown_name(row["name"], row["native_name"], language)}
        for row in list_rows(ratings, which, list(page), page.start_index())
    ]
    return render_page(
        request,
        "tournament/rating_list.html",
        None,
        {
            "series": series,
            "which": which,
            "rows": rows,
            "page": page,
            "events": ratings.events,
            "mers_events": [event for event in ratings.events if event["mers"]],
            "as_of": ratings.as_of,
            "updated_at": ratings.updated_at,
            "stale": ratings.stale,
            "failing": ratings.failing,
            **staff_notes(request, ratings),
        },
    )


def staff_notes(request: HttpRequest, ratings: RatingList) -> dict[str, Any]:
    """For the site's staff: the list's last failed recompute (when it failed, how many times in a
    row, its cause, the next try) and the results left out of it because they cannot be rated."""
    if not getattr(request.user, "is_staff", False):
        return {}
    run = run_of(ratings.scope)
    events = {event["id"]: event["name"] for event in ratings.events}
    entrants = [fault["entrant"] for fault in ratings.left_out if fault["entrant"]]
    names = entrant_names(entrants, list(events)) if entrants else {}
    left_out = [
        {**fault, "event": events.get(fault["tournament"], ""), "who": names.get(fault["entrant"], ("",))[0]}
        for fault in ratings.left_out
    ]
    return {
        "failed_run": run if run is not None and run.failures else None,
        "left_out": left_out,
        "left_out_count": ratings.left_out_count,
    }
