"""A whole total shows as "78.0" (in German "78,0") and a negative one as "-12.0", in the rows the server
renders and in the rows the live standings script draws (``Riichi.score`` beside the ``score`` filter)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets

# Under the WRC rules (30,000 at the start and back, uma 15, 5, -5, -15): 93,000 is 78, 13,000 is -12.
FINAL = {"Ana": 93000, "Ben": 13000, "Cho": 10000, "Dai": 4000}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_whole_and_negative_totals_show_one_decimal_drawn_and_rendered(
    new_context: Any, live_server: Any, live_cup: dict[str, Any]
) -> None:
    base = f"{live_server.url}/t/live-cup"
    pages = {}
    for language in ("en", "de"):
        context = new_context(viewport={"width": 390, "height": 844})
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        pages[language] = context.new_page()
        pages[language].goto(f"{base}/standings/")
        pages[language].evaluate("window.notReloaded = true")
    expect(pages["en"].locator('tr[data-name="Ana"] .total')).to_have_text("0.0")
    expect(pages["de"].locator('tr[data-name="Ana"] .total')).to_have_text("0,0")

    entry = {"form": "final", "final_points": FINAL, "riichi_sticks_left": 0}
    referee = live_cup["referee"]
    sheets.sign_sheet(sheets.save_sheet(live_cup["table"], entry, referee, submit=True), referee)

    for language, (whole, negative) in {"en": ("78.0", "-12.0"), "de": ("78,0", "-12,0")}.items():
        page = pages[language]
        # Drawn by the script, without a reload.
        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text(whole, timeout=8000)
        expect(page.locator('tr[data-name="Ben"] .total')).to_have_text(negative)
        assert page.evaluate("window.notReloaded") is True
        # Rendered by the server, the same.
        page.reload()
        expect(page.locator('tr[data-name="Ana"] .total')).to_have_text(whole)
        expect(page.locator('tr[data-name="Ben"] .total')).to_have_text(negative)
        page.goto(f"{base}/projector/")
        expect(page.locator('[data-name="Ana"] .total').first).to_have_text(whole)
        expect(page.locator('[data-name="Ben"] .total').first).to_have_text(negative)
