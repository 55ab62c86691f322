"""The header on a phone: the tournament's name and one "Menu" button; the tabs, the user and their
role, the language and "Sign out" (or "Staff sign in") folded into the menu (docs/pages.md, "The
header").

At 360 x 740 and 390 x 844, in English, German, Russian and Japanese, for an organiser (every staff
link), a referee and a public visitor: the header is folded and at most ``PHONE_HEADER`` px tall; from
the keyboard alone, Tab reaches the menu button, Enter opens it, Tab then reaches every link and control
of the menu in order, each with a name a screen reader reads, and Escape folds it again with the focus
back on the button; the open menu has nothing cut or overlapping (``layout_problems``). On a desktop
(1366 px) nothing is folded: no button, every link in view. ``-s`` prints each header's height.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.browser.conftest import layout_problems, log_in
from tests.conftest import make_user
from tournament.models import Tournament

LANGUAGES = ["en", "de", "ru", "ja"]
PHONES = [(360, 740), (390, 844)]
DESKTOP = (1366, 768)
SLUG = "harbour-header"
# A folded header: the name on one line (two where a long name needs them) beside the menu button.
PHONE_HEADER = 64

# The header's height, whether it is folded, the menu's links and controls in the document's order (each
# with the name a screen reader reads: its text, its label's or its aria-label).
MEASURE = """() => {
  const header = document.querySelector("header.site");
  const toggle = header.querySelector("[data-menu-toggle]");
  const shown = (el) => el.getBoundingClientRect().width > 0 && getComputedStyle(el).visibility !== "hidden";
  const name = (el) => (el.getAttribute("aria-label") || (el.labels && el.labels[0] && el.labels[0].innerText)
    || el.innerText || "").trim().replace(/\\s+/g, " ");
  const focusable = [...header.querySelectorAll("a[href], button, select, input:not([type=hidden])")]
    .filter((el) => !el.closest("[hidden]") && getComputedStyle(el).display !== "none");
  return {
    height: Math.round(header.getBoundingClientRect().height),
    folded: Boolean(toggle && shown(toggle)),
    controls: focusable.filter((el) => el !== toggle && !el.closest(".bar > .brand, .brand"))
      .map((el) => ({tag: el.tagName, name: name(el), href: el.getAttribute("href") || ""})),
  };
}"""
ACTIVE = """() => {
  const el = document.activeElement;
  return {href: el.getAttribute("href") || "", tag: el.tagName,
          name: (el.getAttribute("aria-label") || el.innerText || "").trim(),
          inMenu: Boolean(el.closest("[data-menu]")), isToggle: el.matches("[data-menu-toggle]")};
}"""


@pytest.fixture
def harbour(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2026",
        slug=SLUG,
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 4),
        hanchan_count=6,
    )
    make_user("organiser-with-a-long-name", tournament, "organiser")
    make_user("referee", tournament, "referee")
    return tournament


def tab_until(page: Any, wanted: str, limit: int = 40) -> dict[str, Any]:
    """Presses Tab until the focus is on ``wanted`` ("toggle"), returning what has it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        active = page.evaluate(ACTIVE)
        if wanted == "toggle" and active["isToggle"]:
            return dict(active)
    raise AssertionError(f"Tab never reached the {wanted}")


def walk_the_menu(page: Any) -> list[dict[str, Any]]:
    """From the menu button, Enter opens the menu and Tab goes through it: what the focus reached, in
    order, until it leaves the menu."""
    page.keyboard.press("Enter")
    assert page.get_attribute("[data-menu-toggle]", "aria-expanded") == "true"
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        active = page.evaluate(ACTIVE)
        if not active["inMenu"]:
            break
        reached.append(active)
    return reached


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_header_folds_on_a_phone_and_every_link_is_reached_from_the_keyboard(
    new_context: Any, live_server: Any, harbour: Tournament
) -> None:
    heights: dict[str, int] = {}
    problems: list[str] = []
    visitors = [
        ("organiser", "organiser-with-a-long-name", f"/t/{SLUG}/manage/"),
        ("referee", "referee", f"/t/{SLUG}/referee/"),
        ("public", "", f"/t/{SLUG}/standings/"),
    ]
    for language in LANGUAGES:
        for who, username, path in visitors:
            context = new_context(viewport={"width": 390, "height": 844})
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
            page = context.new_page()
            if username:
                log_in(page, live_server, username, "pw-for-tests-only", path)
            else:
                page.goto(live_server.url + path)
            for width, height in PHONES:
                where = f"{language} {who} at {width}x{height}"
                page.set_viewport_size({"width": width, "height": height})
                page.reload()
                measured = page.evaluate(MEASURE)
                heights[where] = measured["height"]
                if measured["height"] > PHONE_HEADER:
                    problems.append(
                        f"{where}: the header is {measured['height']} px tall (at most {PHONE_HEADER})"
                    )
                if not measured["folded"]:
                    problems.append(f"{where}: not folded")
                    continue
                unnamed = [c for c in measured["controls"] if not c["name"]]
                if unnamed:
                    problems.append(f"{where}: no name for {unnamed}")
                page.locator("body").focus()
                page.evaluate("document.activeElement.blur()")
                toggle = tab_until(page, "toggle")
                if not toggle["name"]:
                    problems.append(f"{where}: the menu button has no name")
                reached = walk_the_menu(page)
                expected = [(c["tag"], c["href"]) for c in measured["controls"]]
                got = [(r["tag"], r["href"]) for r in reached]
                if got != expected:
                    problems.append(f"{where}: Tab reached {got}, the menu holds {expected}")
                problems += [f"{where}, open: {p}" for p in layout_problems(page)]
                page.keyboard.press("Shift+Tab")
                page.keyboard.press("Escape")
                if page.get_attribute("[data-menu-toggle]", "aria-expanded") != "false":
                    problems.append(f"{where}: Escape left the menu open")
                if not page.evaluate(ACTIVE)["isToggle"]:
                    problems.append(f"{where}: after Escape the focus is not on the menu button")
                if page.evaluate(MEASURE)["height"] != measured["height"]:
                    problems.append(f"{where}: folded again, the header changed height")
            # A desktop: nothing folded, every link in view.
            page.set_viewport_size(dict(zip(("width", "height"), DESKTOP, strict=True)))
            page.reload()
            measured = page.evaluate(MEASURE)
            if measured["folded"]:
                problems.append(f"{language} {who} at {DESKTOP[0]} px: folded")
            hidden = page.evaluate(
                "() => [...document.querySelectorAll('header.site a[href], header.site button')]"
                ".filter((el) => !el.matches('[data-menu-toggle], [data-language-submit]')"
                " && !el.getBoundingClientRect().width).map((el) => el.innerText)"
            )
            if hidden:
                problems.append(f"{language} {who} at {DESKTOP[0]} px: hidden {hidden}")
            context.close()
    print("\nheader heights (px):", ", ".join(f"{where} {h}" for where, h in heights.items()))
    assert not problems, "\n".join(problems)
