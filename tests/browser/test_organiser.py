"""An organiser imports the players from a CSV (a bad file first: every bad row shown, nothing stored),
generates the seating and reads its quality report; a player finds their table."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, log_in, wait_for_path
from tests.conftest import make_user
from tournament.models import Player, Tournament

PASSWORD = "pw-for-tests-only"
NAMES = [
    "Aiko Tanaka",
    "Ben Fischer",
    "Chloé Martin",
    "Dmitri Ivanov",
    "Elena Rossi",
    "Finn Larsen",
    "Greta Nilsson",
    "Hugo Silva",
    "Ines García",
    "Jan Novák",
    "Kasia Nowak",
    "Lars Berg",
    "Mei Chen",
    "Noah Smith",
    "Olga Petrova",
    "Pieter de Vries",
]


def csv_file(rows: list[str]) -> dict[str, Any]:
    text = "name;country;club\n" + "\n".join(rows) + "\n"
    return {"name": "players.csv", "mimeType": "text/csv", "buffer": text.encode()}


@pytest.fixture
def new_tournament(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Autumn Cup",
        slug="autumn-cup",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=5,
    )
    make_user("organiser", tournament, "organiser")
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_organiser_imports_players_generates_the_seating_and_reads_the_report(
    new_context: Any, live_server: Any, new_tournament: Tournament, screenshot: Any
) -> None:
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_server, "organiser", PASSWORD, "/t/autumn-cup/manage/players/")

    bad = [f"{name};JP;Tokyo Riichi" for name in NAMES[:3]] + [";FR;", "Quinn Quist;Narnia;"]
    page.set_input_files("input[type=file]", csv_file(bad))
    page.get_by_role("button", name="Check the file").first.click()
    errors = page.locator("[data-import-errors] tbody tr")
    expect(errors).to_have_count(2)
    expect(errors.nth(0)).to_contain_text("missing name")
    expect(errors.nth(1)).to_contain_text("'Narnia' is not an ISO 3166 country code or name")
    expect(page.get_by_role("button", name="Import")).to_have_count(0)
    assert not Player.objects.filter(tournament=new_tournament).exists()

    good = [f"{name};{country};" for name, country in zip(NAMES, ["JP", "DE", "FR", "UA"] * 4, strict=True)]
    page.set_input_files("input[type=file]", csv_file(good))
    page.get_by_role("button", name="Check the file").click()
    expect(page.locator(".notice")).to_contain_text("All 16 rows are fine.")
    page.get_by_role("button", name="Import 16 players").click()
    expect(page.locator(".messages")).to_contain_text("Imported 16 players from players.csv.")
    expect(page.locator("h2", has_text="16 registered")).to_be_visible()
    screenshot(page, "organiser-registration")

    page.goto(f"{live_server.url}/t/autumn-cup/manage/seating/")
    page.get_by_role("button", name="Generate the seating").click()
    wait_for_path(page, "*/manage/seating/jobs/*/")
    report = page.locator("[data-report]")
    expect(report).to_contain_text("16 players, 5 hanchan, 4 tables")
    expect(report).to_contain_text("Opponents: as good as possible.")
    expect(report).to_contain_text("No two players meet more than once.")
    screenshot(page, "seating-report")

    # A player, on a phone, finds their table in hanchan 1.
    phone = new_context(viewport=PHONE)
    look = phone.new_page()
    look.goto(f"{live_server.url}/t/autumn-cup/seating/1/")
    look.fill("[data-find-input]", "chloe")
    expect(look.locator("[data-find-result]")).to_contain_text("Chloé Martin: table")
    expect(look.locator(".table-card.found")).to_have_count(1)
    screenshot(look, "seating")
