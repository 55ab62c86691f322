"""The Content-Security-Policy (config.security) against real pages in Chromium: every page of each
audience, the exports page's script (a static file now), the admin, and the API's Swagger UI and Redoc
load and work with no policy violation reported by the browser."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, log_in, wait_for_path
from tests.conftest import make_players, make_user
from tournament.models import Tournament

PASSWORD = "pw-for-tests-only"


@pytest.fixture
def cup(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Winter Cup",
        slug="winter-cup",
        starts_on=date(2026, 12, 5),
        ends_on=date(2026, 12, 5),
        hanchan_count=4,
    )
    make_players(tournament, 8)
    make_user("organiser", tournament, "organiser")
    admin = make_user("admin")
    admin.is_superuser = admin.is_staff = True
    admin.save()
    return tournament


def watch(page: Any) -> list[str]:
    """Every policy violation the page reports (the browser's console and the DOM's event)."""
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    return violations


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pages_docs_and_admin_work_under_the_policy(
    new_context: Any, live_server: Any, cup: Tournament
) -> None:
    page = new_context(viewport=DESKTOP, service_workers="allow").new_page()  # the worker too
    violations = watch(page)
    for path in ("/", "/t/winter-cup/", "/t/winter-cup/standings/", "/t/winter-cup/players/"):
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert "'unsafe-inline'" not in response.headers["content-security-policy"]

    log_in(page, live_server, "organiser", PASSWORD, "/t/winter-cup/exports/")
    row = page.locator("tr", has=page.locator("form[data-exporter=standings_csv]"))
    row.get_by_role("button", name="Export").click()  # exports.js: no page load, a link when done
    expect(row.get_by_role("link", name="Download")).to_be_visible(timeout=20_000)
    assert page.url.endswith("/t/winter-cup/exports/")
    for path in ("/t/winter-cup/manage/", "/t/winter-cup/manage/players/", "/t/winter-cup/clock/"):
        assert page.goto(live_server.url + path).status == 200, path

    page.goto(live_server.url + "/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Riichi tournament manager API")
    page.goto(live_server.url + "/api/redoc/")
    expect(page.locator("h1", has_text="Riichi tournament manager API")).to_be_visible(timeout=20_000)

    page.goto(live_server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    wait_for_path(page, "/admin/")
    page.goto(live_server.url + "/admin/tournament/tournament/")
    expect(page.locator("#result_list")).to_contain_text("Winter Cup")
    assert violations == [], "\n".join(violations)
