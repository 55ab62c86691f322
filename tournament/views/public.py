"""The public pages (anyone for a public tournament; its staff for a private one): the list of
tournaments, a tournament's home, standings, seating, players, a player's results and the projector."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.models import ScoreSheet
from scoring.rules.ruleset import differences, get_ruleset
from tournament import services
from tournament.core import event_calendar
from tournament.core.presentation import points_chart, rank_chart
from tournament.core.statistics import player_statistics
from tournament.forms.rules import rule_label
from tournament.models import Absence, Player, Round, Seat, StaffRole, Tournament
from tournament.queries import access, event_calendar_db
from tournament.queries.live_standings import playing_rounds, standings_payload
from tournament.queries.phases_db import phase_names
from tournament.queries.standings_db import (
    cached_phases,
    cached_standings,
    public_cutoff,
    reader_cutoff,
    remember_live,
    visible_penalties,
)
from tournament.queries.statistics_db import signed_sheets
from tournament.views.base import (
    access_tournament,
    json_with_etag,
    players_in_order,
    render_page,
    shown_names,
)

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
IMPORT_SECONDS = 30 * 60


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    coming = event_calendar_db.coming_events(_base_url(request))
    months = [
        (month, [{"event": e, "state": event_calendar_db.describe(e)} for e in events])
        for month, events in event_calendar.by_month(coming)
    ]
    return render_page(
        request,
        "tournament/index.html",
        None,
        {
            "months": months,
            "tournaments": access.visible_tournaments(request.user),
            "can_create": access.can_create_tournament(request.user),
            "can_invite": access.can_invite_organisers(request.user),
        },
    )


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _ics(request: HttpRequest, events: list[event_calendar.Event], title: str, name: str) -> HttpResponse:
    base = _base_url(request)
    body = event_calendar.feed(
        events,
        title=title,
        host=event_calendar_db.feed_host(base),
        now=timezone.now(),
        description=event_calendar_db.describe,
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


@require_GET
def calendar_feed(request: HttpRequest) -> HttpResponse:
    """The coming events of the site's home page as an iCalendar feed (never a private one)."""
    return _ics(
        request, event_calendar_db.coming_events(_base_url(request)), _("Riichi tournaments"), "calendar"
    )


@require_GET
def tournament_calendar_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """One tournament's event as an iCalendar feed, for whoever sees the tournament's pages."""
    tournament = access_tournament(request, slug)
    events = event_calendar_db.events([tournament], _base_url(request), timezone.now())
    return _ics(request, events, tournament.name, tournament.slug)


@require_GET
def home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    rounds = list(tournament.rounds.annotate(table_count=Count("tables")))
    club = tournament.is_club_session
    visible = access.public_rounds(request.user, tournament)
    # The current hanchan; a club session's every table in play, each its own hanchan (live_standings).
    playing = [r for r in playing_rounds(tournament) if visible is None or r.number in visible]
    next_seats: dict[int, dict[str, Any]] = {}
    number_of = {round_.pk: round_.number for round_ in playing}
    open_tables: dict[int, list[str]] = {number: [] for number in number_of.values()} if club else {}
    # Only a club session's page names the players at each table.
    seats = Seat.objects.filter(round__in=playing).select_related("table", *(["player"] if club else []))
    for seat in seats.order_by("round__number", "wind"):
        next_seats[seat.player_id] = {"table": seat.table.number, "wind": WIND_NAMES[seat.wind]}
        if club:  # each player at one open table at most (tournament.club, player-free)
            hanchan = number_of[seat.round_id]
            next_seats[seat.player_id]["hanchan"] = hanchan
            open_tables[hanchan].append(seat.player.name)
    (event,) = event_calendar_db.events([tournament], _base_url(request), timezone.now())
    return render_page(
        request,
        "tournament/home.html",
        tournament,
        {
            "rounds": rounds,
            "player_count": tournament.players.filter(is_substitute=False).count(),
            "ruleset_label": Tournament.Preset(tournament.ruleset_preset).label,
            "rule_changes": rule_changes(tournament),
            "next_seats": next_seats,
            "open_tables": [{"hanchan": number, "players": names} for number, names in open_tables.items()],
            # Players signing up themselves: the registration's state, a link to the registered.
            "registration_state": event_calendar_db.describe(event),
        },
    )


def rule_changes(tournament: Tournament) -> list[dict[str, str]]:
    """The tournament's rules that differ from its preset, in words: each with the form's label, its value
    and the preset's. None where custom rules only restate the preset."""
    preset = get_ruleset(tournament.ruleset_preset)
    return [
        {"label": rule_label(field), "value": rule_value(value), "preset": rule_value(before)}
        for field, before, value in differences(tournament.ruleset(), preset)
    ]


def rule_value(value: Any) -> str:
    """A rule's value as the page shows it: yes or no, the uma's four numbers, a list, a number."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list | tuple):
        return " / ".join(f"{item:g}" if isinstance(item, float) else str(item) for item in value) or _(
            "none"
        )
    if value in ("", None):
        return _("none")
    return f"{value:g}" if isinstance(value, float) else str(value)


def standings_cutoff(request: HttpRequest, tournament: Tournament) -> int | None:
    """After which hanchan this visitor sees the standings: whole for the tournament's staff, as the
    tournament publishes them for everyone else (``standings_db.public_cutoff``)."""
    return reader_cutoff(request.user, tournament)


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)

    up_to = standings_cutoff(request, tournament)
    public = public_cutoff(tournament) if up_to is None else up_to

    def page() -> HttpResponse:
        payload = standings_payload(tournament, up_to)
        names = shown_names(tournament)
        # The rows are rendered once per change of the standings or of the names shown (a fragment
        # cached under this digest and the language).
        body = json.dumps([payload, names], separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256(body.encode()).hexdigest()[:32]
        return render_page(
            request,
            "tournament/standings.html",
            tournament,
            {
                "standings": payload,
                "digest": digest,
                "public_as_of": public,
                "shown_names": names,
                "phases": cached_phases(tournament, up_to)["phases"],
            },
        )

    # The page players open on their phones: a visitor without a session (no login, no message waiting)
    # gets the same page as every other, rendered once for a moment.
    if request.user.is_authenticated or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return page()
    language = translation.get_language()  # one copy per language of the page
    cached = remember_live(tournament, f"html:{up_to}:{language}", lambda: {"body": page().content.decode()})
    return HttpResponse(cached["body"])


@require_GET
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return json_with_etag(request, standings_payload(tournament, standings_cutoff(request, tournament)))


@require_GET
def seating(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    tournament = access_tournament(request, slug)
    rounds = list(tournament.rounds.all())
    if number is None:
        current = services.current_round(tournament)
        number = current.number if current else (rounds[-1].number if rounds else 1)
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None and rounds:
        raise Http404("No such hanchan")
    visible = access.public_rounds(request.user, tournament)
    hidden = round_ is not None and visible is not None and round_.number not in visible
    tables = []
    if round_ is not None and not hidden:
        tables = list(
            round_.tables.prefetch_related(
                Prefetch("seats", Seat.objects.select_related("player", "replaces").order_by("wind"))
            ).order_by("number")
        )
    return render_page(
        request,
        "tournament/seating.html",
        tournament,
        {
            "rounds": [r for r in rounds if visible is None or r.number in visible],
            "round": round_,
            "tables": tables,
            "hidden": hidden,
            "staff_view": visible is None and tournament.seating_publication != "all",
        },
    )


@require_GET
def players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return render_page(
        request,
        "tournament/players.html",
        tournament,
        {"players": players_in_order(tournament)},
    )


@require_GET
def player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    cutoff = standings_cutoff(request, tournament)
    data = cached_standings(tournament, cutoff)
    row = next((r for r in data["rows"] if r["player"] == person.pk), None)
    ranked_count = sum(1 for r in data["rows"] if r["ranked"])
    visible = access.public_rounds(request.user, tournament)
    seats = {
        s.round.number: s
        for s in Seat.objects.filter(player=person).select_related("round", "table")
        if visible is None or s.round.number in visible
    }
    absences = {
        a.round.number: a for a in Absence.objects.filter(player=person).select_related("round", "substitute")
    }
    active = list(
        visible_penalties(person.penalties.filter(revoked_at=None), cutoff)
        .select_related("round")
        .order_by("given_at")
    )
    # Only the hanchan this visitor may see: the standings' cutoff (hidden hanchan) and the published seating.
    ruleset = tournament.ruleset()
    stats = player_statistics(
        person.pk, signed_sheets(tournament, up_to=cutoff, rounds=visible, player=person), ruleset
    )
    by_round = row["by_round"] if row else {}
    history = row["rank_history"] if row else []
    hanchan = []
    # A club session's hanchan are its tables: the player's are those they sat at (tournament.club).
    numbers = sorted(seats) if tournament.is_club_session else range(1, tournament.hanchan_count + 1)
    for number in numbers:
        seat = seats.get(number)
        result = by_round.get(str(number))
        round_penalties = [p for p in active if p.round is not None and p.round.number == number]
        hanchan.append(
            {
                "number": number,
                "table": seat.table.number if seat else None,
                "wind": WIND_NAMES[seat.wind] if seat else "",
                "absence": absences.get(number),
                "result": result,
                # Grouped as the reader's language writes it: 32,400, 32 400 (fr, ru), 32.400 (de).
                "points": number_format(result["points"], force_grouping=True) if result else "",
                "penalties": round_penalties,
                "penalty_total": sum((p.points for p in round_penalties), Decimal(0)),
                "rank_after": history[number - 1] if number - 1 < len(history) else None,
            }
        )
    me = access.player_of(request, tournament)
    return render_page(
        request,
        "tournament/player.html",
        tournament,
        {
            "signed_in_here": me is not None and me.pk == person.pk,
            "my_table": _my_table(tournament, person, seats)
            if me is not None and me.pk == person.pk
            else None,
            "player": person,
            "row": row,
            "hanchan": hanchan,
            "other_penalties": [p for p in active if p.round is None],
            "penalty_count": len(active),
            "chart": rank_chart(history, ranked_count, tournament.hanchan_count)
            if row and row["ranked"]
            else None,
            "ranked_count": ranked_count,
            "phase_name": _phase_name(tournament, row),
            "stats": stats,
            "points_chart": points_chart(
                [(s.hanchan, s.points) for s in stats.series], ruleset.starting_points
            ),
        },
    )


def _phase_name(tournament: Tournament, row: dict[str, Any] | None) -> str:
    """The name of the last phase a ranked player reached, in a tournament in phases ("" otherwise)."""
    if row is None or not row["ranked"]:
        return ""
    return phase_names(tournament.pk).get(row.get("phase", 1), "")


def next_seating(tournament: Tournament) -> dict[str, Any]:
    """The seating of the next hanchan to play (the first one seated and not started) as the public sees
    it: empty until its seating is published (``access.public_rounds``)."""
    upcoming = (
        tournament.rounds.filter(status__in=[Round.Status.PLANNED, Round.Status.SEATED], tables__isnull=False)
        .order_by("number")
        .first()
    )
    visible = access.public_rounds(None, tournament)
    if upcoming is None or (visible is not None and upcoming.number not in visible):
        return {"round": None, "tables": []}
    tables: dict[int, list[dict[str, str]]] = {}
    for number, wind, name in (
        Seat.objects.filter(round=upcoming)
        .order_by("table__number", "wind")
        .values_list("table__number", "wind", "player__name")
    ):
        tables.setdefault(number, []).append({"wind": WIND_NAMES[wind], "name": name})
    return {"round": upcoming.number, "tables": [{"table": n, "seats": s} for n, s in tables.items()]}


def _my_table(tournament: Tournament, person: Player, seats: dict[int, Seat]) -> Seat | None:
    """The player's table whose sheet is still to enter or confirm (the first such hanchan they see), when
    the tournament's players enter the results."""
    if tournament.entry_mode != Tournament.EntryMode.PLAYERS:
        return None
    signed = set(
        ScoreSheet.objects.filter(
            table__in=[seat.table_id for seat in seats.values()], status=ScoreSheet.Status.SIGNED
        ).values_list("table_id", flat=True)
    )
    return next((seats[n] for n in sorted(seats) if seats[n].table_id not in signed), None)


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    # The room's screen: what the public sees, whoever is logged in on it.
    payload = standings_payload(tournament, public_cutoff(tournament))
    return render_page(
        request,
        "tournament/projector.html",
        tournament,
        {"standings": payload, "seating": next_seating(tournament), "shown_names": shown_names(tournament)},
    )


@require_GET
def projector_seating(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's poll of the next hanchan's seating (published only)."""
    tournament = access_tournament(request, slug)
    return json_with_etag(request, next_seating(tournament))
