"""A referee fills a table's sheet from an online game's log in the browser: the upload form on the sheet
page, the nicknames mapped, the findings beside the draft that the editor shows, no policy violation."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.browser.conftest import DESKTOP, log_in
from tests.browser.test_content_security import watch
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Tournament

PASSWORD = "pw-for-tests-only"
LOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "hanchan.json"


@pytest.fixture
def online_table(transactional_db: None) -> Any:
    tournament = Tournament.objects.create(
        name="Online Open",
        slug="online-open",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 5),
        hanchan_count=2,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [Player.objects.create(tournament=tournament, name=n) for n in ("Ana", "Ben", "Cho", "Dai")]
    make_user("referee", tournament, "referee")
    return seat_table(round_, 1, players)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_referee_uploads_a_log_and_gets_the_draft_with_its_findings(
    new_context: Any, live_server: Any, online_table: Any
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    violations = watch(page)
    log_in(page, live_server, "referee", PASSWORD, "/t/online-open/sheet/1/1/")
    form = page.locator("[data-game-log]")
    form.locator("summary").click()
    form.get_by_label("Log file").set_input_files(str(LOG))
    form.get_by_label("Names that differ").fill("chochan = Cho\ndai-chi = Dai")
    form.get_by_role("button", name="Read the log").click()
    findings = page.locator("[data-log-findings]")
    expect(findings).to_contain_text("East 1, 1 honba")
    expect(findings).to_contain_text("red fives")
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    sheet = ScoreSheet.objects.get(table=online_table)
    assert sheet.status == ScoreSheet.Status.DRAFT and len(sheet.entry["hands"]) == 12
    page.reload()  # the findings are the version's: still beside it
    expect(page.locator("[data-log-findings]")).to_contain_text("red fives")
    # Submitted from the editor as read: the next version scores every hand the same, and keeps them.
    # Once submitted, the page loads itself again (sheet.js): wait for that load rather than reloading
    # over it, which aborts one of the two navigations.
    with page.expect_navigation(url=lambda url: url.endswith("/sheet/1/1/"), timeout=15_000):
        page.locator("#sheet-form").get_by_role("button", name="Submit", exact=True).click()
    expect(page.locator("[data-log-findings]")).to_contain_text("red fives")
    assert ScoreSheet.objects.get(table=online_table).status == ScoreSheet.Status.SUBMITTED
    assert violations == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_head_referee_accepts_the_logs_seats(new_context: Any, live_server: Any, online_table: Any) -> None:
    make_user("head", online_table.round.tournament, "head_referee")
    page = new_context(viewport=DESKTOP).new_page()
    violations = watch(page)
    log_in(page, live_server, "head", PASSWORD, "/t/online-open/sheet/1/1/")
    form = page.locator("[data-game-log]")
    form.locator("summary").click()
    form.get_by_label("Log file").set_input_files(str(LOG))
    # The log's East ("anA") sat where the seating put Ben, its South ("Bén") where it put Ana.
    form.get_by_label("Names that differ").fill("anA = Ben\nBén = Ana\nchochan = Cho\ndai-chi = Dai")
    form.get_by_role("button", name="Read the log").click()
    expect(page.locator("[data-server-errors]")).to_contain_text("The table sat as in the log")
    assert not ScoreSheet.objects.filter(table=online_table).exists()
    form = page.locator("[data-game-log]")
    if not form.locator("[data-reseat-winds]").is_visible():
        form.locator("summary").click()
    form.get_by_label("Log file").set_input_files(str(LOG))
    form.get_by_label("Names that differ").fill("anA = Ben\nBén = Ana\nchochan = Cho\ndai-chi = Dai")
    form.get_by_label("The table sat as in the log: re-seat the winds").check()
    form.get_by_role("button", name="Read the log").click()
    expect(page.locator("[data-log-findings]")).to_contain_text("red fives")
    east = page.locator(".seats > div").first
    expect(east.locator(".field-label")).to_have_text("East")
    expect(east.locator("b")).to_have_text("Ben")
    winds = {
        seat.player.name: seat.get_wind_display() for seat in online_table.seats.select_related("player")
    }
    assert winds == {"Ben": "East", "Ana": "South", "Cho": "West", "Dai": "North"}
    assert violations == []
