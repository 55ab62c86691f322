"""A player signs up on a phone (390 px), in English and in Japanese: the form, the confirmation link
read off the test's own SMTP server, and their name on the public list. An organiser corrects a sign-up
on the same phone: the form above the list, the refusal beside its field, the correction saved."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import layout_problems, log_in
from tests.conftest import make_user
from tests.signups.smtp import Inbox, smtp_server
from tournament.models import RegistrationSettings, SignUp, Tournament
from tournament.services import signups

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


@pytest.mark.parametrize(("language", "saved_word"), [("en", "is corrected"), ("ja", "修正しました")])
def test_an_organiser_corrects_a_sign_up_on_a_phone(
    new_context: Any, live_server: Any, language: str, saved_word: str
) -> None:
    tournament = Tournament.objects.create(
        name="Spring Open",
        slug="test-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 2),
        hanchan_count=5,
    )
    RegistrationSettings.objects.create(tournament=tournament, opens_at=timezone.now() - timedelta(hours=1))
    fields = {"last_name": "Suzuki", "first_name": "Kenji", "email": "kenji@example.org", "consent": True}
    made = signups.sign_up(tournament, fields, address="192.0.2.7", language=language)
    assert made is not None
    signups.confirm(tournament, signups.confirm_token(made))
    make_user("organiser", tournament, "organiser")
    page = new_context(viewport={"width": 390, "height": 844}, locale=language).new_page()
    log_in(page, live_server, "organiser", "pw-for-tests-only", "/t/test-open/manage/signups/")
    assert layout_problems(page) == []
    with page.expect_navigation():
        page.click(f"[data-edit-signup='{made.pk}']")
    form = f"form[data-signup-edit='{made.pk}']"
    assert page.input_value(f"{form} #id_email") == "kenji@example.org"
    page.fill(f"{form} #id_native_name", "鈴木 健二")
    page.fill(f"{form} #id_ema_id", "12345")
    assert layout_problems(page) == []
    with page.expect_navigation():
        page.click(f"{form} button[value=edit]")
    assert "12345" in page.inner_text(form)  # the refusal, shown in the form
    assert layout_problems(page) == []
    assert SignUp.objects.get().native_name == ""  # nothing stored half-way
    page.fill(f"{form} #id_ema_id", "04120003")
    with page.expect_navigation():
        page.click(f"{form} button[value=edit]")
    assert saved_word in page.inner_text(f"[data-signup-edited='{made.pk}']")
    assert layout_problems(page) == []
    stored = SignUp.objects.get()
    assert (stored.native_name, stored.ema_id) == ("鈴木 健二", "04120003")
