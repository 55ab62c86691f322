"""A table's sheet as the referee, or the seated player, enters it: the page and its form, and the
editor's JSON endpoints (``static/js/sheet.js``): ``check``, the rules engine's verdict as one types
(nothing is stored), and ``save``, a save or submit that a phone may send again."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring import services
from scoring.forms import SheetForm
from scoring.views.base import CONFLICT_HINT, UNREADABLE, sheet_access, sheet_page
from tournament.core.inputs import read_json
from tournament.core.refusal import CONFLICT, Refusal
from tournament.views.base import refusal_response

# A saved sheet is a few kilobytes (a long hanchan of 30 hands is under 10 KB): a save reads at most this.
MAX_SAVE_BYTES = 262_144
SAVE_ACTIONS = ("draft", "submit")
SAVE_CONFLICT_HINT = gettext_lazy(
    "This phone keeps your entry, not sent: save it over the saved version, or use the saved version."
)


@require_http_methods(["GET", "POST"])
def sheet(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    found = sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    tournament, table, player = found
    if request.method == "GET":
        return sheet_page(request, tournament, table)
    form = SheetForm(request.POST)
    if not form.is_valid():
        errors = [{"hand": None, "message": f"{name}: {'; '.join(e)}"} for name, e in form.errors.items()]
        entry = form.cleaned_data.get("entry")
        return sheet_page(request, tournament, table, entry=entry, errors=errors, status=400)
    submit = form.cleaned_data["action"] == "submit"
    entry = form.cleaned_data["entry"]
    try:
        if player is not None:
            saved = services.player_save_sheet(
                table, entry, player, submit=submit, expected_version=form.cleaned_data["expected_version"]
            )
        else:
            saved = services.save_sheet(
                table,
                entry,
                request.user,
                submit=submit,
                expected_version=form.cleaned_data["expected_version"],
            )
    except Refusal as refused:
        errors = refused.as_dicts()
        if refused.status == CONFLICT:
            errors.append({"hand": None, "message": CONFLICT_HINT})
        return sheet_page(request, tournament, table, entry=entry, errors=errors, status=refused.status)
    except TypeError:  # see ``check``
        return sheet_page(request, tournament, table, errors=[UNREADABLE], status=400)
    if submit and player is not None:
        text = _("Submitted (version {version}). The other players of the table confirm it next.")
        messages.success(request, text.format(version=saved.version))
    elif submit:
        text = _("Submitted (version {version}). A referee signs it next.")
        messages.success(request, text.format(version=saved.version))
    else:
        messages.success(request, _("Draft saved (version {version}).").format(version=saved.version))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@require_POST
def check(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """The rules engine's verdict on an entry as the referee (or the seated player) types: errors by
    hand, or the replay."""
    found = sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    table = found[1]
    try:
        body = read_json(request.body or b"null")
    except Refusal as refused:  # too deep, too large, not JSON: the verdict says so, as for any sheet
        return JsonResponse({"valid": False, "errors": [{**e, "hand": None} for e in refused.as_dicts()]})
    entry = body.get("entry") if isinstance(body, dict) else None
    try:
        verdict = services.check_entry(table, entry).as_json()  # type: ignore[arg-type]
    except Refusal as refused:
        verdict = {"valid": False, "errors": refused.as_dicts()}
    except TypeError:  # the engine does not yet read a player given as a list or object
        verdict = {"valid": False, "errors": [UNREADABLE]}
    return JsonResponse(verdict)


def _save_request(request: HttpRequest) -> tuple[dict[str, Any], bool, int | None]:
    """The entry, whether to submit, and the version edited, read from a save's JSON body, or a refusal
    naming the field."""
    body = read_json(request.body or b"null", max_bytes=MAX_SAVE_BYTES)
    if not isinstance(body, dict):
        raise Refusal("body", "format", _("the body must be a JSON object: entry, action, expected_version"))
    entry = body.get("entry")
    if not isinstance(entry, dict):
        raise Refusal("entry", "format", _("entry: the sheet must be a JSON object"))
    action = body.get("action")
    if action not in SAVE_ACTIONS:
        raise Refusal("action", "format", _("action must be 'draft' (save a draft) or 'submit'"))
    expected = body.get("expected_version")
    if expected is not None and (type(expected) is not int or not 1 <= expected <= 1_000_000):
        raise Refusal(
            "expected_version", "format", _("expected_version must be null or the version edited (1 or more)")
        )
    return entry, action == "submit", expected


@require_POST
def save(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """The sheet editor's save and submit, as JSON, under the ``Idempotency-Key`` header: a phone that
    never saw the answer sends the same request again and gets the first answer; nothing is saved
    twice (``services.save_sheet_once``). A referee, or a seated player when the players enter the
    results (as the sheet page). Answers ``{"version", "status"}`` or ``{"errors": [...]}`` (a conflict
    adds ``current_version``)."""
    found = sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    _tournament, table, player = found
    try:
        entry, submit, expected = _save_request(request)
        answer = services.save_sheet_once(
            table,
            entry,
            None if player is not None else request.user,  # type: ignore[arg-type]
            key=request.headers.get("Idempotency-Key", ""),
            submit=submit,
            expected_version=expected,
            player=player,
        )
    except Refusal as refused:
        return refusal_response(refused)
    except TypeError:  # see ``check``
        unreadable = {**UNREADABLE, "message": str(UNREADABLE["message"]), "field": "entry", "rule": "format"}
        return JsonResponse({"errors": [unreadable]}, status=400)
    body = dict(answer.body)
    if answer.status == CONFLICT:
        body["errors"] = [
            *body["errors"],
            {"hand": None, "field": None, "rule": "stale-version", "message": str(SAVE_CONFLICT_HINT)},
        ]
    if answer.status == 200 and submit and not answer.replayed:
        if player:
            text = _("Submitted (version {version}). The other players of the table confirm it next.")
        else:
            text = _("Submitted (version {version}). A referee signs it next.")
        messages.success(request, text.format(version=answer.body["version"]))
    return JsonResponse(body, status=answer.status)
