"""A club session's page (``tournament.core.club``): its open tables, the players present and free, the
standings with the hanchan each has played, and, for those who may, the form that seats a table and the
button that takes a table formed by mistake back."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament.core import participation
from tournament.core.collation import name_key
from tournament.core.refusal import Refusal
from tournament.forms.day import ClubTableForm
from tournament.models import Player, Seat, Table, Tournament
from tournament.queries import access
from tournament.queries.participation_db import tournament_states
from tournament.queries.standings_db import cached_summary, reader_cutoff
from tournament.services import club as club_services
from tournament.views.base import access_tournament, add_refusal, render_page

WIND_NAMES = dict(Seat.Wind.choices)


def session_of(request: HttpRequest, slug: str) -> Tournament:
    tournament = access_tournament(request, slug)
    if not tournament.is_club_session:
        raise Http404("Not a club session")
    return tournament


def _field(tournament: Tournament) -> tuple[list[Player], list[Player]]:
    """The players present and free, by name; then the others (playing, or not checked in), by name."""
    states = tournament_states(tournament)
    players = sorted(tournament.players.all(), key=lambda p: name_key(p.name))
    free = [p for p in players if states.get(p.pk) == participation.State.CHECKED_IN]
    others = [p for p in players if p not in free and states.get(p.pk) != participation.State.DISQUALIFIED]
    return free, others


def _page(
    request: HttpRequest, tournament: Tournament, form: ClubTableForm | None = None, *, status: int = 200
) -> HttpResponse:
    free, others = _field(tournament)
    player = access.player_of(request, tournament)
    may_form = club_services.may_form_tables(request.user, player, tournament)
    if form is None and may_form:
        form = ClubTableForm(free=free, others=others)
    tables = [
        {
            "table": table,
            "sheet": getattr(table, "sheet", None),
            "seats": [(WIND_NAMES[seat.wind], seat.player) for seat in table.seats.all()],
            "may_take_back": club_services.may_take_back(
                request.user, player, table, sheet_saved=hasattr(table, "sheet")
            ),
        }
        for table in club_services.open_tables(tournament)
    ]
    summary = cached_summary(tournament, reader_cutoff(request.user, tournament))
    context: dict[str, Any] = {
        "tables": tables,
        "free": free,
        "form": form if may_form else None,
        "rows": summary["rows"],
    }
    return render_page(request, "tournament/club.html", tournament, context, status=status)


@require_GET
def club_session(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, session_of(request, slug))


@require_POST
def form_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat four players at a new table (the organisers, or a player signed in when the session allows
    it); a refusal shows the page again with each problem beside its seat."""
    tournament = session_of(request, slug)
    player = access.player_of(request, tournament)
    if not club_services.may_form_tables(request.user, player, tournament):
        if not request.user.is_authenticated and player is None:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(
            _("Only the organisers form the tables of {name}.").format(name=tournament.name)
        )
    free, others = _field(tournament)
    form = ClubTableForm(request.POST, free=free, others=others)
    if form.is_valid():
        try:
            table = club_services.form_table(
                tournament,
                request.user,
                form.seats(),
                draw_winds=form.cleaned_data["draw_winds"],
                player=player,
            )
        except Refusal as refusal:
            add_refusal(form, refusal)
        else:
            names = ", ".join(seat.player.name for seat in table.seats.select_related("player"))
            message = _("Hanchan {number}: {names} sit down.").format(number=table.round.number, names=names)
            messages.success(request, message)
            return redirect("tournament:club", slug=tournament.slug)
    return _page(request, tournament, form, status=400)


@require_POST
def take_back_table(request: HttpRequest, slug: str, hanchan: int) -> HttpResponse:
    """Take back the table of this hanchan, formed by mistake (the organisers and head referees; the
    player who formed it, for a while, where the session lets its players form tables); a refusal shows
    the page again with why."""
    tournament = session_of(request, slug)
    player = access.player_of(request, tournament)
    if player is None and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(  # a hanchan of a session has one table, table 1
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=hanchan,
        number=1,
    )
    try:
        taken = club_services.take_back_table(table, request.user, player=player)
    except Refusal as refusal:
        messages.error(request, refusal.message)
        return _page(request, tournament, status=refusal.status)
    message = _("Hanchan {number} taken back: {names} are free again.").format(
        number=taken.hanchan, names=", ".join(taken.players)
    )
    messages.success(request, message)
    return redirect("tournament:club", slug=tournament.slug)
