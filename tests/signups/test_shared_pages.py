"""The sign-up page and the list of the registered, shared between visitors without a session
(tournament.views.shared): one render serves many visitors for ``SHARED_PAGE_SECONDS``, each with their
own CSRF token; whoever made a change, anyone signed in and a reader of another language get their own
page; a copy ends when the registration opens."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.conftest import make_user
from tournament.models import RegistrationSettings, SignUp, Tournament
from tournament.views.base import CSRF_PLACEHOLDER

pytestmark = pytest.mark.django_db(transaction=True)  # the messages leave once the change commits

PAGE = "/t/test-open/signup/"
LIST = "/t/test-open/signup/registered/"
FORM = {"last_name": "Alves", "first_name": "Ana", "country": "PT", "consent": "on"}


def csrf_token(text: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
    assert found, text[:2000]
    return found.group(1)


@pytest.fixture
def registration(tournament: Tournament, settings: Any) -> RegistrationSettings:
    settings.SHARED_PAGE_SECONDS = 30  # long enough that no copy ends while a test runs
    return RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(hours=1),
        capacity=10,
        consent_text="My name is published on the standings.",
    )


def test_one_render_serves_every_visitor_each_with_their_own_token(
    registration: RegistrationSettings,
) -> None:
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    assert "My name is published" in first.get(PAGE).text
    registration.consent_text = "Changed after the copy was made."
    registration.save()
    with CaptureQueriesContext(connection) as queries:
        shared = second.get(PAGE)
    assert shared.status_code == 200 and "My name is published" in shared.text  # the copy, not a render
    assert len(queries) == 0
    assert shared["Content-Language"] == "en"
    tokens = {csrf_token(first.get(PAGE).text), csrf_token(shared.text)}
    assert len(tokens) == 2 and CSRF_PLACEHOLDER not in tokens
    # Each visitor's token is good for their own form: the copy's answer set the cookie it pairs with.
    sent = second.post(
        PAGE, {**FORM, "email": "ana@example.org", "csrfmiddlewaretoken": csrf_token(shared.text)}
    )
    assert sent.status_code == 200 and "data-signup-sent" in sent.text
    assert SignUp.objects.get().email == "ana@example.org"
    assert (
        first.post(PAGE, {**FORM, "email": "bo@example.org", "csrfmiddlewaretoken": "x" * 64}).status_code
        == 403
    )


def test_whoever_changes_something_sees_it_at_once(
    tournament: Tournament, registration: RegistrationSettings
) -> None:
    player, visitor = Client(), Client()
    player.post(PAGE, {**FORM, "email": "ana@example.org"})
    confirm = re.search(r"(/t/test-open/signup/confirm/[0-9a-f]+/)", mail.outbox[-1].body)
    assert confirm
    assert "Registered: 0" in player.get(LIST).text and "Registered: 0" in visitor.get(LIST).text
    player.post(confirm.group(1))
    assert "Ana Alves" in player.get(LIST).text  # the author of the change: their own page
    assert "Ana Alves" not in visitor.get(LIST).text  # everyone else: the copy, for its few seconds
    staff = Client()
    staff.force_login(make_user("organiser", tournament, "organiser"))
    assert "Ana Alves" in staff.get(LIST).text  # anyone signed in: their own page
    assert "Ana Alves" in visitor.get(LIST + "?fresh").text  # a query string: a page of its own


def test_a_copy_is_per_language(registration: RegistrationSettings) -> None:
    english = Client().get(PAGE)
    japanese = Client(headers={"accept-language": "ja"}).get(PAGE)
    assert english["Content-Language"] == "en" and japanese["Content-Language"] == "ja"
    assert japanese.text != english.text and 'lang="ja"' in japanese.text


def test_a_copy_ends_when_the_registration_opens(registration: RegistrationSettings) -> None:
    registration.opens_at = timezone.now() + timedelta(seconds=1.5)
    registration.save()
    visitor = Client()
    before = visitor.get(PAGE)
    assert 'name="consent"' not in before.text  # not open yet: no form
    time.sleep(max(0.0, (registration.opens_at - timezone.now()).total_seconds()) + 0.2)
    assert 'name="consent"' in Client().get(PAGE).text  # opened: the copy made before ended with it


def test_sharing_off_renders_each_page(registration: RegistrationSettings, settings: Any) -> None:
    settings.SHARED_PAGE_SECONDS = 0
    Client().get(PAGE)
    registration.consent_text = "Changed."
    registration.save()
    assert "Changed." in Client().get(PAGE).text
