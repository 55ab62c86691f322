"""Live tables: every table of the current hanchan as it stands, hand by hand
(``tournament.queries.live_tables``).
The public page and its JSON, the projector's view (what the public sees, whoever is logged in on it),
and the head referee's page, which flags the slow tables."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from tournament.models import StaffRole, Tournament
from tournament.queries import access
from tournament.queries.live_tables import public_tables, tables_payload
from tournament.views.base import access_tournament, json_with_etag, render_page, shown_names

Role = StaffRole.Role


def payload_for(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What this reader sees: the whole hanchan with the slow tables' flags for the tournament's staff,
    the public payload (computed once per change for everyone) for anyone else."""
    if access.has_role(request.user, tournament, Role.REFEREE):
        return tables_payload(tournament, staff=True)
    return public_tables(tournament)


@require_GET
def live_tables(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return render_page(
        request,
        "tournament/live_tables.html",
        tournament,
        {"payload": payload_for(request, tournament), "watch": False, "shown_names": shown_names(tournament)},
    )


@require_GET
def live_tables_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return json_with_etag(request, payload_for(request, tournament))


@login_required
@require_GET
def tables_watch(request: HttpRequest, slug: str) -> HttpResponse:
    """The head referee's view: the same tables, the slow ones flagged and first, with why."""
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    return render_page(
        request,
        "tournament/live_tables.html",
        tournament,
        {
            "payload": tables_payload(tournament, staff=True),
            "watch": True,
            "shown_names": shown_names(tournament),
        },
    )


@require_GET
def projector_tables(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    # The room's screen: what the public sees, whoever is logged in on it.
    return render_page(
        request,
        "tournament/projector_tables.html",
        tournament,
        {"payload": public_tables(tournament), "shown_names": shown_names(tournament)},
    )


@require_GET
def projector_tables_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's poll: the public payload, whoever is logged in."""
    tournament = access_tournament(request, slug)
    return json_with_etag(request, public_tables(tournament))
