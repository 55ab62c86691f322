"""A referee on a phone enters a hand-by-hand sheet with one mistake, sees the rules engine's error
beside the hand, fixes it, submits and signs; meanwhile the live standings in another browser change by
themselves within 5 seconds."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from scoring.rules.ruleset import get_ruleset
from scoring.rules.scores import format_score, table_scores
from tests.browser.conftest import DESKTOP, PHONE, log_in, wait_for_path
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Tournament
from tournament.templatetags.scores import score

PASSWORD = "pw-for-tests-only"
# Hand 1: Ben rons Cho for 2 han 30 fu; hand 2: Cho declares riichi and wins by tsumo, 1 han 30 fu.
AFTER_TWO_HANDS = {"Ana": 29700, "Ben": 31500, "Cho": 29100, "Dai": 29700}


@pytest.fixture
def open_table(transactional_db: None) -> dict[str, Any]:
    tournament = Tournament.objects.create(
        name="Harbour Open",
        slug="harbour-open",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=4,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    first = [Player.objects.create(tournament=tournament, name=n) for n in ("Ana", "Ben", "Cho", "Dai")]
    second = [Player.objects.create(tournament=tournament, name=n) for n in ("Eve", "Fay", "Gus", "Hal")]
    seat_table(round_, 1, first)
    signed = seat_table(round_, 2, second)
    following = Round.objects.create(tournament=tournament, number=2, status=Round.Status.SEATED)
    seat_table(following, 1, [first[0], first[2], second[0], second[2]])
    seat_table(following, 2, [first[1], first[3], second[1], second[3]])
    referee = make_user("referee", tournament, "referee")
    points = {"form": "final", "final_points": {"Eve": 41000, "Fay": 31000, "Gus": 26000, "Hal": 22000}}
    sheets.sign_sheet(sheets.save_sheet(signed, points, referee, submit=True), referee)
    return {"tournament": tournament, "referee": referee}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_referee_enters_fixes_submits_and_signs_while_standings_update_live(
    new_context: Any, live_server: Any, open_table: dict[str, Any], screenshot: Any
) -> None:
    base = f"{live_server.url}/t/harbour-open"
    expected = table_scores(AFTER_TWO_HANDS, get_ruleset("WRC2015"))[2]
    ben_total = score(format_score(expected["Ben"]))  # as a column shows it, one decimal: "-15.0"

    # A player follows the standings on a big screen: no result for table 1 yet.
    public = new_context(viewport=DESKTOP)
    standings = public.new_page()
    standings.goto(f"{base}/standings/")
    expect(standings.locator("[data-summary]")).to_contain_text("waiting for table 1")
    # Hanchan 1 is being played (a table has signed) without anyone starting its clock: no time shown.
    expect(standings.locator(".clock-bar [data-clock-state]")).to_have_text("in play, no clock")
    expect(standings.locator(".clock-bar [data-clock-time]")).to_have_text("")
    expect(standings.locator('tr[data-name="Ben"] .total')).to_have_text("0.0")
    standings.evaluate("window.notReloaded = true")

    # The referee, on a phone.
    phone = new_context(viewport=PHONE, has_touch=True)
    page = phone.new_page()
    log_in(page, live_server, "referee", PASSWORD, "/t/harbour-open/referee/")
    page.get_by_role("link", name="Enter the sheet").click()
    wait_for_path(page, "*/sheet/1/1/")

    hand = page.locator('[data-hand="1"]')
    hand.get_by_label("Ben wins from Cho").check()
    hand.get_by_label("1 han", exact=True).check()
    hand.get_by_label("20 fu", exact=True).check()  # the mistake: a ron is never 20 fu
    errors = hand.locator("[data-hand-errors] li")
    expect(errors).to_have_count(1)
    expect(errors).to_contain_text("hand 1 (East 1, 0 honba): 1 han 20 fu is not a legal ron")
    expect(hand).to_have_class(re.compile(r"\binvalid\b"))
    expect(page.locator("[data-verdict]")).to_contain_text("1 problem to correct")
    screenshot(page, "referee-sheet-error")

    hand.get_by_label("2 han", exact=True).check()
    hand.get_by_label("30 fu", exact=True).check()
    expect(errors).to_have_count(0)
    expect(hand.locator("[data-running]")).to_contain_text("Ben 32,000")

    second = page.locator('[data-hand="2"]')  # the next hand is open and empty
    second.get_by_label("Cho wins by tsumo").check()
    second.get_by_label("1 han", exact=True).check()
    expect(second.get_by_label("30 fu", exact=True)).to_be_checked()  # 30 fu unless changed
    second.get_by_role("group", name="Riichi").get_by_role("button", name="Cho").click()
    page.get_by_label("The time limit ended the hanchan").check()
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    expect(second.locator("[data-running]")).to_contain_text("Cho 29,100")
    screenshot(page, "referee-sheet-entry")

    page.get_by_role("button", name="Submit", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Submitted (version 1)")
    page.get_by_role("button", name="Sign version 1").click()
    expect(page.locator(".messages")).to_contain_text("Signed. The standings are updated.")
    screenshot(page, "referee-sheet-signed")

    # Within 5 seconds, without a reload, the standings show the new totals.
    expect(standings.locator('tr[data-name="Ben"] .total')).to_have_text(ben_total, timeout=5000)
    # Its last table signed, hanchan 1 is over (no one ran its clock): the standings are after it.
    expect(standings.locator("[data-summary]")).to_have_text("After hanchan 1")
    assert standings.evaluate("window.notReloaded") is True
    standings.locator('tr[data-name="Ben"] button.star').click()
    expect(standings.locator('tr[data-name="Ben"]')).to_have_class(re.compile(r"\bme\b"))
    screenshot(standings, "standings")

    # The other public pages, on a phone, for people to look at.
    viewer = new_context(viewport=PHONE)
    look = viewer.new_page()
    look.goto(f"{base}/")
    expect(look.locator("h1")).to_have_text("Harbour Open")
    screenshot(look, "home")
    ben = open_table["tournament"].players.get(name="Ben")
    look.goto(f"{base}/players/{ben.pk}/")
    expect(look.locator("svg.chart").first).to_be_visible()
    expect(look.locator("svg.points-chart")).to_be_visible()
    screenshot(look, "player")
    projector = public.new_page()
    projector.goto(f"{base}/projector/")
    expect(projector.locator("[data-clock-round]")).to_have_text("2")  # the next hanchan's clock
    expect(projector.locator("[data-clock-time]")).to_have_text("1:30:00")
    screenshot(projector, "projector", full_page=False)
