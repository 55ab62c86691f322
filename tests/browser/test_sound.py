"""The gong's toggle: off by default on the pages people hold (forty phones would gong at once), on by
default on the projector, a state read as such ("Sound: off", aria-pressed), and a visitor's choice kept."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.conftest import make_players, make_user, seat_table
from tournament import services
from tournament.models import Round, Tournament


@pytest.fixture
def playing(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Quiet Cup",
        slug="quiet-cup",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 5),
        hanchan_count=2,
    )
    organiser = make_user("organiser", tournament, "organiser")
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.SEATED)
    seat_table(round_, 1, make_players(tournament, 4))
    services.operate_clock(round_, organiser, "start")
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_phones_start_silent_the_projector_sounds_and_a_choice_is_kept(
    new_context: Any, live_server: Any, playing: Tournament
) -> None:
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/quiet-cup/standings/")
    toggle = phone.locator("[data-sound-toggle]")
    expect(toggle).to_have_text("Sound: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_text("Sound: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    phone.reload()
    expect(phone.locator("[data-sound-toggle]")).to_have_text("Sound: on")  # the visitor's choice

    room = new_context(viewport=DESKTOP).new_page()
    room.goto(f"{live_server.url}/t/quiet-cup/projector/")
    expect(room.locator(".projector-clock [data-sound-toggle]")).to_have_text("Sound: on")
    expect(room.locator(".projector-clock [data-sound-toggle]")).to_have_attribute("aria-pressed", "true")
