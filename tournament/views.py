"""The tournament's pages: public ones for players and the projector, the organisers' pages, and the
small JSON views that keep the standings and the hanchan clock live.

Each view validates its input, authorises through ``access_tournament`` (which asks
``tournament.access``), calls one service and renders. Reads for display are here; every change is a
service call. See docs/pages.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.models import ScoreSheet
from tournament import access, services
from tournament.forms import (
    CheckInForm,
    ClockForm,
    ImportConfirmForm,
    PlayerFileForm,
    PlayerForm,
    SeatingForm,
    StaffForm,
    SubstituteForm,
    SwissForm,
    TableTimeForm,
    TournamentForm,
    WithdrawForm,
)
from tournament.models import (
    Absence,
    Player,
    Round,
    Seat,
    SeatingJob,
    StaffRole,
    Table,
    Tournament,
)
from tournament.registration import PlayerFileError
from tournament.standings_db import cached_standings, cached_summary, remember_live

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
IMPORT_SECONDS = 30 * 60

# ---------------------------------------------------------------------------------------------------
# Shared by every page


def access_tournament(request: HttpRequest, slug: str, minimum: str | None = None) -> Tournament:
    """The tournament of the URL, if this user may see it (404 otherwise: a private tournament does not
    show that it exists) and, with ``minimum``, holds at least that role in it (403 otherwise)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_view(request.user, tournament):
        raise Http404("No such tournament")
    if minimum is not None and not access.has_role(request.user, tournament, minimum):
        raise PermissionDenied(f"This page is for the {Role(minimum).label.lower()}s of {tournament.name}.")
    return tournament


def format_seconds(seconds: float) -> str:
    """1:29:05, 4:05: the clock as it shows before the browser takes over the counting."""
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_payload(round_: Round | None) -> dict[str, Any]:
    if round_ is None:
        return {"round": None, "state": "none", "seconds_left": 0, "ends_at": None, "display": ""}
    clock = round_.clock().as_dict(timezone.now())
    return {
        "round": round_.number,
        "round_status": round_.status,
        **clock,
        "display": format_seconds(float(clock["seconds_left"])),  # type: ignore[arg-type]
    }


def render_page(
    request: HttpRequest,
    template: str,
    tournament: Tournament | None,
    context: dict[str, Any] | None = None,
    *,
    status: int = 200,
) -> HttpResponse:
    """Render a page of a tournament with what the base template needs: the user's role (for the
    staff links) and the hanchan clock of the current hanchan."""
    page: dict[str, Any] = {"tournament": tournament}
    if tournament is not None:
        role = access.role_of(request.user, tournament)
        rank = StaffRole.RANK.get(role, 0) if role else 0  # type: ignore[call-overload]
        current = services.current_round(tournament)
        page.update(
            role=role,
            role_label=Role(role).label if role else "",
            is_referee=rank >= 1,
            is_head_referee=rank >= 2,
            is_organiser=rank >= 3,
            current_round=current,
            clock=clock_payload(current),
        )
    page.update(context or {})
    return render(request, template, page, status=status)


def add_service_error(form: Any, error: Any) -> None:
    """A service's refusal (``field``, ``message``) shown beside the form field it names."""
    if isinstance(error, ValidationError):
        form.add_error(None, error)
        return
    field = getattr(error, "field", None)
    message = getattr(error, "message", str(error))
    form.add_error(field if field in form.fields else None, message)


def json_with_etag(request: HttpRequest, payload: dict[str, Any]) -> HttpResponse:
    """JSON that pollers revalidate cheaply: an unchanged payload answers 304 Not Modified."""
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


# ---------------------------------------------------------------------------------------------------
# Public pages


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render_page(
        request,
        "tournament/index.html",
        None,
        {
            "tournaments": access.visible_tournaments(request.user),
            "can_create": access.can_create_tournament(request.user),
        },
    )


@require_GET
def home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    rounds = list(tournament.rounds.annotate(table_count=Count("tables")))
    current = services.current_round(tournament)
    next_seats: dict[int, dict[str, Any]] = {}
    if current is not None:
        for seat in Seat.objects.filter(round=current).select_related("table"):
            next_seats[seat.player_id] = {"table": seat.table.number, "wind": WIND_NAMES[seat.wind]}
    return render_page(
        request,
        "tournament/home.html",
        tournament,
        {
            "rounds": rounds,
            "player_count": tournament.players.filter(is_substitute=False).count(),
            "ruleset_label": Tournament.Preset(tournament.ruleset_preset).label,
            "next_seats": next_seats,
        },
    )


def standings_payload(tournament: Tournament) -> dict[str, Any]:
    """What the standings page, the projector and their poll share: the cached standings (no
    recomputation) and the tables of the current hanchan still without a signed sheet."""
    return remember_live(tournament.pk, "page", lambda: live_standings(tournament))


def live_standings(tournament: Tournament) -> dict[str, Any]:
    data = cached_summary(tournament.pk)
    current = services.current_round(tournament)
    pending: list[dict[str, Any]] = []
    table_count = 0
    if current is not None:
        tables = Table.objects.filter(round=current).order_by("number").values_list("number", "sheet__status")
        for number, sheet_status in tables:
            table_count += 1
            if sheet_status != ScoreSheet.Status.SIGNED:
                pending.append({"table": number, "status": sheet_status or "none"})
    return {
        "rounds": data["rounds"],
        "current_round": current.number if current else None,
        "current_round_status": current.status if current else None,
        "tables": table_count,
        "pending": pending,
        "player_url": reverse("tournament:player", args=[tournament.slug, 0]).removesuffix("0/"),
        "unranked_count": sum(1 for row in data["rows"] if not row["ranked"]),
        "rows": [
            {
                "player": row["player"],
                "name": row["name"],
                "ranked": row["ranked"],
                "rank": row["rank"],
                "total": row["total"],
                "penalties": row["penalties"],
                "played": row["played"],
            }
            for row in data["rows"]
        ],
    }


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)

    def page() -> HttpResponse:
        payload = standings_payload(tournament)
        # The rows are rendered once per change of the standings (a fragment cached under this digest).
        digest = hashlib.sha256(json.dumps(payload, separators=(",", ":")).encode()).hexdigest()[:32]
        return render_page(
            request, "tournament/standings.html", tournament, {"standings": payload, "digest": digest}
        )

    # The page players open on their phones: a visitor without a session (no login, no message waiting)
    # gets the same page as every other, rendered once for a moment.
    if request.user.is_authenticated or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return page()
    cached = remember_live(tournament.pk, "html", lambda: {"body": page().content.decode()})
    return HttpResponse(cached["body"])


@require_GET
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return json_with_etag(request, standings_payload(tournament))


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
    tables = []
    if round_ is not None:
        tables = list(
            round_.tables.prefetch_related(
                Prefetch("seats", Seat.objects.select_related("player", "replaces").order_by("wind"))
            ).order_by("number")
        )
    return render_page(
        request,
        "tournament/seating.html",
        tournament,
        {"rounds": rounds, "round": round_, "tables": tables},
    )


@require_GET
def players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return render_page(
        request,
        "tournament/players.html",
        tournament,
        {"players": tournament.players.order_by("is_substitute", "name")},
    )


def rank_chart(history: list[int | None], field: int, hanchan_count: int) -> dict[str, Any] | None:
    """Geometry of the small rank-after-each-hanchan chart (1st at the top, one column per hanchan of
    the tournament), for an inline SVG drawn on the server."""
    known = [(index, rank) for index, rank in enumerate(history) if rank is not None]
    if not known or field < 1:
        return None
    width, height, left, right, top, bottom = 320, 150, 34, 14, 16, 26
    columns = max(hanchan_count, len(history), 2)

    def x(index: int) -> float:
        return round(left + index * (width - left - right) / (columns - 1), 1)

    def y(rank: int) -> float:
        return round(top + (rank - 1) * (height - top - bottom) / max(field - 1, 1), 1)

    points = [{"x": x(i), "y": y(rank), "rank": rank, "hanchan": i + 1} for i, rank in known]
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "x_labels": [{"x": x(i), "label": i + 1} for i in range(columns)],
        "y_labels": [{"y": y(1), "label": "1st"}, {"y": y(field), "label": str(field)}],
        "bottom": height - bottom,
        "left": left,
        "right": width - right,
        "top": top,
    }


@require_GET
def player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    data = cached_standings(tournament.pk)
    row = next((r for r in data["rows"] if r["player"] == person.pk), None)
    ranked_count = sum(1 for r in data["rows"] if r["ranked"])
    seats = {s.round.number: s for s in Seat.objects.filter(player=person).select_related("round", "table")}
    absences = {
        a.round.number: a for a in Absence.objects.filter(player=person).select_related("round", "substitute")
    }
    active = list(person.penalties.filter(revoked_at=None).select_related("round").order_by("given_at"))
    by_round = row["by_round"] if row else {}
    history = row["rank_history"] if row else []
    hanchan = []
    for number in range(1, tournament.hanchan_count + 1):
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
                "points": f"{result['points']:,}" if result else "",
                "penalties": round_penalties,
                "penalty_total": sum((p.points for p in round_penalties), Decimal(0)),
                "rank_after": history[number - 1] if number - 1 < len(history) else None,
            }
        )
    return render_page(
        request,
        "tournament/player.html",
        tournament,
        {
            "player": person,
            "row": row,
            "hanchan": hanchan,
            "other_penalties": [p for p in active if p.round is None],
            "penalty_count": len(active),
            "chart": rank_chart(history, ranked_count, tournament.hanchan_count)
            if row and row["ranked"]
            else None,
            "ranked_count": ranked_count,
        },
    )


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    return render_page(
        request, "tournament/projector.html", tournament, {"standings": standings_payload(tournament)}
    )


@require_GET
@never_cache
def clock_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    current = services.current_round(tournament)
    payload = clock_payload(current)
    payload["tables"] = (
        {str(t.number): t.extra_minutes for t in current.tables.exclude(extra_minutes=0)} if current else {}
    )
    payload["server_time"] = timezone.now().isoformat()
    return JsonResponse(payload)


# ---------------------------------------------------------------------------------------------------
# The hanchan clock (organisers operate it; head referees give one table extra minutes)


@login_required
@require_http_methods(["GET", "POST"])
def clock(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    current = services.current_round(tournament)
    clock_form, table_form = ClockForm(), TableTimeForm()
    if request.method == "POST" and current is not None:
        which = request.POST.get("form")
        try:
            if which == "clock":
                clock_form = ClockForm(request.POST)
                if clock_form.is_valid():
                    action, minutes = clock_form.cleaned_data["action"], clock_form.cleaned_data["minutes"]
                    services.operate_clock(current, request.user, action, minutes=minutes or 0)
                    messages.success(request, f"Hanchan {current.number}: clock {action} done.")
                    return redirect("tournament:clock", slug=tournament.slug)
            elif which == "table":
                table_form = TableTimeForm(request.POST)
                if table_form.is_valid():
                    table = current.tables.filter(number=table_form.cleaned_data["table"]).first()
                    if table is None:
                        table_form.add_error("table", f"Hanchan {current.number} has no such table.")
                    else:
                        minutes = table_form.cleaned_data["minutes"]
                        services.give_table_extra_time(table, request.user, minutes)
                        messages.success(request, f"Table {table.number}: {minutes:+d} minutes.")
                        return redirect("tournament:clock", slug=tournament.slug)
            elif which == "finish":
                services.finish_round(current, request.user)
                messages.success(request, f"Hanchan {current.number} is finished.")
                return redirect("tournament:clock", slug=tournament.slug)
        except services.SeatingError as error:
            messages.error(request, error.message)
            return redirect("tournament:clock", slug=tournament.slug)
    tables = []
    signed = 0
    if current is not None:
        tables = list(current.tables.select_related("sheet").order_by("number"))
        signed = sum(1 for t in tables if getattr(t, "sheet", None) is not None and t.sheet.is_signed)
    return render_page(
        request,
        "tournament/clock.html",
        tournament,
        {
            "clock_form": clock_form,
            "table_form": table_form,
            "tables": tables,
            "signed": signed,
            "extra_tables": [t for t in tables if t.extra_minutes],
        },
    )


# ---------------------------------------------------------------------------------------------------
# Organisers


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    if not access.can_create_tournament(request.user):
        raise PermissionDenied("Creating a tournament needs a site admin's permission or an organiser role.")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(request.user, **form.cleaned_data)
        except (services.SeatingError, ValidationError) as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{tournament.name} is created; you are its organiser.")
            return redirect("tournament:manage", slug=tournament.slug)
    return render_page(request, "tournament/tournament_form.html", None, {"form": form, "creating": True})


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=tournament.pk))
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.update_tournament(tournament, request.user, **form.cleaned_data)
        except (services.SeatingError, ValidationError) as error:
            add_service_error(form, error)
        else:
            messages.success(request, "Saved.")
            return redirect("tournament:manage", slug=tournament.slug)
    return render_page(request, "tournament/tournament_form.html", tournament, {"form": form})


@login_required
@require_GET
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    counts = tournament.players.aggregate(
        registered=Count("pk", filter=Q(is_substitute=False) & ~Q(status=Player.Status.WITHDRAWN)),
        checked_in=Count("pk", filter=Q(is_substitute=False, status=Player.Status.CHECKED_IN)),
        substitutes=Count("pk", filter=Q(is_substitute=True) & ~Q(status=Player.Status.WITHDRAWN)),
        withdrawn=Count("pk", filter=Q(status=Player.Status.WITHDRAWN)),
    )
    return render_page(
        request,
        "tournament/manage.html",
        tournament,
        {
            "counts": counts,
            "rounds": tournament.rounds.annotate(
                table_count=Count("tables", distinct=True),
                signed=Count("tables", filter=Q(tables__sheet__status="signed"), distinct=True),
            ),
            "job": tournament.seating_jobs.first(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            person = services.register_player(tournament, request.user, **form.cleaned_data)
        except services.SeatingError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{person} is registered.")
            return redirect("tournament:registration", slug=tournament.slug)
    return render_page(
        request,
        "tournament/registration.html",
        tournament,
        {
            "form": form,
            "file_form": PlayerFileForm(),
            "players": tournament.players.order_by("is_substitute", "name"),
        },
    )


def _import_key(tournament: Tournament, request: HttpRequest, token: str) -> str:
    return f"player-import:{tournament.pk}:{request.user.pk}:{token}"


@login_required
@require_POST
def import_preview(request: HttpRequest, slug: str) -> HttpResponse:
    """Step 1 of an import: read and check the file, store nothing, show every row and every bad row.
    The file waits in the cache (shared by every web process) for the confirmation."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    file_form = PlayerFileForm(request.POST, request.FILES)
    preview, token = None, ""
    if file_form.is_valid():
        upload = file_form.cleaned_data["file"]
        data = upload.read()
        try:
            preview = services.preview_player_file(tournament, data, upload.name, user=request.user)
        except PlayerFileError as error:
            file_form.add_error("file", str(error))
        else:
            if preview.ok:
                token = secrets.token_urlsafe(16)
                cache.set(
                    _import_key(tournament, request, token),
                    {"name": upload.name, "data": data},
                    IMPORT_SECONDS,
                )
    return render_page(
        request,
        "tournament/import_preview.html",
        tournament,
        {
            "file_form": file_form,
            "preview": preview,
            "confirm_form": ImportConfirmForm(initial={"token": token}) if token else None,
        },
        status=200 if file_form.is_valid() else 400,
    )


@login_required
@require_POST
def import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Step 2: import the previewed file (checked again: all or nothing)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = ImportConfirmForm(request.POST)
    stored = (
        cache.get(_import_key(tournament, request, form.data.get("token", ""))) if form.is_valid() else None
    )
    if stored is None:
        messages.error(request, "That upload has expired or was already imported; upload the file again.")
        return redirect("tournament:registration", slug=tournament.slug)
    try:
        preview = services.import_players(tournament, stored["data"], stored["name"], user=request.user)
    except PlayerFileError as error:
        messages.error(request, str(error))
        return redirect("tournament:registration", slug=tournament.slug)
    if not preview.ok:
        return render_page(
            request,
            "tournament/import_preview.html",
            tournament,
            {"file_form": PlayerFileForm(), "preview": preview, "confirm_form": None},
            status=409,
        )
    cache.delete(_import_key(tournament, request, form.cleaned_data["token"]))
    messages.success(request, f"Imported {len(preview.rows)} players from {stored['name']}.")
    return redirect("tournament:registration", slug=tournament.slug)


@login_required
@require_GET
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    return render_page(
        request,
        "tournament/check_in.html",
        tournament,
        {
            "players": tournament.players.order_by("is_substitute", "name"),
            "plan": services.check_in_plan(tournament),
            "sit_out_plan": services.check_in_plan(tournament, prefer="sit_out"),
        },
    )


@login_required
@require_POST
def check_in_toggle(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    form = CheckInForm(request.POST)
    if form.is_valid():
        try:
            services.check_in(person, user=request.user, checked_in=form.cleaned_data["checked_in"])
        except ValueError as error:
            messages.error(request, str(error))
    return redirect(reverse("tournament:check_in", args=[tournament.slug]) + f"#player-{person.pk}")


def report_lines(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The seating quality report in plain words: each figure beside the best any schedule can do."""
    if not report:
        return []
    n, rounds = report["players"], report["rounds"]
    lines = []

    def line(topic: str, ok: bool, text: str) -> None:
        lines.append({"topic": topic, "ok": ok, "text": text})

    bound = report["excess_meetings_lower_bound"]
    excess = report["excess_meetings"]
    if excess == 0:
        text = "No two players meet more than once."
    else:
        text = (
            f"{report['repeat_pairs']} pairs of players meet more than once ({excess} meetings beyond the "
            f"first; at most {report['max_pair_meetings']} meetings for one pair). "
            f"With {n} players over {rounds} hanchan no schedule can have fewer than {bound}."
        )
    line("Opponents", excess == bound, text)
    table_bound = report["table_repeats_lower_bound"]
    consecutive = report["consecutive_table_repeats"]
    text = (
        f"Players come back to a table they already sat at {report['table_repeats']} times "
        f"(at least {table_bound} with {report['tables']} tables); "
        + (
            "never at the same table two hanchan in a row."
            if consecutive == 0
            else f"{consecutive} times at the same table two hanchan in a row."
        )
    )
    line("Tables", report["optimal"]["tables"], text)
    low, high = report["wind_allowed_range"]
    text = (
        f"Every player sits each wind {low} to {high} times"
        if report["wind_warnings"] == 0
        else f"{report['wind_warnings']} players sit a wind fewer than {low} or more than {high} times"
    ) + (
        f"; the largest difference between a player's most and least frequent wind is "
        f"{report['wind_imbalance']} (the best possible is {report['wind_imbalance_lower_bound']})."
    )
    line("Winds", report["optimal"]["winds"], text)
    if report.get("non_meeting_pairs") == 0:
        text = "Every pair of players meets at a table at least once."
    elif report["indirect_checked"]:
        text = (
            f"Players who never meet have at least {report['min_indirect']} opponents in common "
            f"(the aim is {report['indirect_threshold']}, the square root of the field); "
            f"{report['indirect_warnings']} pairs are below that."
        )
    else:
        text = f"Not measured for {rounds} hanchan or fewer: most pairs cannot have common opponents yet."
    line("Common opponents", report["optimal"]["indirect"], text)
    if report.get("errors"):
        line("Validity", False, "; ".join(report["errors"]))
    return lines


@login_required
@require_http_methods(["GET", "POST"])
def seating_manage(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    first_open = (
        tournament.rounds.exclude(status__in=[Round.Status.STARTED, Round.Status.FINISHED])
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    form = SeatingForm(request.POST or None, initial={"from_round": first_open or 1, "seed": 0})
    if request.method == "POST" and form.is_valid():
        try:
            job = services.request_seating(
                tournament,
                request.user,
                from_round=form.cleaned_data["from_round"],
                seed=form.cleaned_data["seed"],
            )
        except services.SeatingError as error:
            add_service_error(form, error)
        else:
            return redirect("tournament:seating_job", slug=tournament.slug, job_id=job.pk)
    job = tournament.seating_jobs.first()
    return render_page(
        request,
        "tournament/seating_manage.html",
        tournament,
        {
            "form": form,
            "swiss_form": SwissForm(initial={"number": first_open or 1, "seed": 0}),
            "job": job,
            "lines": report_lines(job.report) if job and job.state == SeatingJob.State.DONE else [],
            "rounds": tournament.rounds.annotate(table_count=Count("tables")),
        },
    )


@login_required
@require_POST
def seat_swiss(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat one hanchan from the current standings (Swiss), then show it."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = SwissForm(request.POST)
    if form.is_valid():
        number = form.cleaned_data["number"]
        try:
            services.seat_swiss_round(tournament, number, request.user, seed=form.cleaned_data["seed"] or 0)
        except services.SeatingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, f"Hanchan {number} is seated from the standings (Swiss).")
            return redirect("tournament:seating_round", slug=tournament.slug, number=number)
    else:
        messages.error(request, "Give the number of a hanchan that has not started.")
    return redirect("tournament:seating_manage", slug=tournament.slug)


@login_required
@require_GET
def seating_job(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    job = get_object_or_404(SeatingJob, tournament=tournament, pk=job_id)
    return render_page(
        request,
        "tournament/seating_job.html",
        tournament,
        {
            "job": job,
            "lines": report_lines(job.report) if job.state == SeatingJob.State.DONE else [],
            "rounds": tournament.rounds.filter(number__gte=job.from_round),
        },
    )


@login_required
@require_GET
@never_cache
def seating_job_json(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    job = get_object_or_404(SeatingJob, tournament=tournament, pk=job_id)
    return JsonResponse(job.as_dict())


@login_required
@require_http_methods(["GET", "POST"])
def absences(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    which = request.POST.get("form") if request.method == "POST" else None
    substitute_form = SubstituteForm(tournament, request.POST if which == "substitute" else None)
    withdraw_form = WithdrawForm(tournament, request.POST if which == "withdraw" else None)
    try:
        if which == "substitute" and substitute_form.is_valid():
            data = substitute_form.cleaned_data
            services.replace_with_substitute(
                data["round"], data["player"], data["substitute"], request.user, reason=data["reason"]
            )
            messages.success(
                request,
                f"{data['substitute'].name} plays hanchan {data['round'].number} for {data['player'].name}.",
            )
            return redirect("tournament:absences", slug=tournament.slug)
        if which == "withdraw" and withdraw_form.is_valid():
            data = withdraw_form.cleaned_data
            replaced = services.withdraw_player(
                data["player"], request.user, from_round=data["from_round"], substitute=data["substitute"]
            )
            done = f"{data['player'].name} has withdrawn."
            if data["substitute"]:
                done += f" {data['substitute'].name} takes the seat in {len(replaced)} hanchan."
            else:
                done += " Re-seat the hanchan not started from the seating page."
            messages.success(request, done)
            return redirect("tournament:absences", slug=tournament.slug)
    except services.SeatingError as error:
        add_service_error(substitute_form if which == "substitute" else withdraw_form, error)
    return render_page(
        request,
        "tournament/absences.html",
        tournament,
        {
            "substitute_form": substitute_form,
            "withdraw_form": withdraw_form,
            "absences": Absence.objects.filter(round__tournament=tournament).select_related(
                "round", "player", "substitute", "recorded_by"
            ),
            "withdrawn": tournament.players.filter(status=Player.Status.WITHDRAWN),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        grantee = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
        if grantee is None:
            form.add_error("username", "No account has this user name; a site admin creates accounts.")
        else:
            try:
                services.grant_role(tournament, request.user, grantee, form.cleaned_data["role"])
            except services.SeatingError as error:
                add_service_error(form, error)
            else:
                role = form.cleaned_data["role"]
                done = f"{grantee}: {Role(role).label.lower()}." if role else f"{grantee}: role removed."
                messages.success(request, done)
                return redirect("tournament:staff", slug=tournament.slug)
    return render_page(
        request,
        "tournament/staff.html",
        tournament,
        {"form": form, "roles": tournament.staff.select_related("user", "granted_by")},
    )
