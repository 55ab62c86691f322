"""Signing in, with failed attempts limited the same way at every door: the page login, the admin login
(``AdminSite``), the API's token endpoint (``config.api.TokenLoginView``) and a player's PIN
(``config.player_login``, with a third count per player, below).

Failures are counted twice, never per user name alone, so that a stranger elsewhere cannot lock the real
user out:

- per client address and user name: five failures within ten minutes close the window for that name
  from that address; every further attempt (a right password included) is refused until the ten minutes
  that began with the first failure are over;
- per client address: twenty failures within ten minutes, whatever the names, close the window for that
  address (one address cannot try a password against every user name).

Each attempt is counted before its password is checked (``reserve``: an atomic increment, so attempts
sent together each see their own number and no more than the limit go ahead, in any number of
processes); a wrong password keeps its place in the counts, a right one gives it back. A refused attempt
answers 429 with "Too many failed sign-in attempts ... Try again in N minutes." and a ``Retry-After``
header; its password is not even checked. A successful sign-in clears the count of its address and name
(not the address's own count).

The client address is ``tournament.queries.access.client_address``: ``REMOTE_ADDR``, or, when
``TRUSTED_PROXY_COUNT`` (0 by default) says how many proxies of our own stand in front of the site, the
address that many places from the right of ``X-Forwarded-For``, as DRF's ``NUM_PROXIES`` reads it. A
client-supplied header is never trusted otherwise.

The counts live in the Django cache (Redis in production), so all web processes share them, and each
process also keeps its own count in memory: when Redis cannot be reached (the fail-soft cache answers
every read as a miss), the limits still hold, per process (with four web processes, at most four times
the attempts), instead of falling away; the sign-in itself never fails for it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from redis.exceptions import RedisError

from tournament.queries.access import client_address

logger = logging.getLogger(__name__)

MAX_FAILURES = 5  # per client address and user name
MAX_ADDRESS_FAILURES = 20  # per client address, whatever the user names
WINDOW_SECONDS = 10 * 60
TOO_MANY = "too_many_attempts"  # the refusal's rule (a form error's code, an API error's rule)
CACHE_ERRORS = (RedisError, OSError)


def _key(*parts: str) -> str:
    return "login-failures:" + hashlib.sha256("|".join(parts).encode()).hexdigest()


def _keys(request: HttpRequest, username: str) -> tuple[str, str]:
    """The counter of this address and user name, and the counter of this address."""
    address = client_address(request)
    return _key("name", address, username.strip().casefold()), _key("address", address)


@dataclass(frozen=True)
class Block:
    seconds: int
    message: str


# This process's own counts, beside the shared ones (see the module's docstring). Bounded: beyond
# ``MAX_ENTRIES`` keys a third of them go, oldest first, so a flood of addresses costs memory, not more.
local_counts = LocMemCache("login-failures", {"TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 50_000}})
STORES = (cache, local_counts)


@dataclass(frozen=True)
class Limit:
    """One count an attempt is held to: ``limit`` attempts under ``key`` within ``window`` seconds."""

    kind: str  # "name", "address" or "player": which message a refusal gives
    key: str
    limit: int
    window: int = WINDOW_SECONDS


def _take(store: Any, key: str, window: int) -> int | None:
    """One more attempt under ``key`` in ``store``, counted before anything is checked: the count with it
    (an atomic increment in Redis, so simultaneous attempts each see their own number), or None when the
    store cannot count. The first attempt opens a window of ``window`` seconds."""
    try:
        store.add(f"{key}:start", time.time(), window)
        store.add(key, 0, window)
        try:
            return int(store.incr(key))
        except ValueError:  # the window closed between the two calls, or Redis is unreachable
            return 1 if store.add(key, 1, window) else None
    except CACHE_ERRORS:
        logger.warning("login limits: the shared cache cannot be reached; this process counts", exc_info=True)
        return None


def _give_back(store: Any, key: str) -> None:
    try:
        store.decr(key)
    except (ValueError, *CACHE_ERRORS):  # the window closed meanwhile, or Redis is unreachable
        pass


def _seconds_left(store: Any, key: str, window: int) -> int:
    try:
        started = store.get(f"{key}:start") or time.time()
    except CACHE_ERRORS:
        started = time.time()
    return max(math.ceil(started + window - time.time()), 1)


class Attempt:
    """A sign-in attempt, counted before its password or PIN is checked (``reserve``): ``block`` says why
    it is refused (its count given back), or None when it may go ahead. The count it took stands as a
    failure unless the caller says ``succeeded`` (the name's count cleared, the others given back) or
    ``abandoned`` (nothing was checked: every count given back). Counting first is what holds the limits
    when attempts arrive together: each sees the number its own increment returned, so of any number of
    simultaneous attempts at most the limit go ahead, in every process."""

    def __init__(self, limits: list[Limit]) -> None:
        self.limits = limits
        self.taken: list[tuple[Any, Limit]] = []
        self.block: Block | None = None
        over: dict[str, int] = {}
        for limit in limits:
            for store in STORES:
                count = _take(store, limit.key, limit.window)
                if count is None:
                    continue
                self.taken.append((store, limit))
                if count > limit.limit:
                    seconds = _seconds_left(store, limit.key, limit.window)
                    over[limit.kind] = max(over.get(limit.kind, 0), seconds)
        if over:
            self.abandoned()
            self.block = _refusal(over)

    def succeeded(self) -> None:
        """The right password or PIN: the name's count starts afresh; the address's and the player's
        counts keep their failures only."""
        for store, limit in self.taken:
            if limit.kind == "name":
                try:
                    store.delete_many([limit.key, f"{limit.key}:start"])
                except CACHE_ERRORS:
                    logger.warning("login failures not cleared: the cache cannot be reached", exc_info=True)
            else:
                _give_back(store, limit.key)
        self.taken = []

    def failed(self) -> None:
        """A wrong password or PIN: the count taken stands."""
        self.taken = []

    def abandoned(self) -> None:
        """Nothing was checked (a field missing): every count taken is given back."""
        for store, limit in self.taken:
            _give_back(store, limit.key)
        self.taken = []


def _refusal(over: dict[str, int]) -> Block:
    """The message of a refused attempt: the name's or the address's window, whichever closes later, else
    the player's day."""
    if "name" in over or "address" in over:
        seconds = max(over.get("name", 0), over.get("address", 0))
        minutes = math.ceil(seconds / 60)
        if over.get("name", 0) >= over.get("address", 0):
            message = ngettext(
                "Too many failed sign-in attempts for this user name. Try again in {minutes} minute.",
                "Too many failed sign-in attempts for this user name. Try again in {minutes} minutes.",
                minutes,
            )
        else:
            message = ngettext(
                "Too many failed sign-in attempts from this address. Try again in {minutes} minute.",
                "Too many failed sign-in attempts from this address. Try again in {minutes} minutes.",
                minutes,
            )
        return Block(seconds, message.format(minutes=minutes))
    seconds = over["player"]
    hours = math.ceil(seconds / 3600)
    message = ngettext(
        "Too many wrong PINs for this player today. Try again in {hours} hour, sign in with the code on "
        "your seating card, or ask an organiser for a new PIN.",
        "Too many wrong PINs for this player today. Try again in {hours} hours, sign in with the code on "
        "your seating card, or ask an organiser for a new PIN.",
        hours,
    )
    return Block(seconds, message.format(hours=hours))


def _limits(request: HttpRequest, username: str) -> list[Limit]:
    name_key, address_key = _keys(request, username)
    return [Limit("name", name_key, MAX_FAILURES), Limit("address", address_key, MAX_ADDRESS_FAILURES)]


def reserve(request: HttpRequest, username: str) -> Attempt:
    """The attempt to sign in as ``username`` from this request's address, counted (see ``Attempt``)."""
    return Attempt(_limits(request, username))


# A player's PIN (``config.player_login``): six digits, a million values. Besides the two counts above
# (the "user name" being the player), the wrong PINs of one player are counted from every address
# together, so that many addresses cannot share the guessing: at most ``MAX_PLAYER_FAILURES`` a day.
MAX_PLAYER_FAILURES = 10
PLAYER_WINDOW_SECONDS = 24 * 60 * 60


def _player_name(tournament_pk: int, player_pk: int) -> str:
    return f"player {tournament_pk}/{player_pk}"


def reserve_player(request: HttpRequest, tournament_pk: int, player_pk: int) -> Attempt:
    """A PIN attempt for this player, counted per address and player, per address, and per player from
    every address (``MAX_PLAYER_FAILURES`` a day)."""
    player_key = _key("player", str(tournament_pk), str(player_pk))
    limits = _limits(request, _player_name(tournament_pk, player_pk))
    return Attempt([*limits, Limit("player", player_key, MAX_PLAYER_FAILURES, PLAYER_WINDOW_SECONDS)])


class LoginForm(AuthenticationForm):
    """The sign-in form that asks the limiter first and tells it how the attempt went."""

    def clean(self) -> dict[str, Any]:
        if self.request is None:
            return super().clean()
        username = str(self.cleaned_data.get("username") or "")
        attempt = reserve(self.request, username)
        if attempt.block is not None:
            self.block = attempt.block
            raise ValidationError(attempt.block.message, code=TOO_MANY)
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if getattr(error, "code", None) == "invalid_login":
                attempt.failed()
            else:
                attempt.abandoned()
            raise
        except BaseException:
            attempt.abandoned()
            raise
        if self.user_cache is not None:
            attempt.succeeded()
        else:
            attempt.abandoned()  # a field missing: no password was checked
        return cleaned


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's form (staff accounts only), limited the same way."""


def too_many(response: HttpResponse) -> HttpResponse:
    """A login page that re-shows its form refused by the limiter answers 429 with Retry-After."""
    form = (response.context_data or {}).get("form") if isinstance(response, TemplateResponse) else None
    if form is not None and form.has_error(NON_FIELD_ERRORS, TOO_MANY):
        response.status_code = 429
        response["Retry-After"] = str(form.block.seconds)
    return response


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: Any) -> HttpResponse:
        return too_many(super().form_invalid(form))


class LogoutView(auth_views.LogoutView):
    pass


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """The link of an invitation (``tournament.views.accounts.invite_organiser``): Django's password
    reset confirmation, its token from ``default_token_generator`` (valid ``PASSWORD_RESET_TIMEOUT``,
    three days by default, and only until the password is set), then the sign-in page."""

    template_name = "registration/set_password.html"
    success_url = reverse_lazy("login")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, gettext("Your password is set: sign in with it."))
        return response


class AdminSite(admin.AdminSite):
    """The default admin site (``config.apps.AdminConfig``), its login limited like the others; its
    titles in the reader's language (the admin's own words come from Django's catalogues)."""

    login_form = AdminLoginForm
    site_header = gettext_lazy("Riichi tournament manager: administration")
    site_title = gettext_lazy("Riichi tournament manager")
    index_title = gettext_lazy("Administration")

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return too_many(super().login(request, extra_context))
