"""The organisers' seating pages: generation (a background job, followed on its own page), Swiss
hanchan, and the quality report in plain words."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import services
from tournament.core.presentation import (
    proposal_changes,
    proposal_summary,
    report_lines,
    report_summary,
    reseat_changes,
)
from tournament.core.refusal import Refusal
from tournament.forms.day import SeatingForm, SwissForm
from tournament.models import Round, Seat, SeatingJob, StaffRole
from tournament.queries.phases_db import phase_names
from tournament.views.base import access_tournament, add_refusal, render_page

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
IMPORT_SECONDS = 30 * 60


@login_required
@require_http_methods(["GET", "POST"])
def seating_manage(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    if tournament.is_club_session:  # no seating computed: its tables form on the session's page
        return redirect("tournament:club", slug=tournament.slug)
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
                prefer=form.cleaned_data["prefer"],
            )
        except Refusal as error:
            add_refusal(form, error)
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
            "in_phases": bool(phase_names(tournament.pk)),
            "job": job,
            "lines": report_lines(job.report) if job and job.state == SeatingJob.State.DONE else [],
            "summary": report_summary(job.report) if job and job.state == SeatingJob.State.DONE else "",
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
        except Refusal as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("Hanchan {number} is seated from the standings (Swiss).").format(number=number)
            )
            return redirect("tournament:seating_round", slug=tournament.slug, number=number)
    else:
        messages.error(request, _("Give the number of a hanchan that has not started."))
    return redirect("tournament:seating_manage", slug=tournament.slug)


@login_required
@require_GET
def seating_job(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    job = get_object_or_404(SeatingJob, tournament=tournament, pk=job_id)
    changes: list[str] = []
    proposals: list[dict[str, Any]] = []
    if job.awaiting_confirmation and job.alternatives:
        names = dict(tournament.players.values_list("pk", "name"))
        alternatives = job.alternatives
        best = alternatives.get("best_schedule", alternatives["fewest_moves"])
        best_excess = best["report"].get("excess_meetings")
        titles = {"fewest_moves": _("Fewest moves"), "best_schedule": _("Best schedule")}
        if "best_schedule" not in alternatives:  # the other proposal was no better on any figure
            titles["fewest_moves"] = _("Fewest moves, and the best schedule")
        for choice in services.SEATING_CHOICES:
            if choice not in alternatives:
                continue
            proposal = alternatives[choice]
            proposals.append(
                {
                    "choice": choice,
                    "title": titles[choice],
                    "summary": proposal_summary(
                        proposal, alternatives["lower_bound"], best_excess, best=choice == "best_schedule"
                    ),
                    "changes": proposal_changes(proposal, alternatives["left"], names, job.from_round),
                    "lines": report_lines(proposal["report"]),
                    "report_summary": report_summary(proposal["report"]),
                    "default": choice == services.SEATING_CHOICES[0],
                }
            )
    elif job.awaiting_confirmation:
        # A proposal made before re-seatings offered a choice: what it changes, table by table.
        names = dict(tournament.players.values_list("pk", "name"))
        before: dict[int, dict[int, int]] = {}
        seats = Seat.objects.filter(round__tournament=tournament, round__number__gte=job.from_round)
        for number, table, player in seats.values_list("round__number", "table__number", "player_id"):
            before.setdefault(number, {})[player] = table
        after = {
            job.from_round + offset: {pk: index + 1 for index, table in enumerate(tables) for pk in table}
            for offset, tables in enumerate(job.proposal)
        }
        changes = reseat_changes(before, after, names)
    return render_page(
        request,
        "tournament/seating_job.html",
        tournament,
        {
            "job": job,
            "lines": report_lines(job.report) if job.state == SeatingJob.State.DONE else [],
            "summary": report_summary(job.report) if job.state == SeatingJob.State.DONE else "",
            "before_lines": report_lines(job.before_report) if job.awaiting_confirmation else [],
            "before_summary": report_summary(job.before_report) if job.awaiting_confirmation else "",
            "changes": changes,
            "proposals": proposals,
            "rounds": tournament.rounds.filter(number__gte=job.from_round),
        },
    )


@login_required
@require_POST
def seating_job_apply(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The organiser confirms a re-seating after seeing what it changes."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    job = get_object_or_404(SeatingJob, tournament=tournament, pk=job_id)
    try:
        services.apply_seating(job, request.user, request.POST.get("choice") or services.SEATING_CHOICES[0])
    except Refusal as error:
        messages.error(request, error.message)
        return redirect("tournament:seating_job", slug=tournament.slug, job_id=job.pk)
    messages.success(
        request, _("The seating from hanchan {number} is in place.").format(number=job.from_round)
    )
    return redirect("tournament:seating_manage", slug=tournament.slug)


@login_required
@require_GET
@never_cache
def seating_job_json(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    job = get_object_or_404(SeatingJob, tournament=tournament, pk=job_id)
    return JsonResponse(job.as_dict())


@login_required
@require_POST
def seating_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Publish a hanchan's seating to the public, or take it back before the hanchan starts."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    published = bool(request.POST.get("published"))
    try:
        services.publish_seating(round_, request.user, published=published)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        done = (
            _("The seating of hanchan {number} is public.")
            if published
            else _("The seating of hanchan {number} is staff only again.")
        )
        messages.success(request, done.format(number=number))
    return redirect("tournament:seating_manage", slug=tournament.slug)
