"""The sheet editor on a phone under an online preset: the referee taps "Abortive draw" and its kind, then
"Nagashi" with its player and the tenpai dealer, and the engine accepts both; under WRCR 2015 the editor
offers neither (a hand kept on the phone from before shows the engine's refusal). Nothing cut or
overlapping at 360 px (``layout_problems``)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.browser.conftest import layout_problems, log_in, wait_until
from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Tournament

SHEET = "/t/online-open/sheet/1/1/"
CHECKED = "!document.querySelector('[data-verdict].wait')"
PHONE = {"width": 360, "height": 780}


@pytest.fixture
def online(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Online Open",
        slug="online-open",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
        ruleset_preset="TENHOU",
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [
        Player.objects.create(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    seat_table(round_, 1, players)
    make_user("referee", tournament, "referee")
    return tournament


def test_the_editor_offers_and_checks_abortive_draws_and_nagashi_only_under_the_online_rules(
    new_context: Any, live_server: Any, online: Tournament, screenshot: Any
) -> None:
    page = new_context(viewport=PHONE, has_touch=True).new_page()
    log_in(page, live_server, "referee", "pw-for-tests-only", SHEET)
    first = page.locator("[data-hand='1']")
    first.locator("label:has([data-result-choice=abortive])").click()
    first.locator("[data-abortive-kind] label:has(input[value=nine-terminals])").click()
    second = page.locator("[data-hand='2']")
    second.locator("label:has([data-result-choice=nagashi])").click()
    second.locator("[data-nagashi] button", has_text="Cho").click()
    second.locator("[data-tenpai] button", has_text="Ana").click()
    page.wait_for_timeout(400)  # the editor checks 300 ms after the last change
    wait_until(page, CHECKED)
    assert page.locator("[data-verdict]").get_attribute("class") == "verdict ok", page.locator(
        "[data-verdict]"
    ).inner_text()
    # The kind is named in words, not as the engine's identifier.
    assert "nine different terminals and honours" in first.inner_text()
    # On a screen as tall as the page (as tests/browser/test_sheet_phone.py looks), so that the sticky save
    # bar sits below the hands rather than over them.
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": PHONE["width"], "height": max(height, PHONE["height"])})
    page.wait_for_timeout(100)
    assert layout_problems(page) == []
    screenshot(page, "online-outcomes-phone")  # for people to look at (not committed)
    # "Nagashi mangan" is read on one line, not broken into the narrow column "Tenpai" fits in.
    label = second.locator("[data-nagashi] > .field-label")
    lines = "node => { const range = document.createRange(); range.selectNodeContents(node); "
    lines += "return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size; }"
    assert label.evaluate(lines) == 1

    # The same phone, the tournament's rules now WRCR 2015: the hands kept on the phone come back, each
    # with the engine's refusal beside it; a new hand offers neither outcome.
    Tournament.objects.filter(pk=online.pk).update(ruleset_preset="WRC2015")
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + SHEET)
    wait_until(page, "document.querySelector(\"[data-hand='3'] [data-result-choice=ron]\")")
    # The phone's entry is checked again under the new rules; its refusals come beside the hands.
    wait_until(page, "document.querySelector(\"[data-hand='2'] [data-hand-errors]\").textContent.length > 0")
    assert "WRC2015 has no abortive draws" in first.locator("[data-hand-errors]").inner_text()
    assert "WRC2015 has no nagashi mangan" in second.locator("[data-hand-errors]").inner_text()
    third = page.locator("[data-hand='3']")
    assert third.locator("[data-result-choice=abortive], [data-result-choice=nagashi]").count() == 0
