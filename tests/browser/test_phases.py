"""Phases in Chromium: the organiser sets a qualifying and a final on the phases page, makes the cut after
seeing who it keeps, seats the final by rank; the public standings name each player's phase, through the
live redraws, under the content security policy."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from tests.browser.conftest import drawn_after, log_in
from tests.browser.test_content_security import watch
from tests.conftest import make_user, seat_table
from tests.standings.test_phase_event import NAMES, QUALIFYING
from tournament.models import Player, Round, Tournament


@pytest.fixture
def played_qualifying(transactional_db: None) -> Tournament:
    """The qualifying of tests/standings/test_phase_event.py, signed; no phases set yet."""
    tournament = Tournament.objects.create(
        name="Final Cup", slug="final-cup", starts_on="2026-09-05", ends_on="2026-09-06", hanchan_count=3
    )
    make_user("organiser", tournament, "organiser")
    referee = make_user("referee", tournament, "referee")
    players = {name: Player.objects.create(tournament=tournament, name=name) for name in NAMES}
    seated = []
    for number, tables in QUALIFYING.items():
        round_ = Round.objects.create(tournament=tournament, number=number, status="finished")
        for index, seats in enumerate(tables, start=1):
            seated.append((seat_table(round_, index, [players[n] for n, _ in seats]), dict(seats)))
    for table, points in seated:
        entry = {"form": "final", "riichi_sticks_left": 0, "final_points": points}
        sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organiser_runs_the_cut_and_the_public_sees_the_phases(
    new_context: Any, live_server: Any, played_qualifying: Tournament, screenshot: Any
) -> None:
    slug = played_qualifying.slug
    page = new_context().new_page()
    violations = watch(page)
    log_in(page, live_server, "organiser", "pw-for-tests-only", f"/t/{slug}/manage/phases/")
    page.fill("#id_phase-0-name", "Qualifying")
    page.fill("#id_phase-0-hanchan", "2")
    page.fill("#id_phase-1-name", "Final")
    page.fill("#id_phase-1-hanchan", "1")
    page.select_option("#id_phase-1-seating", "by_rank")
    page.fill("#id_phase-1-advance", "4")
    page.select_option("#id_phase-1-carry_over", "halve")
    page.get_by_role("button", name="Save the phases").click()
    expect(page.locator(".messages")).to_contain_text("2 phases set: 3 hanchan in all.")
    final = page.locator('section[data-phase="2"]')
    expect(final).to_contain_text("The cut keeps the best 4")
    screenshot(page, "phases-before-the-cut")
    final.get_by_role("button", name="Make the cut into Final").click()
    expect(page.locator(".messages")).to_contain_text("The cut is made: 4 players advance.")
    page.locator('section[data-phase="2"]').get_by_role("button", name="Seat Final by rank").click()
    expect(page.locator(".messages")).to_contain_text("Seated by rank: hanchan 3 to 3.")
    screenshot(page, "phases-seated")

    public = new_context().new_page()
    public.clock.install()  # the page's timers, moved on by the test instead of waited for
    public_violations = watch(public)
    # The rows as the live script draws them from its poll: the phase tags are still there.
    drawn_after(public, "/standings.json", public.goto, f"{live_server.url}/t/{slug}/standings/")
    first = public.locator("[data-rows] tr").first
    expect(first).to_contain_text("Ann")
    expect(first.locator(".phase-tag")).to_have_text("Final")
    drawn_after(public, "/standings.json", public.clock.run_for, 2500)  # and after the next poll
    expect(public.locator("[data-rows] tr").nth(4).locator(".phase-tag")).to_have_text("Qualifying")
    expect(public.locator('[data-phases] details[data-phase="2"]')).to_contain_text("26.5")
    screenshot(public, "standings-phases")

    projector = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector_violations = watch(projector)
    projector.goto(f"{live_server.url}/t/{slug}/projector/")
    first_row = projector.locator(".projector-standings tbody tr").first
    expect(first_row.locator(".name")).to_contain_text("Ann")
    expect(first_row.locator(".phase-tag")).to_have_text("Final")
    # Legible from the back of the hall: WCAG's contrast of the tag's text on its own background (read
    # again if the board was being drawn anew at that moment: a replaced tag has no computed colours).
    tag = first_row.locator(".phase-tag")
    contrast = tag.evaluate(CONTRAST)
    for _ in range(50):
        if contrast is not None:
            break
        projector.wait_for_timeout(100)
        contrast = tag.evaluate(CONTRAST)
    assert contrast is not None and contrast >= 4.5
    assert violations == [] and public_violations == [] and projector_violations == []


# WCAG 2's contrast ratio of an element's text colour on its background colour (both opaque here).
CONTRAST = """(element) => {
  const style = getComputedStyle(element);
  const luminance = (colour) => {
    const parts = colour.match(/[\\d.]+/g);
    if (!parts) return null;
    const [r, g, b] = parts.slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const colours = [luminance(style.color), luminance(style.backgroundColor)];
  if (colours.includes(null)) return null;
  const [light, dark] = colours.sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}"""
