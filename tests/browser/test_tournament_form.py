"""The new-tournament form in a browser, on the narrowest phone (360 px) and a laptop (1366 px): its
parts fit (``layout_problems``), the address follows the name as it is typed until the organiser edits
it, and the venue time zone is the browser's. The site admins' invitation page, with its long link,
fits the phone too. Screenshots go to tests/artifacts/tournament-form/ (not committed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import layout_problems, log_in, shoot
from tournament import services

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "tournament-form"
PASSWORD = "pw-for-tests-only"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "zone"), [(360, "Asia/Tokyo"), (1366, "America/Sao_Paulo")])
def test_the_address_follows_the_name_and_the_time_zone_is_the_browsers(
    new_context: Any, live_server: Any, width: int, zone: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    services.make_organiser("mei", password=PASSWORD)
    context = new_context(viewport={"width": width, "height": 800}, timezone_id=zone)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    log_in(page, live_server, "mei", PASSWORD, "/tournaments/new/")
    assert page.input_value("#id_time_zone") == zone
    page.type("#id_name", "Café de Paris Open")
    assert page.input_value("#id_slug") == "cafe-de-paris-open"
    if width == 1366:  # the organiser's handbook shows the form as it starts
        shoot(page, SHOTS / "named-1366.png", full_page=True)
    page.fill("#id_slug", "paris")
    page.press("#id_name", "End")
    page.keyboard.type(" 2027")
    assert page.input_value("#id_name") == "Café de Paris Open 2027"
    assert page.input_value("#id_slug") == "paris"  # edited by hand: no longer follows
    for field in ("#id_separate_teams", "#id_ruleset_preset"):  # each in a folded part: opened
        page.locator("details[data-part-fold]", has=page.locator(field)).locator(":scope > summary").click()
    assert page.is_disabled("#id_separate_teams")
    page.select_option("#id_separate_teams_rule", "from")
    assert not page.is_disabled("#id_separate_teams")
    page.select_option("#id_ruleset_preset", "EMA2016")
    shoot(page, SHOTS / f"new-{width}.png", full_page=True)
    assert layout_problems(page) == []
    assert errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_invitation_and_its_link_fit_the_narrowest_phone(new_context: Any, live_server: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    page = new_context(viewport={"width": 360, "height": 780}).new_page()
    log_in(page, live_server, "root", PASSWORD, "/organisers/invite/")
    page.fill("#id_email", "maximilian.schwarzenberger@example.org")
    page.click("button[type=submit].primary")
    link = page.text_content("[data-invitation-link]") or ""
    assert "/accounts/set-password/" in link
    shoot(page, SHOTS / "invite-360.png", full_page=True)
    assert layout_problems(page) == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_needed_fields_come_first_and_an_invalid_submit_leads_to_each_error(
    new_context: Any, live_server: Any
) -> None:
    services.make_organiser("mei", password=PASSWORD)
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(page, live_server, "mei", PASSWORD, "/tournaments/new/")
    first = page.locator("fieldset[data-part]").first
    assert first.get_attribute("data-part") == "needed"
    for field in ("#id_name", "#id_starts_on", "#id_ends_on", "#id_hanchan_count"):
        assert page.locator(field).is_visible(), field  # in view without opening anything
    assert not page.locator("#id_time_zone").is_visible()  # the rest folded
    page.fill("#id_name", "Harbour Open")
    page.fill("#id_starts_on", "2027-05-02")
    page.fill("#id_ends_on", "2027-05-01")  # before the first day
    page.fill("#id_hanchan_count", "8")
    page.locator("details[data-part-fold]", has=page.locator("#id_rule_uma_1")).first.locator(
        ":scope > summary"
    ).click()
    page.fill("#id_rule_uma_1", "20")  # one place's uma only: the other three are asked for
    page.click("button[type=submit].primary")
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    box = summary.bounding_box()
    assert box is not None and 0 <= box["y"] < 844  # in view, at the top
    links = summary.locator("a")
    assert links.count() >= 2
    uma = summary.locator("a[href='#id_rule_uma_2']")
    assert page.locator("#id_rule_uma_2").is_visible()  # its part opened, as it holds an error
    page.evaluate("document.querySelectorAll('details[data-part-fold]').forEach((d) => { d.open = false; })")
    uma.click()
    expect(page.locator("#id_rule_uma_2")).to_be_focused()
    summary.locator("a[href='#id_ends_on']").click()
    expect(page.locator("#id_ends_on")).to_be_focused()
    assert layout_problems(page) == []
