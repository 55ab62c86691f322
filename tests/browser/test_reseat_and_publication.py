"""In the browser: a withdrawal confirmed, then a re-seating shown with what it changes and put in place
only once confirmed; and seating published hanchan by hanchan."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, log_in
from tests.conftest import make_players, make_user
from tournament import services
from tournament.models import Player, Seat, Tournament

PASSWORD = "pw-for-tests-only"


@pytest.fixture
def seated(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Winter Cup",
        slug="winter-cup",
        starts_on=date(2026, 12, 5),
        ends_on=date(2026, 12, 5),
        hanchan_count=4,
    )
    organiser = make_user("organiser", tournament, "organiser")
    make_players(tournament, 16, status=Player.Status.CHECKED_IN)
    make_players(tournament, 1, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    job = services.request_seating(tournament, organiser, seed=2)
    job.refresh_from_db()
    assert job.state == "done", job.error
    services.operate_clock(tournament.rounds.get(number=1), organiser, "start")
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_then_a_re_seating_confirmed(
    new_context: Any, live_server: Any, seated: Tournament, screenshot: Any
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live_server, "organiser", PASSWORD, "/t/winter-cup/manage/absences/")
    withdraw = page.locator("section", has_text="Withdraw a player")
    withdraw.get_by_label("Player").select_option(label="Player 007")
    withdraw.get_by_label("From hanchan").fill("2")
    withdraw.get_by_role("button", name="Withdraw…").click()
    expect(page.get_by_role("heading", name="Confirm: Player 007 withdraws from hanchan 2")).to_be_visible()
    assert Player.objects.get(name="Player 007").status == Player.Status.CHECKED_IN  # nothing yet
    page.get_by_role("button", name="Confirm the withdrawal").click()
    expect(page.get_by_text("Player 007 has withdrawn.")).to_be_visible()

    page.goto(f"{live_server.url}/t/winter-cup/manage/seating/")
    page.get_by_label("Seat from hanchan").fill("2")
    page.get_by_role("button", name="Generate the seating").click()
    expect(page.get_by_role("heading", name="Confirm the new seating from hanchan 2")).to_be_visible()
    expect(page.locator("#confirm-reseat")).to_contain_text("leaves: Player 007")
    expect(page.locator("#confirm-reseat")).to_contain_text("joins: Sub 001")
    assert Seat.objects.filter(round__number=2, player__name="Player 007").exists()  # not in place yet
    # The seat changes hands: nobody moves and no schedule is better on any figure, so one proposal.
    expect(page.get_by_role("radio", name="Fewest moves, and the best schedule")).to_be_checked()
    expect(page.locator("[data-proposal=fewest_moves]")).to_contain_text("nobody moves")
    expect(page.locator("[data-proposal=best_schedule]")).to_have_count(0)
    expect(page.locator("#confirm-reseat")).to_contain_text("One proposal: it moves the fewest players")
    screenshot(page, "reseat-confirmation")
    page.get_by_role("button", name="Put the chosen seating in place").click()
    expect(page.get_by_text("The seating from hanchan 2 is in place.")).to_be_visible()
    assert not Seat.objects.filter(round__number=2, player__name="Player 007").exists()
    assert Seat.objects.filter(round__number=2, player__name="Sub 001").exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_seating_published_hanchan_by_hanchan(new_context: Any, live_server: Any, seated: Tournament) -> None:
    Tournament.objects.filter(pk=seated.pk).update(seating_publication="by_hanchan")
    public = new_context(viewport=DESKTOP).new_page()
    public.goto(f"{live_server.url}/t/winter-cup/seating/2/")
    expect(public.get_by_text("The seating of hanchan 2 is not published yet.")).to_be_visible()

    organiser = new_context(viewport=DESKTOP).new_page()
    log_in(organiser, live_server, "organiser", PASSWORD, "/t/winter-cup/manage/seating/")
    row = organiser.locator("tr", has=organiser.get_by_role("link", name="2", exact=True))
    row.get_by_role("button", name="Publish").click()
    expect(organiser.get_by_text("The seating of hanchan 2 is public.")).to_be_visible()

    public.reload()
    expect(public.locator(".table-card").first).to_be_visible()
    expect(public.get_by_text("Player 001")).to_be_visible()
