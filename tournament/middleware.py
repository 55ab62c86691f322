"""Request-wide helpers of the tournament pages and API."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from tournament import access


class RoleLookupMiddleware:
    """Each user's role in a tournament is looked up once per request (``tournament.access``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with access.request_scope():
            return self.get_response(request)
