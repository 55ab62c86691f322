"""The hanchan clock: its JSON for every page that shows it, and the page where organisers operate it
(WRCR 2015 §8.2) and head referees give one table extra minutes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from tournament import services
from tournament.core.refusal import Refusal
from tournament.forms.day import ClockForm, TableTimeForm
from tournament.models import Seat, StaffRole, Tournament
from tournament.views.base import access_tournament, clock_payload, render_page

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
IMPORT_SECONDS = 30 * 60
# What the organiser did to the clock, said back in the reader's language (the action is an identifier).
CLOCK_DONE = {
    "start": gettext_lazy("Hanchan {number}: the clock is running."),
    "pause": gettext_lazy("Hanchan {number}: the clock is paused."),
    "extend": gettext_lazy("Hanchan {number}: the clock is changed."),
}


@require_GET
@never_cache
def clock_json(request: HttpRequest, slug: str) -> HttpResponse:
    return JsonResponse(clock_data(access_tournament(request, slug)))


def clock_data(tournament: Tournament) -> dict[str, Any]:
    """The clock of the current hanchan and the tables' extra minutes: the same for every visitor."""
    current = services.current_round(tournament)
    payload = clock_payload(current)
    payload["tables"] = (
        {str(t.number): t.extra_minutes for t in current.tables.exclude(extra_minutes=0)} if current else {}
    )
    payload["server_time"] = timezone.now().isoformat()
    return payload


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
                    done = CLOCK_DONE.get(action, _("Hanchan {number}: the clock is set."))
                    messages.success(request, str(done).format(number=current.number))
                    return redirect("tournament:clock", slug=tournament.slug)
            elif which == "table":
                table_form = TableTimeForm(request.POST)
                if table_form.is_valid():
                    table = current.tables.filter(number=table_form.cleaned_data["table"]).first()
                    if table is None:
                        message = _("Hanchan {number} has no such table.").format(number=current.number)
                        table_form.add_error("table", message)
                    else:
                        minutes = table_form.cleaned_data["minutes"]
                        services.give_table_extra_time(table, request.user, minutes)
                        message = _("Table {table}: {minutes} minutes.").format(
                            table=table.number, minutes=f"{minutes:+d}"
                        )
                        messages.success(request, message)
                        return redirect("tournament:clock", slug=tournament.slug)
            elif which == "finish":
                services.finish_round(current, request.user)
                messages.success(request, _("Hanchan {number} is finished.").format(number=current.number))
                return redirect("tournament:clock", slug=tournament.slug)
        except Refusal as error:
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
