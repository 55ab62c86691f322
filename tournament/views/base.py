"""What every page of a tournament shares: the access check, the page frame (role, clock) and the way a
refusal is shown beside its form field."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation.trans_real import parse_accept_lang_header

from tournament import services
from tournament.core.collation import name_key
from tournament.core.names import fold, shown_name
from tournament.core.participation import LABELS
from tournament.core.presentation import format_seconds
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.participation_db import tournament_states

Role = StaffRole.Role
# Who a page is for, as the 403 page says it (one sentence per role: the plural differs by language).
PAGE_FOR = {
    Role.REFEREE: gettext_lazy("This page is for the referees of {tournament}."),
    Role.HEAD_REFEREE: gettext_lazy("This page is for the head referees of {tournament}."),
    Role.ORGANISER: gettext_lazy("This page is for the organisers of {tournament}."),
}

# While a page is rendered as the copy every visitor shares (tournament.views.shared), the request carries
# SHARED_ATTRIBUTE and the form's CSRF token is this placeholder, each answer writing the visitor's own.
SHARED_ATTRIBUTE = "shared_copy"
CSRF_PLACEHOLDER = "shared-page-csrf-token"


def access_tournament(request: HttpRequest, slug: str, minimum: str | None = None) -> Tournament:
    """The tournament of the URL, if this user may see it (404 otherwise: a private tournament does not
    show that it exists) and, with ``minimum``, holds at least that role in it (403 otherwise)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_view(request.user, tournament):
        raise Http404("No such tournament")
    timezone.activate(tournament.zone())  # the venue's time, until the request ends (the middleware)
    if tournament.language and not reader_chose_language(request):
        translation.activate(tournament.language)  # LocaleMiddleware activates afresh on each request
        request.LANGUAGE_CODE = tournament.language
    if minimum is not None and not access.has_role(request.user, tournament, minimum):
        raise PermissionDenied(str(PAGE_FOR[Role(minimum)]).format(tournament=tournament.name))
    return tournament


def supported_language(code: str) -> str | None:
    """The product's language for ``code`` (``ja-JP`` -> ``ja``, ``zh-CN`` -> ``zh-hans``), or None."""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def reader_chose_language(request: HttpRequest) -> bool:
    """Whether the reader's language comes from the reader: the switcher's cookie, or the browser's
    Accept-Language naming one of the product's languages. A tournament's default language applies only
    when neither does (docs/languages.md)."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie and supported_language(cookie):
        return True
    accepted = parse_accept_lang_header(request.headers.get("Accept-Language", ""))
    return any(code != "*" and supported_language(code) for code, _quality in accepted)


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
            # A club session's tables start as they form: no hanchan clock for the whole room.
            clock=clock_payload(None if tournament.is_club_session else current),
        )
    page.update(context or {})
    if getattr(request, SHARED_ATTRIBUTE, False):
        page["csrf_token"] = CSRF_PLACEHOLDER
    return render(request, template, page, status=status)


def add_refusal(form: Any, error: Refusal | ValidationError) -> None:
    """A refusal shown on its form: each problem beside the field it names (at the top of the form when
    the form has no such field). A model's ``full_clean`` refusal is shown field by field too."""
    if isinstance(error, ValidationError):
        if hasattr(error, "error_dict"):
            for field, errors in error.error_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            form.add_error(None, error)
        return
    for problem in error.problems:
        form.add_error(problem.field if problem.field in form.fields else None, problem.message)


def players_in_order(tournament: Tournament) -> list[Player]:
    """The players, then the substitutes, each by the name the reader sees in the collation of the
    reader's language (tournament.collation), each with its state in the tournament now (``state``,
    ``state_label``: tournament.participation) and the folded text a name search compares (``search``:
    both names, tournament.names)."""
    language = translation.get_language() or ""
    states = tournament_states(tournament)
    players = list(tournament.players.all())
    for player in players:
        player.shown_name = shown_name(player.name, player.native_name, language)  # type: ignore[attr-defined]
        player.search = fold(f"{player.name} {player.native_name}")  # type: ignore[attr-defined]
    players.sort(key=lambda p: (p.is_substitute, name_key(p.shown_name, language)))  # type: ignore[attr-defined]
    for player in players:
        state = states.get(player.pk)
        player.state = str(state) if state else ""  # type: ignore[attr-defined]
        player.state_label = gettext(LABELS[state]) if state else ""  # type: ignore[attr-defined]
    return players


def shown_names(tournament: Tournament) -> dict[int, str]:
    """Each player of the tournament whose name the reader sees in its own script (the reader's language
    reads it: tournament.names.shown_name), by id; the others are seen by their Latin name."""
    language = translation.get_language() or ""
    natives = Player.objects.filter(tournament=tournament).exclude(native_name="")
    shown = {}
    for pk, name, native in natives.values_list("pk", "name", "native_name"):
        if (seen := shown_name(name, native, language)) != name:
            shown[pk] = seen
    return shown


def refusal_response(refusal: Refusal) -> JsonResponse:
    """A refusal as JSON, in the API's form: ``{"errors": [{"field", "rule", "message"}, ...]}``."""
    return JsonResponse({"errors": refusal.as_dicts()}, status=refusal.status)


def json_with_etag(request: HttpRequest, payload: dict[str, Any]) -> HttpResponse:
    """JSON that pollers revalidate cheaply: an unchanged payload answers 304 Not Modified."""
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder)
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
