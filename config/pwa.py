"""The installable web app: its manifest and its service worker (``static/js/sw.js``), served from the
site's root so that the worker's scope is the whole site (a script under ``/static/`` could only
control ``/static/``). The worker keeps the static files and the pages a user opened, network first,
so a referee's tables and score sheets open without a network; see the worker's own comment.

The worker cannot call gettext, so the view writes the words of its offline page in every language of
the site into the script (``offline_texts``, from the catalogues); the worker picks the reader's. The
script is the same for every reader, as a service worker must be to update cleanly.

Whose pages the worker keeps (``SessionOwnerMiddleware``): every answer names the session's owner in
``X-Session-Owner`` (an opaque digest of the signed-in account and players, "anonymous" for nobody), and
says with ``X-Offline-Keep: 1`` that it is a page the offline entry needs (a score sheet, the referee's
tables, a player's page, the seating). The worker keeps only those, and forgets every page it kept as
soon as an answer names another owner: after any sign-out (the site's, a player's, the admin's), an
expired session, or another person's sign-in on the same phone."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable
from contextlib import suppress

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.queries.access import PLAYER_SESSION_KEY

WORKER = "js/sw.js"
# The line of the worker that holds the offline page's words (English in the file).
OFFLINE_LINE = re.compile(r"^const OFFLINE_TEXTS = .*;$", re.MULTILINE)


def offline_texts() -> dict[str, dict[str, str]]:
    """The offline page's title and sentence in each language of the site, by language code."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = {
                "title": _("Offline"),
                "text": _("No network, and this page was not opened on this device before."),
            }
    return texts


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Riichi tournament manager",
        "short_name": "Riichi",
        "description": _("Tournaments of riichi mahjong: seating, score sheets, standings."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#166534",
        "icons": [
            {
                "src": static(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    path = finders.find(WORKER)
    with open(str(path), encoding="utf-8") as script:
        source = script.read()
    table = json.dumps(offline_texts(), ensure_ascii=False, sort_keys=True)
    source = OFFLINE_LINE.sub(lambda _match: f"const OFFLINE_TEXTS = {table};", source, count=1)
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new worker is picked up at the next page load
    return response


# The pages a phone keeps for the offline entry: a score sheet, the referee's tables, a player's page
# (where a player finds their table) and the seating. Not the organisers' pages, nor anything else.
OFFLINE_PAGES = frozenset(
    {
        "scoring:sheet",
        "scoring:my_tables",
        "tournament:player",
        "tournament:seating",
        "tournament:seating_round",
    }
)
OWNER_HEADER = "X-Session-Owner"
DATABASE_DOWN = (OperationalError, InterfaceError)
KEEP_HEADER = "X-Offline-Keep"


def session_owner(request: HttpRequest) -> str:
    """Who this session is, as an opaque digest: the signed-in account and the players signed in by PIN or
    link; "anonymous" for nobody. It changes whenever the person behind the session does."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return "anonymous"  # no session: nobody (and the session is not touched, so no Vary: Cookie)
    user = getattr(request, "user", None)
    account = str(user.pk) if user is not None and user.is_authenticated else ""
    session = getattr(request, "session", None)
    players = session.get(PLAYER_SESSION_KEY) if session is not None else None
    signed_in = sorted(players.items()) if isinstance(players, dict) else []
    if not account and not signed_in:
        return "anonymous"
    who = json.dumps([account, signed_in])
    return hmac.new(settings.SECRET_KEY.encode(), who.encode(), hashlib.sha256).hexdigest()[:24]


class SessionOwnerMiddleware:
    """Names the session's owner on every answer and marks the pages the offline entry keeps (see the
    module's docstring). Placed after the authentication middleware and before the one that answers the
    public pages from their last good copy, so that those answers carry the headers too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # With the database down the session cannot be read (a public page's last good copy answers):
        # the owner is unknown, and the worker keeps nothing of that answer.
        with suppress(*DATABASE_DOWN):
            response[OWNER_HEADER] = session_owner(request)

        match = getattr(request, "resolver_match", None)
        if match is not None and match.view_name in OFFLINE_PAGES:
            response[KEEP_HEADER] = "1"
        return response
