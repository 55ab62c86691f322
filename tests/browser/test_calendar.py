"""The calendar of coming events on the site's home page, on a phone (390 px) in English and Japanese: the
month heading, an event with its dates, venue and registration state, its sign-up button leading to the
sign-up form, nothing cut or overlapping, and the link to the iCalendar feed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import layout_problems, wait_for_path
from tournament.models import RegistrationSettings, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "state", "button"), [("en", "Places left", "Sign up"), ("ja", "残り枠", "申し込む")]
)
def test_the_coming_events_on_a_phone(
    new_context: Any, live_server: Any, language: str, state: str, button: str
) -> None:
    today = timezone.localdate()
    spring = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2027 · Spring Season",
        slug="spring-open",
        starts_on=today + timedelta(days=30),
        ends_on=today + timedelta(days=31),
        venue="Salão Nobre do Clube Naval de Lisboa, Cais do Sodré",
        time_zone="Europe/Lisbon",
        hanchan_count=5,
    )
    RegistrationSettings.objects.create(
        tournament=spring,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=20),
        capacity=40,
    )
    Tournament.objects.create(
        name="Invitational",
        slug="invitational",
        starts_on=today,
        ends_on=today,
        hanchan_count=4,
        is_public=False,
    )
    page = new_context(viewport={"width": 390, "height": 844}, locale=language).new_page()
    page.goto(f"{live_server.url}/")
    calendar = page.locator("[data-calendar]")
    card = calendar.locator(f'[data-event="{spring.pk}"]')
    assert state in card.inner_text() and "Europe/Lisbon" in card.inner_text()
    assert calendar.locator("h3").count() == 1  # one month
    assert "Invitational" not in calendar.inner_text()
    assert layout_problems(page) == []
    assert calendar.locator('a[href="/calendar.ics"]').count() == 1
    card.get_by_role("link", name=button).click()
    wait_for_path(page, "*/t/spring-open/signup/")
    assert page.locator("#id_last_name").count() == 1
