"""Request-wide helpers of the tournament pages and API."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournament import access


class RoleLookupMiddleware:
    """Each user's role in a tournament is looked up once per request (``tournament.access``), and the
    venue's time zone a tournament page activates ends with the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with access.request_scope():
            try:
                return self.get_response(request)
            finally:
                timezone.deactivate()  # the venue's time of a tournament page ends with its request
