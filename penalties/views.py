"""The head referees' penalties page: give, revoke (with a reason) and disqualify (WRCR 2015 §7)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from penalties import services
from penalties.forms import DisqualifyForm, PenaltyForm, RevokeForm
from penalties.models import Disqualification, Penalty
from tournament.core.refusal import Refusal
from tournament.models import StaffRole, Tournament
from tournament.views.base import access_tournament, add_refusal, render_page

Role = StaffRole.Role


def _page(
    request: HttpRequest,
    tournament: Tournament,
    form: PenaltyForm,
    disqualify_form: DisqualifyForm,
    *,
    status: int = 200,
) -> HttpResponse:
    return render_page(
        request,
        "penalties/penalties.html",
        tournament,
        {
            "form": form,
            "disqualify_form": disqualify_form,
            "penalties": Penalty.objects.filter(tournament=tournament)
            .select_related("player", "round", "given_by", "revoked_by", "sheet__table")
            .order_by("-given_at"),
            "disqualifications": Disqualification.objects.filter(
                player__tournament=tournament
            ).select_related("player", "given_by"),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def penalties(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    form = PenaltyForm(tournament, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.give_penalty(
                data["player"],
                data["kind"],
                request.user,
                round=data["round"],
                points=data["points"],
                minutes_late=data["minutes_late"],
                reason=data["reason"],
            )
        except Refusal as error:
            add_refusal(form, error)
        else:
            text = _("{player}: −{points} ({kind}).").format(  # noqa: RUF001 (the minus sign)
                player=penalty.player.name,
                points=floatformat(penalty.points, "-2"),
                kind=penalty.get_kind_display(),
            )
            messages.success(request, text)
            return redirect("penalties:penalties", slug=tournament.slug)
    return _page(request, tournament, form, DisqualifyForm(tournament), status=400 if form.errors else 200)


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, penalty_id: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    penalty = get_object_or_404(Penalty, tournament=tournament, pk=penalty_id)
    form = RevokeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Revoking a penalty needs a reason."))
    else:
        try:
            services.revoke_penalty(penalty, request.user, reason=form.cleaned_data["reason"])
        except Refusal as error:
            messages.error(request, error.message)
        else:
            text = _("Revoked: {player}, −{points}.").format(  # noqa: RUF001 (the minus sign)
                player=penalty.player.name, points=floatformat(penalty.points, "-2")
            )
            messages.success(request, text)
    return redirect("penalties:penalties", slug=tournament.slug)


@login_required
@require_POST
def disqualify(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    form = DisqualifyForm(tournament, request.POST)
    if form.is_valid():
        try:
            services.disqualify(form.cleaned_data["player"], request.user, reason=form.cleaned_data["reason"])
        except Refusal as error:
            add_refusal(form, error)
        else:
            text = _("{player} is disqualified.").format(player=form.cleaned_data["player"].name)
            messages.success(request, text)
            return redirect("penalties:penalties", slug=tournament.slug)
    return _page(request, tournament, PenaltyForm(tournament), form, status=400)
