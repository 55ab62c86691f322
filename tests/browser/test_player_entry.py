"""Four players on four phones sign in with the links of their seating cards; one enters the final
points, the others agree or dispute on their own phones: a dispute sends the sheet to a referee, three
agreements sign it for the table and the standings count it. No page reports a policy violation."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.browser.conftest import PHONE, wait_for_path
from tests.browser.test_content_security import watch
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Tournament
from tournament.services import player_login

POINTS = {"Ana": 41000, "Ben": 31000, "Cho": 26000, "Dai": 22000}


@pytest.fixture
def players_table(transactional_db: None) -> dict[str, Any]:
    tournament = Tournament.objects.create(
        name="Lighthouse Open",
        slug="lighthouse-open",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=3,
        entry_mode=Tournament.EntryMode.PLAYERS,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [Player.objects.create(tournament=tournament, name=name) for name in POINTS]
    seat_table(round_, 1, players)
    organiser = make_user("organiser", tournament, "organiser")
    links = {p.name: player_login.issue_for_player(p, organiser).token for p in players}
    return {"tournament": tournament, "links": links}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("last_answer", ["dispute", "agree"])
def test_the_table_enters_and_confirms_on_four_phones(
    new_context: Any, live_server: Any, players_table: dict[str, Any], screenshot: Any, last_answer: str
) -> None:
    phones: dict[str, Any] = {}
    violations: list[str] = []
    for name, token in players_table["links"].items():
        page = new_context(viewport=PHONE, has_touch=True).new_page()
        violations_of_page = watch(page)
        page.goto(f"{live_server.url}/t/lighthouse-open/in/{token}/")
        expect(page.locator("h1")).to_have_text(name)  # landed on the player's own page
        expect(page.locator(".messages")).to_contain_text(f"Signed in as {name}")
        page.get_by_role("link", name="My table's score sheet").click()
        wait_for_path(page, "*/sheet/1/1/")
        phones[name] = (page, violations_of_page)

    # Ana enters the final points and submits: she agrees with what she submitted.
    ana = phones["Ana"][0]
    ana.get_by_label("Final points only").check()
    for seat, points in enumerate(POINTS.values()):
        ana.locator(f"#final-{seat}").fill(str(points))
    expect(ana.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    ana.get_by_role("button", name="Submit", exact=True).click()
    expect(ana.locator(".messages")).to_contain_text("The other players of the table confirm it next")
    expect(ana.locator('[data-answer="Ana"]')).to_contain_text("agrees")
    expect(ana.locator("[data-agree]")).to_have_count(0)

    # Ben and Cho agree on their phones.
    for name in ("Ben", "Cho"):
        page = phones[name][0]
        page.reload()
        page.get_by_role("button", name="I agree with version 1").click()
        expect(page.locator(".messages")).to_contain_text("You agree with version 1.")
    screenshot(phones["Cho"][0], "player-sheet-confirming")

    dai = phones["Dai"][0]
    dai.reload()
    if last_answer == "dispute":
        dai.get_by_label("What is wrong?").fill("I had 23,000: Ben paid me 1,000 in the last hand")
        dai.get_by_role("button", name="Dispute version 1").click()
        expect(dai.locator(".messages")).to_contain_text("Disputed: a referee comes to the table.")
        expect(dai.locator("[data-disputed]")).to_be_visible()
        expect(dai.locator('[data-answer="Dai"]')).to_contain_text("disputes (I had 23,000")
        expect(dai.locator("[data-sheet-editor]")).to_have_count(0)  # the players change nothing now
        sheet = ScoreSheet.objects.get()
        assert sheet.status == ScoreSheet.Status.DISPUTED and not sheet.results.exists()
        screenshot(dai, "player-sheet-disputed")
    else:
        dai.get_by_role("button", name="I agree with version 1").click()
        expect(dai.locator(".messages")).to_contain_text("All four players agree: the sheet is signed")
        expect(dai.locator("[data-confirmation]")).to_contain_text("Confirmed by the table")
        sheet = ScoreSheet.objects.get()
        assert sheet.status == ScoreSheet.Status.SIGNED and sheet.signed_by is None
        assert sheet.results.count() == 4
        standings = phones["Ben"][0]
        standings.goto(f"{live_server.url}/t/lighthouse-open/standings/")
        expect(standings.locator('tr[data-name="Ana"] .total')).to_have_text("26.0")
        screenshot(dai, "player-sheet-confirmed")

    for _, seen in phones.values():
        violations += seen
    assert violations == []
