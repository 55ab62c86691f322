"""Pages every visitor without a session sees alike, rendered once and shared for a moment.

At a popular event's registration opening, hundreds of phones load the sign-up page and the list of the
registered within a minute, and each render reads the database and writes the same HTML. A view wrapped in
``shared_by_visitors`` renders once per ``SHARED_PAGE_SECONDS`` (2 by default; 0 turns it off) for
everyone it would show the same page: a GET without a query string, from a visitor without a session or
pending messages (anyone signed in gets the page rendered for them), in one language. The copy lives in the
cache, so every process of the site shares it.

What differs between two such visitors is kept out of the copy: the form's CSRF token is a placeholder in
the copy and each answer writes the visitor's own (``render_page`` puts the placeholder while a copy is
made), and the CSRF cookie is set as for a page rendered anew.

How fresh a copy is:

- at most ``SHARED_PAGE_SECONDS`` old: a confirmation or a cancellation shows to everyone within that time.
  A version bumped by every change would drop the copies at each of the ten confirmations a second of an
  opening rush, and nearly every visitor would wait for a render again (benchmarks/bench_registration.py);
- whoever made a change sees it at once: the answer to a sign-up, a confirmation or a cancellation marks
  the visitor's browser (``saw_change``, a cookie that lasts a little longer than a copy), and their pages
  are rendered for them until it ends. A player who cancels never finds their name still on the list;
- a page that turns at a known moment (the registration opening or closing) says so (``share_until``):
  its copy ends then, so nobody is told "not open yet" after the opening.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation

from tournament.views.base import CSRF_PLACEHOLDER, SHARED_ATTRIBUTE, reader_chose_language

UNTIL_ATTRIBUTE = "shared_until"  # set on the response by ``share_until``
CHANGED_COOKIE = "saw_change"  # set by ``saw_change``: this browser's pages are rendered for it
# The headers a copy keeps (those the middleware writes are written again on every answer).
KEPT_HEADERS = ("Content-Type", "Cache-Control")

View = Callable[..., HttpResponse]


def shared_by_visitors(view: View) -> View:
    """``view``'s page, for visitors without a session, from a copy at most ``SHARED_PAGE_SECONDS`` old."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = float(settings.SHARED_PAGE_SECONDS)
        if seconds <= 0 or not shareable(request):
            return view(request, *args, **kwargs)
        key = copy_key(request)
        copy = cache.get(key)
        if copy is None:
            copy = _made(request, view, args, kwargs, seconds)
            if isinstance(copy, HttpResponse):
                return copy
            cache.set(key, copy, copy.pop("lifetime"))
        return answer(request, copy)

    return wrapped


def _made(
    request: HttpRequest, view: View, args: Any, kwargs: Any, seconds: float
) -> dict[str, Any] | HttpResponse:
    """The copy of the page ``view`` renders now (with its ``lifetime``), or the response itself when it is
    not one to share: an error, a stream, a page about to turn."""
    setattr(request, SHARED_ATTRIBUTE, True)
    try:
        response = view(request, *args, **kwargs)
    finally:
        delattr(request, SHARED_ATTRIBUTE)
    lifetime = min(seconds, getattr(response, UNTIL_ATTRIBUTE, math.inf) - time.time())
    if response.status_code != 200 or response.streaming or lifetime <= 0:
        return _own_token(request, response)
    return {
        "body": response.content,
        "headers": {name: response[name] for name in KEPT_HEADERS if name in response},
        "language": translation.get_language(),
        "csrf": CSRF_PLACEHOLDER.encode() in response.content,
        "lifetime": lifetime,
    }


def shareable(request: HttpRequest) -> bool:
    """Whether ``request`` gets the page every visitor gets: a GET without a query string, from a visitor
    without a session, pending messages or a change of their own just made."""
    return (
        request.method == "GET"
        and not request.GET
        and not request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages", CHANGED_COOKIE}
        and not request.user.is_authenticated
    )


def copy_key(request: HttpRequest) -> str:
    """The copy's key: the path and the language the page is in. A reader who chose a language (the
    switcher's cookie, the browser's Accept-Language) has it; every other reader gets the same language,
    the tournament's default (``access_tournament``) or the site's."""
    language = translation.get_language() if reader_chose_language(request) else "-"
    return f"shared-page:v1:{language}:{hashlib.sha256(request.path.encode()).hexdigest()}"


def share_until(response: HttpResponse, moment: datetime | None) -> HttpResponse:
    """Say that ``response``'s page turns at ``moment`` (None: at no known moment)."""
    if moment is not None:
        setattr(response, UNTIL_ATTRIBUTE, moment.timestamp())
    return response


def saw_change(response: HttpResponse) -> HttpResponse:
    """Mark the browser that made a change: its next pages are rendered for it, until every copy made
    before the change has ended."""
    seconds = float(settings.SHARED_PAGE_SECONDS)
    if seconds > 0:
        response.set_cookie(
            CHANGED_COOKIE,
            "1",
            max_age=math.ceil(seconds) + 1,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def answer(request: HttpRequest, copy: dict[str, Any]) -> HttpResponse:
    """The copy, for this visitor: their own CSRF token (and cookie), in the copy's language."""
    body: bytes = copy["body"]
    if copy["csrf"]:
        body = body.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
    response = HttpResponse(body)
    for name, value in copy["headers"].items():
        response[name] = value
    # The language the page is in (the tournament's default when the reader chose none), for
    # LocaleMiddleware's Content-Language on the way out.
    translation.activate(copy["language"])
    request.LANGUAGE_CODE = copy["language"]
    return response


def _own_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A page rendered for a copy that is not kept (an error, a page about to turn): the visitor's own
    token in place of the placeholder."""
    if not response.streaming and CSRF_PLACEHOLDER.encode() in response.content:
        response.content = response.content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
    return response
