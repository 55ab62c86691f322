"""The referees' doors: the tables of the current hanchan, a draft read from online game logs,
signing a submitted sheet, and a head referee's correction of a signed one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import services
from scoring.forms import CorrectionForm, GameLogForm, SignForm
from scoring.models import ScoreSheet, open_disputes
from scoring.rules import tenhou
from scoring.views.base import CONFLICT_HINT, WIND_NAMES, Role, sheet_page, table_at
from tournament import services as tournament_services
from tournament.core.refusal import CONFLICT, Refusal
from tournament.views.base import access_tournament, render_page


@login_required
@require_GET
def my_tables(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.REFEREE)
    tables = tournament_services.tables_of_referee(request.user, tournament)  # disputed sheets first
    disputes = open_disputes(getattr(table, "sheet", None) for table in tables)
    rows = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.wind)
        sheet = getattr(table, "sheet", None)
        rows.append(
            {
                "table": table,
                "sheet": sheet,
                "dispute": disputes.get(sheet.pk) if sheet is not None else None,
                "players": [(WIND_NAMES[seat.wind], seat.player.name) for seat in seats],
            }
        )
    return render_page(
        request,
        "scoring/my_tables.html",
        tournament,
        {"rows": rows, "round": tables[0].round if tables else None},
    )


@login_required
@require_POST
def from_log(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A draft sheet read from an online game's log (not signed); the sheet page shows the findings beside
    it for as long as that version is the current one. With ``reseat_winds`` (a head referee) the table's
    winds become the log's."""
    tournament = access_tournament(request, slug, Role.REFEREE)
    table = table_at(tournament, round_number, table_number)
    form = GameLogForm(request.POST, request.FILES)
    if not form.is_valid():
        errors = [{"hand": None, "message": "; ".join(e)} for e in form.errors.values()]
        return sheet_page(request, tournament, table, errors=errors, status=400)
    links = form.cleaned_data["links"]
    if len(links) > 1:
        return _from_links(request, tournament, table, links)
    try:
        if links:  # one link: this table's game, fetched from Tenhou before the transaction
            form.cleaned_data["log"] = services.fetch_log(links[0], "log_links")
        saved, findings = services.sheet_from_log(
            table,
            form.cleaned_data["log"],
            request.user,
            mapping=form.cleaned_data["mapping"],
            expected_version=form.cleaned_data["expected_version"],
            reseat_winds=form.cleaned_data["reseat_winds"],
        )
    except Refusal as refused:
        return sheet_page(request, tournament, table, errors=refused.as_dicts(), status=refused.status)
    text = ngettext(
        "Draft read from the game log (version {version}, {count} finding): check it, submit it.",
        "Draft read from the game log (version {version}, {count} findings): check it, submit it.",
        len(findings),
    ).format(version=saved.version, count=len(findings))
    text = _("{message} Read as {format}.").format(
        message=text, format=tenhou.log_format(form.cleaned_data["log"])
    )
    if form.cleaned_data["reseat_winds"]:
        text = _("{message} The table's winds are as in the log.").format(message=text)
    messages.success(request, text)
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


def _from_links(request: HttpRequest, tournament: Any, table: Any, links: list[str]) -> HttpResponse:
    """Several Tenhou links pasted at once (a head referee): each game goes to the table of this hanchan
    its nicknames sit at; the message names the tables filled and the games not placed, with why."""
    try:
        answer = services.sheets_from_links(table.round, links, request.user)
    except Refusal as refused:
        return sheet_page(request, tournament, table, errors=refused.as_dicts(), status=refused.status)
    placed = [
        _("table {table} ({game})").format(table=game["table"], game=game["game"])
        for game in answer["placed"]
    ]
    if placed:
        messages.success(request, _("Drafts read from Tenhou: {tables}.").format(tables=", ".join(placed)))
    for game in answer["unplaced"]:
        messages.warning(
            request, _("Not placed: {link}: {reason}").format(link=game["link"], reason=game["reason"])
        )
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=table.round.number, table_number=table.number
    )


@login_required
@require_POST
def sign(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.REFEREE)
    table = table_at(tournament, round_number, table_number)
    current = get_object_or_404(ScoreSheet, table=table)
    form = SignForm(request.POST)
    if form.is_valid():
        try:
            services.sign_sheet(current, request.user, expected_version=form.cleaned_data["expected_version"])
        except Refusal as refused:
            for problem in refused.problems:
                messages.error(request, problem.message)
        else:
            messages.success(request, _("Signed. The standings are updated."))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    table = table_at(tournament, round_number, table_number)
    current = get_object_or_404(ScoreSheet, table=table, status=ScoreSheet.Status.SIGNED)
    if request.method == "GET":
        form = CorrectionForm(initial={"expected_version": current.version})
        return sheet_page(request, tournament, table, correcting=True, correction_form=form)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return sheet_page(
            request,
            tournament,
            table,
            entry=form.cleaned_data.get("entry"),  # what the head referee typed, if it was readable
            correcting=True,
            correction_form=form,
            status=400,
        )
    entry = form.cleaned_data["entry"]
    try:
        services.correct_sheet(
            current,
            entry,
            request.user,
            reason=form.cleaned_data["reason"],
            expected_version=form.cleaned_data["expected_version"],
        )
    except Refusal as refused:
        status = refused.status
        errors = refused.as_dicts()
        if status == CONFLICT:
            errors.append({"hand": None, "message": CONFLICT_HINT})
        return sheet_page(
            request,
            tournament,
            table,
            entry=entry,
            errors=errors,
            correcting=True,
            correction_form=form,
            status=status,
        )
    messages.success(
        request, _("Corrected. The standings are updated; the old version stays in the history.")
    )
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )
