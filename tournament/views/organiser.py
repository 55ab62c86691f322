"""The organisers' pages: creating and editing a tournament, registration and file import, check-in,
absences and substitutes, and the staff."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import services
from tournament.core.refusal import Refusal
from tournament.forms.day import SubstituteForm, WithdrawForm
from tournament.forms.organiser import (
    CheckInForm,
    CheckInManyForm,
    ImportConfirmForm,
    InviteStaffForm,
    PlayerFileForm,
    PlayerForm,
    RemoveStaffForm,
    StaffForm,
)
from tournament.forms.settings import TournamentForm
from tournament.models import Absence, Player, Seat, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.statistics_db import statistics_of
from tournament.services import player_login
from tournament.views.base import (
    access_tournament,
    add_refusal,
    players_in_order,
    refusal_response,
    render_page,
)

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
IMPORT_SECONDS = 30 * 60


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    access.require_create_tournament(request.user)  # before the form is shown; the service checks again
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(request.user, **form.cleaned_data)
        except (Refusal, ValidationError) as error:
            add_refusal(form, error)
        else:
            messages.success(
                request, _("{name} is created; you are its organiser.").format(name=tournament.name)
            )
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
        except (Refusal, ValidationError) as error:
            add_refusal(form, error)
        else:
            messages.success(request, _("Saved."))
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
                disputed=Count("tables", filter=Q(tables__sheet__status="disputed"), distinct=True),
            ),
            "job": tournament.seating_jobs.first(),
            "phase_count": tournament.phases.count(),
        },
    )


@login_required
@require_GET
def statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's figures from its signed sheets (``tournament.core.statistics``): for its
    organisers."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    return render_page(
        request, "tournament/statistics.html", tournament, {"stats": statistics_of(tournament)}
    )


@login_required
@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            person = services.register_player(tournament, request.user, **form.cleaned_data)
        except Refusal as error:
            add_refusal(form, error)
        else:
            messages.success(request, _("{name} is registered.").format(name=person))
            return redirect("tournament:registration", slug=tournament.slug)
    return render_page(
        request,
        "tournament/registration.html",
        tournament,
        {
            "form": form,
            "file_form": PlayerFileForm(),
            "players": players_in_order(tournament),
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
        except Refusal as error:
            file_form.add_error("file", error.message)
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


def _confirmed_names(request: HttpRequest) -> dict[int, tuple[str, str]]:
    """The first and last names the organiser confirmed in the preview (fields ``first-<line>`` and
    ``last-<line>``, the line of the file), by line."""
    confirmed: dict[int, tuple[str, str]] = {}
    for key in request.POST:
        kind, _dash, line = key.partition("-")
        if kind == "first" and line.isdigit() and f"last-{line}" in request.POST:
            confirmed[int(line)] = (request.POST[key], request.POST[f"last-{line}"])
    return confirmed


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
        messages.error(request, _("That upload has expired or was already imported; upload the file again."))
        return redirect("tournament:registration", slug=tournament.slug)
    try:
        preview = services.import_players(
            tournament,
            stored["data"],
            stored["name"],
            user=request.user,
            confirmed_names=_confirmed_names(request),
        )
    except Refusal as error:
        messages.error(request, error.message)
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
    count = len(preview.rows)
    messages.success(
        request,
        ngettext(
            "Imported {count} player from {file}.", "Imported {count} players from {file}.", count
        ).format(count=count, file=stored["name"]),
    )
    return redirect("tournament:registration", slug=tournament.slug)


def check_in_state(tournament: Tournament, players: list[Player] | None = None) -> dict[str, Any]:
    """What the check-in page's script redraws after a tap: the plan's figures and the players changed."""
    plan = services.check_in_plan(tournament)
    sit_out = services.check_in_plan(tournament, prefer="sit_out")
    return {
        "plan": {
            "checked_in": plan.checked_in,
            "tables": plan.tables,
            "substitutes_needed": plan.substitutes_needed,
            "substitutes_available": plan.substitutes_available,
            "short_of_substitutes": plan.short_of_substitutes,
            "substitutes_to_check_in": plan.substitutes_to_check_in,
            "substitutes_to_register": plan.substitutes_to_register,
            "sitting_out": [p.name for p in sit_out.sitting_out],
            "sit_out_tables": sit_out.tables,
        },
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "status": p.status,
                "status_label": p.get_status_display(),
                "checked_in_at": timezone.localtime(p.checked_in_at).strftime("%H:%M")
                if p.checked_in_at
                else "",
            }
            for p in players or []
        ],
    }


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_GET
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    sit_out = services.check_in_plan(tournament, prefer="sit_out")
    return render_page(
        request,
        "tournament/check_in.html",
        tournament,
        {
            "players": players_in_order(tournament),
            "plan": services.check_in_plan(tournament),
            "sit_out_plan": sit_out,
            "sitting_out_names": ", ".join(player.name for player in sit_out.sitting_out),
        },
    )


@login_required
@require_POST
def check_in_toggle(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One tap at the door: check in, or undo. The page's script gets JSON and redraws without a reload;
    a plain form post comes back to the page."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    form = CheckInForm(request.POST)
    if form.is_valid():
        try:
            services.check_in(person, user=request.user, checked_in=form.cleaned_data["checked_in"])
        except Refusal as error:
            if wants_json(request):
                return refusal_response(error)
            messages.error(request, error.message)
    if wants_json(request):
        return JsonResponse(check_in_state(tournament, [person]))
    return redirect(reverse("tournament:check_in", args=[tournament.slug]) + f"#player-{person.pk}")


@login_required
@require_POST
def check_in_many(request: HttpRequest, slug: str) -> HttpResponse:
    """The players ticked at the door, checked in at once (all or none)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = CheckInManyForm(tournament, request.POST)
    done: list[Player] = []
    if form.is_valid():
        try:
            done = services.check_in_many(list(form.cleaned_data["players"]), user=request.user)
        except Refusal as error:
            if wants_json(request):
                return refusal_response(error)
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                ngettext("{count} player checked in.", "{count} players checked in.", len(done)).format(
                    count=len(done)
                ),
            )
    elif wants_json(request):
        return JsonResponse(
            {"errors": [{"field": "players", "rule": "check-in", "message": _("tick the players present")}]},
            status=400,
        )
    else:
        messages.error(request, _("Tick the players present first."))
    if wants_json(request):
        return JsonResponse(check_in_state(tournament, done))
    return redirect("tournament:check_in", slug=tournament.slug)


@login_required
@require_http_methods(["GET", "POST"])
def absences(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    which = request.POST.get("form") if request.method == "POST" else None
    # Two forms on one page: their fields' ids are their own, so that each label finds its field.
    substitute_form = SubstituteForm(
        tournament, request.POST if which == "substitute" else None, auto_id="substitute-%s"
    )
    withdraw_form = WithdrawForm(
        tournament, request.POST if which == "withdraw" else None, auto_id="withdraw-%s"
    )
    plan = None
    try:
        if which == "substitute" and substitute_form.is_valid():
            data = substitute_form.cleaned_data
            services.replace_with_substitute(
                data["round"], data["player"], data["substitute"], request.user, reason=data["reason"]
            )
            messages.success(
                request,
                _("{substitute} plays hanchan {number} for {player}.").format(
                    substitute=data["substitute"].name,
                    number=data["round"].number,
                    player=data["player"].name,
                ),
            )
            return redirect("tournament:absences", slug=tournament.slug)
        if which == "withdraw" and withdraw_form.is_valid() and not withdraw_form.cleaned_data["confirmed"]:
            data = withdraw_form.cleaned_data
            plan = services.plan_withdrawal(
                data["player"], request.user, from_round=data["from_round"], substitute=data["substitute"]
            )
        elif which == "withdraw" and withdraw_form.is_valid():
            data = withdraw_form.cleaned_data
            replaced = services.withdraw_player(
                data["player"], request.user, from_round=data["from_round"], substitute=data["substitute"]
            )
            if data["substitute"]:
                done = ngettext(
                    "{player} has withdrawn. {substitute} takes the seat in {count} hanchan.",
                    "{player} has withdrawn. {substitute} takes the seat in {count} hanchan.",
                    len(replaced),
                )
            else:
                done = _("{player} has withdrawn. Re-seat the hanchan not started from the seating page.")
            messages.success(
                request,
                done.format(
                    player=data["player"].name,
                    substitute=data["substitute"].name if data["substitute"] else "",
                    count=len(replaced),
                ),
            )
            return redirect("tournament:absences", slug=tournament.slug)
    except Refusal as error:
        add_refusal(substitute_form if which == "substitute" else withdraw_form, error)
    return render_page(
        request,
        "tournament/absences.html",
        tournament,
        {
            "substitute_form": substitute_form,
            "withdraw_form": withdraw_form,
            "plan": plan,
            "absences": Absence.objects.filter(round__tournament=tournament).select_related(
                "round", "player", "substitute", "recorded_by"
            ),
            "withdrawn": tournament.players.filter(status=Player.Status.WITHDRAWN),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    """Give a role, remove one, or invite a new account (its password is shown on this answer only)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    which = request.POST.get("form") if request.method == "POST" else None
    form = StaffForm(request.POST if which == "grant" else None)
    invite_form = InviteStaffForm(request.POST if which == "invite" else None)
    invited = None
    try:
        if which == "grant" and form.is_valid():
            grantee = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
            if grantee is None:
                form.add_error("username", _("No account has this user name: invite them below."))
            else:
                role = form.cleaned_data["role"]
                services.grant_role(tournament, request.user, grantee, role)
                messages.success(
                    request, _("{user}: {role}.").format(user=grantee, role=Role(role).label.lower())
                )
                return redirect("tournament:staff", slug=tournament.slug)
        elif which == "remove":
            remove = RemoveStaffForm(request.POST)
            grantee = (
                get_user_model().objects.filter(username=remove.cleaned_data["username"]).first()
                if remove.is_valid()
                else None
            )
            if grantee is None:
                messages.error(request, _("No account has this user name."))
            else:
                services.remove_role(tournament, request.user, grantee)
                messages.success(request, _("{user}: role removed.").format(user=grantee))
            return redirect("tournament:staff", slug=tournament.slug)
        elif which == "invite" and invite_form.is_valid():
            data = invite_form.cleaned_data
            staff_role, password = services.invite_staff(
                tournament, request.user, data["username"], data["role"], email=data["email"]
            )
            invited = {"username": staff_role.user.get_username(), "role": staff_role, "password": password}
            invite_form = InviteStaffForm()
    except Refusal as error:
        if which == "remove":
            messages.error(request, error.message)
            return redirect("tournament:staff", slug=tournament.slug)
        add_refusal(invite_form if which == "invite" else form, error)
    return render_page(
        request,
        "tournament/staff.html",
        tournament,
        {
            "form": form,
            "invite_form": invite_form,
            "invited": invited,
            "roles": tournament.staff.select_related("user", "granted_by"),
            "audit": tournament.audit_entries.select_related("actor")[:50],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Correct a registration (audited), or remove one made in error (refused once the player played)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    initial = {
        "name": person.name,
        "country": person.country.code or "",
        "club": person.club,
        "ema_id": person.ema_id,
        "team": person.team,
        "is_substitute": person.is_substitute,
    }
    form = PlayerForm(request.POST if request.POST.get("form") == "edit" else None, initial=initial)
    try:
        if request.POST.get("form") == "remove":
            name = person.name
            services.remove_player(person, request.user)
            messages.success(request, _("The registration of {name} is removed.").format(name=name))
            return redirect("tournament:registration", slug=tournament.slug)
        if request.POST.get("form") == "edit" and form.is_valid():
            services.update_player(person, request.user, **form.cleaned_data)
            messages.success(request, _("Saved."))
            return redirect("tournament:registration", slug=tournament.slug)
    except Refusal as error:
        if request.POST.get("form") == "remove":
            messages.error(request, error.message)
        else:
            add_refusal(form, error)
    return render_page(
        request,
        "tournament/player_edit.html",
        tournament,
        {
            "form": form,
            "person": person,
            "played": services.has_played(person),
            "audit": tournament.audit_entries.filter(
                Q(subject=f"player {person.name}") | Q(changes__name__1=person.name)
            ).select_related("actor")[:20],
        },
    )


@login_required
@require_POST
def reveal(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser shows the public the ranking of the hidden last hanchan (or hides it again)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    revealed = bool(request.POST.get("revealed"))
    try:
        services.reveal_standings(tournament, request.user, revealed=revealed)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The standings are whole for everyone.")
            if revealed
            else _("The last hanchan are hidden again."),
        )
    return redirect("tournament:manage", slug=tournament.slug)


@login_required
@require_POST
@never_cache
def player_credentials(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A new PIN and one-time sign-in link for one player (audited), shown on this answer only; the
    player's old PIN and unused links stop working."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    person = get_object_or_404(Player, tournament=tournament, pk=player_id)
    issued = player_login.issue_for_player(person, request.user)
    link = request.build_absolute_uri(reverse("player_link", kwargs={"slug": slug, "token": issued.token}))
    response = render_page(
        request,
        "tournament/player_credentials.html",
        tournament,
        {"player": person, "pin": issued.pin, "link": link, "hours": player_login.LINK_HOURS},
    )
    response["Cache-Control"] = "private, no-store"
    return response
