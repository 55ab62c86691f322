"""The organisers' phases page (``tournament.core.phases``): setting the phases, making each cut after seeing
who it keeps, calling up the next in line for a player who leaves, and seating a phase by rank."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournament import services
from tournament.core.phases import PhasePlan
from tournament.core.refusal import Refusal
from tournament.forms.day import CallUpForm, CutForm, PhaseFormSet
from tournament.models import StaffRole, Tournament
from tournament.queries.standings_db import cached_phases
from tournament.views.base import access_tournament, render_page

Role = StaffRole.Role
PHASE_FIELD = re.compile(r"phases\[(\d+)\]\.(\w+)")
BLANK_ROWS = 2


def _initial(tournament: Tournament) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {
            "name": phase.name,
            "hanchan": phase.hanchan,
            "seating": phase.seating,
            "carry_over": phase.carry_over,
            "advance": phase.advance,
        }
        for phase in tournament.phases.order_by("number")
    ]
    return rows + [{}] * max(0, min(6, len(rows) + BLANK_ROWS) - len(rows))


def _show_refusal(formset: Any, error: Refusal) -> None:
    """Each problem beside the row and field it names (``phases[1].advance``), else above the rows."""
    for problem in error.problems:
        found = PHASE_FIELD.fullmatch(problem.field or "")
        named = [form for form in formset.forms if form.cleaned_data.get("name")]
        if found and int(found[1]) < len(named):
            form = named[int(found[1])]
            field = found[2] if found[2] in form.fields else None
            form.add_error(field, problem.message)
        else:
            formset._non_form_errors.append(problem.message)


def _cut_preview(tournament: Tournament, data: dict[str, Any], index: int) -> dict[str, Any] | None:
    """Who the cut into a phase not cut yet would keep, once the phase before it is complete."""
    phase = data["phases"][index]
    if index == 0 or phase["entries"] or not data["phases"][index - 1]["reached"]:
        return None
    waiting = services.incomplete_before(tournament, phase["number"])
    if waiting is not None:
        return {"waiting_for": waiting}
    cut, names = services.preview_cut(tournament, phase["number"])
    return {
        "advancing": [names[pk] for pk in cut.advancing],
        "tied": [(pk, names[pk]) for pk in cut.tied],
        "places": cut.places,
    }


@login_required
@require_http_methods(["GET", "POST"])
def phases_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    action = request.POST.get("action") if request.method == "POST" else None
    formset = PhaseFormSet(
        request.POST if action == "set" else None, initial=_initial(tournament), prefix="phase"
    )
    try:
        if action == "set" and formset.is_valid():
            plans = [
                PhasePlan(row["name"], row["hanchan"], row["seating"], row["carry_over"], row.get("advance"))
                for row in formset.cleaned_data
                if row.get("name")
            ]
            services.set_phases(tournament, request.user, plans)
            if plans:
                done = ngettext(
                    "{count} phase set: {hanchan} hanchan in all.",
                    "{count} phases set: {hanchan} hanchan in all.",
                    len(plans),
                )
            else:
                done = _("No phases set: {hanchan} hanchan in all.")
            messages.success(request, done.format(count=len(plans), hanchan=tournament.hanchan_count))
            return redirect("tournament:phases", slug=tournament.slug)
        if action in {"cut", "call_up", "seat_by_rank"}:
            return _phase_action(request, tournament, action)
    except Refusal as error:
        if action == "set":
            _show_refusal(formset, error)
        else:
            for problem in error.problems:
                messages.error(request, problem.message)
            return redirect("tournament:phases", slug=tournament.slug)
    data = cached_phases(tournament)
    for index, phase in enumerate(data["phases"]):
        phase["preview"] = _cut_preview(tournament, data, index)
        phase["members"] = [(e["player"], e["name"]) for e in phase["entries"] if not e["left"]]
    return render_page(
        request,
        "tournament/phases.html",
        tournament,
        {"formset": formset, "phases": data["phases"]},
    )


def _phase_action(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse:
    """The cut into a phase, a call-up, or the seating of a phase by rank; back to the page with what
    was done (a refusal raises, shown by the caller)."""
    number = int(request.POST.get("phase") or 0)
    if action == "cut":
        tied = [(int(pk), "") for pk in request.POST.getlist("chosen") if pk.isdigit()]
        form = CutForm(tied, request.POST)
        if not form.is_valid():
            raise Refusal(
                "phase", "phase-cut", _("{field}: choose a phase to cut into").format(field="phase")
            )
        entries = services.make_cut(
            tournament, form.cleaned_data["phase"], request.user, chosen=form.cleaned_data["chosen"]
        )
        made = ngettext(
            "The cut is made: {count} player advances.",
            "The cut is made: {count} players advance.",
            len(entries),
        )
        messages.success(request, made.format(count=len(entries)))
    elif action == "call_up":
        members = list(tournament.players.values_list("pk", "name"))
        form = CallUpForm(members, request.POST)
        if not form.is_valid():
            message = _("{field}: choose the player who leaves").format(field="player")
            raise Refusal("player", "phase-member", message)
        leaver = tournament.players.get(pk=form.cleaned_data["player"])
        entry = services.call_up(tournament, form.cleaned_data["phase"], leaver, request.user)
        message = _("{player} plays in place of {leaver}.").format(
            player=entry.player.name, leaver=leaver.name
        )
        messages.success(request, message)
    else:
        rounds = services.seat_by_rank(tournament, number, request.user)
        message = _("Seated by rank: hanchan {first} to {last}.").format(
            first=rounds[0].number, last=rounds[-1].number
        )
        messages.success(request, message)
    return redirect("tournament:phases", slug=tournament.slug)
