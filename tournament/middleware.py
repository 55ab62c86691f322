"""Request-wide helpers of the tournament pages and API: the role looked up once per request, and the
last good copy of the public pages served while the database cannot be reached."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournament.core.refusal import Refusal
from tournament.queries import access
from tournament.views.base import refusal_response

logger = logging.getLogger("tournament.middleware")

# The public pages (tournament.urls) whose anonymous copy is kept: the same for every visitor, no form.
PUBLIC_PAGES = frozenset(
    {
        "index",
        "home",
        "standings",
        "standings_json",
        "seating",
        "seating_round",
        "players",
        "player",
        "projector",
    }
)
# A copy is written at most once per this many seconds per page, whatever the traffic.
COPY_EVERY_SECONDS = 10
STALE_HEADER = "X-Stale-Copy"
UNAVAILABLE = 503
RETRY_AFTER_SECONDS = 30


class RoleLookupMiddleware:
    """Each user's role in a tournament is looked up once per request (``tournament.queries.access``), and the
    venue's time zone a tournament page activates ends with the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with access.request_scope():
            try:
                return self.get_response(request)
            finally:
                timezone.deactivate()  # the venue's time of a tournament page ends with its request


def copy_key(path: str, language: str) -> str:
    """The cache key of a page's copy in one language (the active one: each reader gets the copy in the
    language the page would have had)."""
    return f"page-copy:v2:{language}:{hashlib.sha256(path.encode()).hexdigest()}"


def public_page(request: HttpRequest) -> bool:
    match = request.resolver_match
    return (
        request.method in {"GET", "HEAD"}
        and match is not None
        and match.namespace == "tournament"
        and match.url_name in PUBLIC_PAGES
    )


class LastGoodCopyMiddleware:
    """With the database unreachable, the public pages answer with their last good copy.

    Each successful GET of a public page by a visitor without a session (the page every anonymous visitor
    gets; a private tournament's pages never answer such a visitor) is kept in the cache, at most once per
    ``COPY_EVERY_SECONDS`` and for ``PAGE_COPY_SECONDS``. When a view fails because the database cannot be
    reached (``OperationalError``, ``InterfaceError``), a GET of a public page answers that copy (200, an
    ``X-Stale-Copy`` header with the time it was made, and a note on an HTML page); anything else, or a
    page without a copy, answers 503 with ``Retry-After`` instead of a server error: an HTML page that
    needs neither the database nor the session, or the API's ``{"errors": [...]}``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.method == "GET"
            and response.status_code == 200
            and not response.streaming
            and STALE_HEADER not in response
            and not request.GET
            and not request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}
            and public_page(request)
        ):
            key = copy_key(request.path, translation.get_language())
            if cache.add(f"{key}:recent", 1, COPY_EVERY_SECONDS):
                copy = {"body": response.content, "type": response["Content-Type"], "at": time.time()}
                cache.set(key, copy, settings.PAGE_COPY_SECONDS)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("database unreachable on %s %s: %s", request.method, request.path, exception)
        # The language LocaleMiddleware chose: a tournament's own default language needs the database.
        language = translation.get_language()
        copy = cache.get(copy_key(request.path, language)) if public_page(request) else None
        if copy is not None:
            return stale_copy(copy)
        return unavailable(request)


def stale_copy(copy: dict[str, Any]) -> HttpResponse:
    """The copy, with a note in the reader's language (the copy is the one kept in that language)."""
    made = datetime.fromtimestamp(copy["at"], tz=UTC)
    body: bytes = copy["body"]
    if copy["type"].startswith("text/html"):
        note = render_to_string("stale_copy_note.html", {"made": made}).encode()
        head, found, rest = body.partition(b"<main>")
        body = head + found + note + rest if found else body
    response = HttpResponse(body, content_type=copy["type"])
    response[STALE_HEADER] = made.isoformat(timespec="seconds")
    response["Cache-Control"] = "no-cache"
    return response


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 in the language LocaleMiddleware chose (the cookie's or the browser's: a tournament's default
    language would need the database)."""
    message = _("The database cannot be reached for now; nothing was changed. Try again in a moment.")
    if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
        response: HttpResponse = refusal_response(
            Refusal(None, "database-unavailable", message, status=UNAVAILABLE)
        )
    else:
        response = HttpResponse(
            render_to_string("database_unavailable.html", {"message": message}), status=UNAVAILABLE
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
