"""The live standings in Chromium against a real uvicorn server: pushed over Server-Sent Events within a
moment of the signature (the poll runs every 30 s while the stream is open, so only the push can be
that quick), and, with Redis unreachable, refreshed by the poll as before; no policy violation."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.asgi_server import running_server
from tests.browser.conftest import DESKTOP, wait_until
from tests.browser.test_content_security import watch
from tests.own_redis import free_port
from tournament.models import Series

# The animations running on the page and the changes to its document over a second: the first quiet
# second of up to five (an event the stream sends as it opens may still be painting), else the last one.
IDLE_FOR_A_SECOND = """() => new Promise((done) => {
    let tries = 0;
    const window = () => {
        const seen = [];
        const observer = new MutationObserver((records) => seen.push(...records));
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        setTimeout(() => {
            observer.disconnect();
            const found = { animations: document.getAnimations().length, mutations: seen.length };
            tries += 1;
            if ((found.animations === 0 && found.mutations === 0) || tries === 5) done(found);
            else window();
        }, 1000);
    };
    window();
})"""
FINAL = {"Ana": 41000, "Ben": 31000, "Cho": 26000, "Dai": 22000}  # Ana: +11 and 15 uma


def sign(live_cup: dict[str, Any]) -> None:
    entry = {"form": "final", "final_points": FINAL, "riichi_sticks_left": 0}
    referee = live_cup["referee"]
    sheets.sign_sheet(sheets.save_sheet(live_cup["table"], entry, referee, submit=True), referee)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_standings_are_pushed_to_the_page(new_context: Any, live_cup: dict[str, Any]) -> None:
    with running_server(log_name="live-browser.log") as server:
        page = new_context(viewport=DESKTOP).new_page()
        violations = watch(page)
        page.goto(f"{server.url}/t/live-cup/standings/")
        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text("0.0")
        wait_until(page, "window.Riichi.live && window.Riichi.live.connected")
        # With the stream open the next poll is 30 s away: any request from now on is a poll it caused.
        polls: list[str] = []
        page.on("request", lambda r: polls.append(r.url) if "standings.json" in r.url else None)
        # While nothing changes the page draws nothing: no animation runs (the live dot pulsed for ever,
        # 0.1 CPU-s a second in Chromium) and nothing in the document is written (the clock's four
        # paints a second wrote the same text again): a quiet second comes within five.
        assert page.evaluate(IDLE_FOR_A_SECOND) == {"animations": 0, "mutations": 0}

        sign(live_cup)

        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text("26.0", timeout=3000)
        # The new figures make the dot beat, twice, and then it is still again.
        expect(page.locator(".live-dot.beat")).to_have_count(1)
        expect(page.locator(".live-dot.beat")).to_have_count(0, timeout=5000)
        expect(page.locator("[data-summary]")).to_have_text("After hanchan 1")  # its last table: it is over
        assert polls == []  # pushed, not fetched
        assert page.evaluate("window.Riichi.live.connected") is True
        assert violations == [], "\n".join(violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_with_redis_unreachable_the_page_polls(new_context: Any, live_cup: dict[str, Any]) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with running_server({"REDIS_URL": nowhere}, log_name="live-browser-no-redis.log") as server:
        page = new_context(viewport=DESKTOP).new_page()
        violations = watch(page)
        with page.expect_response(lambda r: r.url.endswith("/live")) as stream:
            page.goto(f"{server.url}/t/live-cup/standings/")
        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text("0.0")
        assert stream.value.status == 503  # the stream said no, clearly
        assert page.evaluate("window.Riichi.live.connected") is False

        sign(live_cup)

        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text("26.0", timeout=6000)  # the poll
        assert violations == [], "\n".join(violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_series_projector_is_pushed_its_standings(new_context: Any, live_cup: dict[str, Any]) -> None:
    """The Live Cup in a series: its projector paints the series' standings from its own stream, without
    reloading (a mark left on the page stays), once the sheet is signed."""
    series = Series.objects.create(name="Live Season", slug="live-season")
    series.tournaments.set([live_cup["table"].round.tournament])
    with running_server(log_name="live-browser-series.log") as server:
        page = new_context(viewport=DESKTOP).new_page()
        violations = watch(page)
        page.goto(f"{server.url}/series/live-season/projector/")
        expect(page.locator('tr[data-name="Ana"] .score')).to_have_text("0.0")  # nothing signed yet
        wait_until(page, "window.Riichi.live && window.Riichi.live.connected")
        page.evaluate("window.notReloaded = true")

        sign(live_cup)

        # Ana 41,000: +11 and the 1st place's uma 15 = 26; Ben 31,000: +1 + 5 = 6; Cho -4 - 5 = -9;
        # Dai -8 - 15 = -23.
        expect(page.locator('tr[data-name="Ana"] .score')).to_have_text("26.0", timeout=3000)
        expect(page.locator("[data-series-projector] tbody tr")).to_have_count(4)
        assert page.locator("[data-series-projector] tbody tr td.score").all_text_contents() == [
            "26.0",
            "6.0",
            "-9.0",
            "-23.0",
        ]
        assert page.locator('tr[data-name="Dai"] .score.negative').count() == 1
        assert page.evaluate("window.notReloaded") is True  # painted, not reloaded
        assert violations == [], "\n".join(violations)
