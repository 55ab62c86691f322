"""The seated players' answer to a submitted sheet, when the players enter the results: each agrees
with its version or disputes it, with a reason; all four agreeing sign it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.forms import AnswerForm
from scoring.views.base import sheet_access
from tournament.core.refusal import Refusal


def _answer(
    request: HttpRequest, slug: str, round_number: int, table_number: int, *, agree: bool
) -> HttpResponse:
    found = sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    tournament, table, player = found
    if player is None:
        raise PermissionDenied(_("Only the players seated at the table confirm or dispute its sheet."))
    form = AnswerForm(request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            messages.error(request, f"{name}: {'; '.join(errors)}")
    else:
        version = form.cleaned_data["version"]
        try:
            if agree:
                answered = services.confirm_sheet(table, player, version=version)
            else:
                answered = services.dispute_sheet(
                    table, player, version=version, reason=form.cleaned_data["reason"]
                )
        except Refusal as refused:
            for problem in refused.problems:
                messages.error(request, problem.message)
        else:
            if answered.is_signed:
                messages.success(
                    request, _("All four players agree: the sheet is signed and the standings count it.")
                )
            elif agree:
                messages.success(request, _("You agree with version {version}.").format(version=version))
            else:
                messages.success(request, _("Disputed: a referee comes to the table."))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@require_POST
def confirm(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A seated player agrees with the submitted sheet's version."""
    return _answer(request, slug, round_number, table_number, agree=True)


@require_POST
def dispute(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A seated player disputes the submitted sheet's version, with a reason."""
    return _answer(request, slug, round_number, table_number, agree=False)
