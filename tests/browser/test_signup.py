"""A player signs up on a phone (390 px), in English and in Japanese: the form, the confirmation link
read off the test's own SMTP server, and their name on the public list."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import layout_problems
from tests.signups.smtp import Inbox, smtp_server
from tournament.models import RegistrationSettings, SignUp, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "first", "sent_word"), [("en", "Ana", "Thank you"), ("ja", "Kenji", "ありがとうございます")]
)
def test_sign_up_confirm_from_the_email_and_see_yourself_on_the_list(
    new_context: Any, live_server: Any, language: str, first: str, sent_word: str
) -> None:
    tournament = Tournament.objects.create(
        name="Spring Open",
        slug="test-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 2),
        hanchan_count=5,
    )
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(hours=1),
        capacity=40,
        consent_text="Published.",
    )
    email = f"{first.lower()}@example.org"
    with smtp_server() as inbox:
        page = new_context(viewport={"width": 390, "height": 844}, locale=language).new_page()
        page.goto(f"{live_server.url}/t/test-open/signup/")
        page.fill("#id_last_name", "Suzuki")
        page.fill("#id_first_name", first)
        page.fill("#id_native_name", "鈴木")
        page.fill("#id_email", email)
        page.check("#id_consent")
        assert layout_problems(page) == []
        page.click("form.stacked button[type=submit]")
        page.wait_for_selector("[data-signup-sent]")
        assert sent_word in page.inner_text("[data-signup-sent]")
        [message] = inbox.to(email)
        found = re.search(r"(/t/test-open/signup/confirm/[0-9a-f]+/)", Inbox.text(message))
        assert found
        page.goto(live_server.url + found.group(1))
        page.click("main form button[type=submit]")
        page.wait_for_selector('[data-signup-state="registered"]')
    assert SignUp.objects.get(email=email).language == language
    page.goto(f"{live_server.url}/t/test-open/signup/registered/")
    assert f"{first} Suzuki" in page.inner_text("table")
    assert layout_problems(page) == []
