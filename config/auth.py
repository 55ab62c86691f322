"""Signing in, with failed attempts limited per address and user name.

Five failed attempts for one user name from one address within ten minutes close the window: every
further attempt (a right password included) is refused with a clear message until the ten minutes that
began with the first failure are over. The counts live in the Django cache (Redis in production), so all
web processes share them; nothing is stored about successful sign-ins. The address is ``REMOTE_ADDR``:
behind a proxy that is the proxy's, which makes the limit one per user name.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

MAX_FAILURES = 5
WINDOW_SECONDS = 10 * 60


def _key(request: HttpRequest, username: str) -> str:
    who = f"{request.META.get('REMOTE_ADDR', '')}|{username.strip().casefold()}"
    return "login-failures:" + hashlib.sha256(who.encode()).hexdigest()


def seconds_blocked(request: HttpRequest, username: str) -> int:
    """Seconds left in a closed window for this address and user name; 0 when attempts are allowed."""
    key = _key(request, username)
    if (cache.get(key) or 0) < MAX_FAILURES:
        return 0
    started = cache.get(f"{key}:start") or time.time()
    return max(1, math.ceil(started + WINDOW_SECONDS - time.time()))


def record_failure(request: HttpRequest, username: str) -> None:
    """Count one failure; the first failure opens a window of ``WINDOW_SECONDS`` (atomic in Redis)."""
    key = _key(request, username)
    cache.add(f"{key}:start", time.time(), WINDOW_SECONDS)
    if not cache.add(key, 1, WINDOW_SECONDS):
        try:
            cache.incr(key)
        except ValueError:  # the window closed between the two calls
            cache.add(key, 1, WINDOW_SECONDS)


def clear_failures(request: HttpRequest, username: str) -> None:
    key = _key(request, username)
    cache.delete_many([key, f"{key}:start"])


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")
        blocked = seconds_blocked(request, username)
        if blocked:
            # An unbound form: the password is not even checked while the window is closed.
            form = self.get_form_class()(request, initial={"username": username})
            minutes = math.ceil(blocked / 60)
            message = (
                f"Too many failed sign-in attempts for this user name. Try again in {minutes} "
                f"minute{'s' if minutes != 1 else ''}."
            )
            return self.render_to_response(self.get_context_data(form=form, refused=message), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        record_failure(self.request, self.request.POST.get("username", ""))
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        clear_failures(self.request, self.request.POST.get("username", ""))
        return super().form_valid(form)


class LogoutView(auth_views.LogoutView):
    pass
