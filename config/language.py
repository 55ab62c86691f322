"""The reader's language, remembered per person: the switcher's choice is the browser's cookie (Django's
``set_language``) and, for a signed-in account, also ``AccountLanguage``, so that it follows the person to
another device.

- Choosing with the switcher while signed in stores the choice with the account.
- Signing in on a device where a language was chosen and the account has none stores that one.
- A signed-in request without a language cookie speaks the account's language, and its answer sets
  the cookie, so the lookup happens once per device (``AccountLanguageMiddleware``).

The switcher's form is exempt from CSRF (the public pages' shared copies carry no token). A forged
cross-site post carries no session cookie (``SameSite=Lax``), so it cannot reach an account's choice; at
worst it changes an anonymous reader's cookie.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language as django_set_language

from tournament.models import AccountLanguage


def chosen_language(request: HttpRequest) -> str | None:
    """The product's language named by the request's language cookie, or None."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


@csrf_exempt
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, the redirect back), and the account's choice too."""
    response = django_set_language(request)
    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie is not None and cookie.value and request.user.is_authenticated:
        AccountLanguage.objects.update_or_create(user=request.user, defaults={"language": cookie.value})
    return response


@receiver(user_logged_in)
def keep_the_devices_choice(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """A language chosen on this device before signing in becomes the account's, unless it has one."""
    language = chosen_language(request) if request is not None else None
    if language is not None:
        AccountLanguage.objects.get_or_create(user=user, defaults={"language": language})


class AccountLanguageMiddleware:
    """After the authentication middleware: a signed-in request without a language cookie speaks the
    account's language (as if chosen: before the browser's and the tournament's), and sets the cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = None
        if settings.SESSION_COOKIE_NAME in request.COOKIES and chosen_language(request) is None:
            try:
                language = self.account_language(request)
            except DatabaseError:
                # The database is away: the view meets the same error and the site answers its last
                # good copy or its 503 page (tournament.middleware); the language is the browser's.
                language = None
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
                request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = language  # the reader's choice from here on
        response = self.get_response(request)
        if language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response

    @staticmethod
    def account_language(request: HttpRequest) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return AccountLanguage.objects.filter(user=user).values_list("language", flat=True).first()
