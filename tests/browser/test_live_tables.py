"""The live tables page in Chromium against a real uvicorn server: each hand a referee saves reaches the
page within a moment over the live stream (the poll runs every 30 s while the stream is open, so only
the push can be that quick): the running points, the riichi stick and the honba, then the next hand;
with Redis unreachable, the poll brings them; no policy violation."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.asgi_server import running_server
from tests.browser.conftest import PHONE, wait_until
from tests.browser.test_content_security import watch
from tests.own_redis import free_port
from tests.scoring.hanchan import OUTCOMES
from tests.tournament.test_club_sessions import make_session
from tournament import services
from tournament.models import Player


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_each_hand_saved_is_pushed_to_the_live_tables_page(
    new_context: Any, live_cup: dict[str, Any]
) -> None:
    table, referee = live_cup["table"], live_cup["referee"]
    with running_server(log_name="live-tables-browser.log") as server:
        page = new_context(viewport=PHONE).new_page()
        violations = watch(page)
        page.goto(f"{server.url}/t/live-cup/tables/")
        card = page.locator('article[data-table="1"]')
        expect(card.locator("[data-hand]")).to_have_text("East 1")
        expect(card.locator(".facts")).to_have_text("0 hands played · no entry yet")
        expect(card.locator("[data-points]").first).to_have_text("30,000")
        wait_until(page, "window.Riichi.live && window.Riichi.live.connected")
        polls: list[str] = []
        page.on("request", lambda r: polls.append(r.url) if "tables.json" in r.url else None)

        sheet = sheets.save_sheet(table, {"form": "hands", "hands": OUTCOMES[:3]}, referee)

        # After hand 3: East 4, 1 honba; Dai's riichi stick on the table.
        expect(card.locator("[data-hand]")).to_have_text("East 4 · 1 honba", timeout=3000)
        expect(card.locator("[data-points]")).to_have_text(["31,200", "30,000", "27,600", "30,200"])
        expect(card.locator(".facts")).to_contain_text("1 riichi stick · 3 hands played")

        sheets.save_sheet(
            table, {"form": "hands", "hands": OUTCOMES[:4]}, referee, expected_version=sheet.version
        )

        # The dealer Dai wins and keeps the deal: 2 honba, the stick taken.
        expect(card.locator("[data-hand]")).to_have_text("East 4 · 2 honba", timeout=3000)
        expect(card.locator("[data-points]")).to_have_text(["27,000", "30,000", "27,600", "35,400"])
        assert polls == []  # pushed, not fetched
        assert violations == [], "\n".join(violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_with_redis_unreachable_the_live_tables_page_polls(
    new_context: Any, live_cup: dict[str, Any]
) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with running_server({"REDIS_URL": nowhere}, log_name="live-tables-browser-no-redis.log") as server:
        page = new_context(viewport=PHONE).new_page()
        violations = watch(page)
        with page.expect_response(lambda r: r.url.endswith("/live")) as stream:
            page.goto(f"{server.url}/t/live-cup/tables/")
        card = page.locator('article[data-table="1"]')
        expect(card.locator("[data-hand]")).to_have_text("East 1")
        assert stream.value.status == 503  # the stream said no, clearly
        assert page.evaluate("window.Riichi.live.connected") is False

        sheets.save_sheet(live_cup["table"], {"form": "hands", "hands": OUTCOMES[:3]}, live_cup["referee"])

        expect(card.locator("[data-hand]")).to_have_text("East 4 · 1 honba", timeout=8000)  # the 5 s poll
        expect(card.locator("[data-points]")).to_have_text(["31,200", "30,000", "27,600", "30,200"])
        assert violations == [], "\n".join(violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_club_session_shows_every_table_in_play(new_context: Any, live_server: Any) -> None:
    """A club session's tables are each a hanchan of their own: the live tables page and the projector
    show both in play, named by their hanchan, not only the oldest."""
    session = make_session("club-tables-browser")
    for name in ("Hal", "Ivy"):
        session.players[name] = Player.objects.create(
            tournament=session.tournament, name=name, status=Player.Status.CHECKED_IN
        )
    organiser = session.organiser
    services.form_table(session.tournament, organiser, session.ids("Ana", "Ben", "Cho", "Dai"))
    services.form_table(session.tournament, organiser, session.ids("Eve", "Fay", "Hal", "Ivy"))
    page = new_context(viewport=PHONE).new_page()
    violations = watch(page)
    for path in ("tables/", "projector/tables/"):
        page.goto(f"{live_server.url}/t/{session.tournament.slug}/{path}")
        expect(page.locator("article.live-table h2")).to_have_text(["Hanchan 1", "Hanchan 2"])
        expect(page.locator("[data-tables-summary]")).to_have_text("2 of 2 tables playing")
        expect(page.locator('article[data-round="2"] .name')).to_have_text(["Eve", "Fay", "Hal", "Ivy"])
    assert violations == [], "\n".join(violations)
