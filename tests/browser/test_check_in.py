"""Check-in at the door, in the browser: one tap per player without a page reload, undo, and the ticked
players checked in at once; the plan of tables follows each tap."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, log_in
from tests.conftest import make_players, make_user
from tournament.models import Player, Tournament

PASSWORD = "pw-for-tests-only"


@pytest.fixture
def door(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Door Cup",
        slug="door-cup",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
    )
    make_user("organiser", tournament, "organiser")
    make_players(tournament, 6, prefix="Player")
    make_players(tournament, 2, prefix="Sub", is_substitute=True)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_check_in_at_the_door_without_a_reload(
    new_context: Any, live_server: Any, door: Tournament, screenshot: Any
) -> None:
    page = new_context(viewport=PHONE).new_page()
    log_in(page, live_server, "organiser", PASSWORD, "/t/door-cup/manage/check-in/")
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    row = page.locator("tr[data-name='Player 001']")
    row.get_by_role("button", name="Check in").click()
    expect(row.locator("[data-status-label]")).to_have_text("Checked in")
    expect(page.locator("[data-plan-heading]")).to_have_text("1 player checked in")
    expect(page.locator("[data-check-in-toast]")).to_contain_text("Player 001 is checked in.")
    assert Player.objects.get(name="Player 001").status == Player.Status.CHECKED_IN
    # Undo from the answer itself.
    page.locator("[data-check-in-toast]").get_by_role("button", name="Undo").click()
    expect(row.locator("[data-status-label]")).to_have_text("Registered")
    expect(page.locator("[data-plan-heading]")).to_have_text("0 players checked in")
    # Ticked players, at once.
    for name in ("Player 002", "Player 003", "Player 004", "Player 005", "Player 006"):
        page.locator(f"tr[data-name='{name}'] input[type=checkbox]").check()
    page.get_by_role("button", name="Check in the ticked players").click()
    expect(page.locator("[data-plan-heading]")).to_have_text("5 players checked in")
    expect(page.locator("[data-plan-text]")).to_contain_text("Or, without substitutes: 1 player sits out")
    assert page.evaluate("window.__sameDocument") is True
    assert Player.objects.filter(status=Player.Status.CHECKED_IN).count() == 5
    screenshot(page, "check-in-at-the-door")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_search_leaves_only_the_matching_row_on_a_phone(
    new_context: Any, live_server: Any, door: Tournament
) -> None:
    """On a phone each row is drawn as a grid; a row the search hides must still disappear."""
    Player.objects.create(tournament=door, name="Łukasz Nowak")
    page = new_context(viewport=PHONE).new_page()
    log_in(page, live_server, "organiser", PASSWORD, "/t/door-cup/manage/check-in/")
    rows = page.locator("table.check-in tbody tr")
    expect(rows).to_have_count(9)
    page.get_by_role("searchbox", name="Search a name").fill("lukasz")
    expect(page.locator("tr[data-name='Łukasz Nowak']")).to_be_visible()
    expect(page.locator("tr[data-name='Player 001']")).to_be_hidden()
    assert rows.evaluate_all("rows => rows.filter(row => row.offsetHeight > 0).length") == 1
