"""Signing in: the login page, redirects, and failed attempts limited per address and user name.

The limits at every door (admin, API token) and behind a proxy: tests/api/test_login_limits.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory

from config import auth
from tests.pages.conftest import PASSWORD, Site


def attempt(client: Client, username: str, password: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password})


@pytest.mark.django_db
def test_login_then_back_to_the_page_asked_for(site: Site) -> None:
    client = Client()
    asked = client.get("/t/test-open/referee/")
    assert asked.status_code == 302
    response = client.post(
        asked["Location"], {"username": "referee", "password": PASSWORD, "next": "/t/test-open/referee/"}
    )
    assert response.status_code == 302 and response["Location"] == "/t/test-open/referee/"
    assert client.get("/t/test-open/referee/").status_code == 200


@pytest.mark.django_db
def test_five_failures_close_the_window_even_for_the_right_password(site: Site) -> None:
    client = Client()
    for _ in range(auth.MAX_FAILURES):
        response = attempt(client, "referee", "wrong")
        assert (
            response.status_code == 200
            and b"Please enter a correct username and password" in response.content
        )
    refused = attempt(client, "referee", PASSWORD)
    assert refused.status_code == 429
    assert b"Too many failed sign-in attempts for this user name. Try again in 10 minutes." in refused.content
    assert "_auth_user_id" not in client.session
    # Another user name from the same address is not blocked, nor the same name from another address.
    assert attempt(Client(), "organiser", PASSWORD).status_code == 302
    assert attempt(Client(REMOTE_ADDR="203.0.113.9"), "referee", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_window_reopens_after_ten_minutes(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    for _ in range(auth.MAX_FAILURES):
        attempt(client, "REFEREE ", "wrong")  # the name is counted case- and space-insensitively
    assert attempt(client, "referee", PASSWORD).status_code == 429
    real_time = auth.time.time
    monkeypatch.setattr(auth.time, "time", lambda: real_time() + 9 * 60)
    assert b"Try again in 1 minute." in attempt(client, "referee", PASSWORD).content
    # The counts live in the cache (and the process's memory) only for the window: once they expire,
    # signing in works again.
    request = RequestFactory().post("/accounts/login/")
    for key in auth._keys(request, "referee"):
        for store in auth.STORES:
            store.delete_many([key, f"{key}:start"])
    assert attempt(client, "referee", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_a_successful_login_clears_earlier_failures(site: Site) -> None:
    client = Client()
    for _ in range(auth.MAX_FAILURES - 1):
        attempt(client, "referee", "wrong")
    assert attempt(client, "referee", PASSWORD).status_code == 302
    client.logout()
    for _ in range(auth.MAX_FAILURES - 1):
        attempt(client, "referee", "wrong")
    assert attempt(client, "referee", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_login_and_logout_forms_carry_a_csrf_token(site: Site) -> None:
    client = Client(enforce_csrf_checks=True)
    assert attempt(client, "referee", PASSWORD).status_code == 403
    page = client.get("/accounts/login/")
    assert b"csrfmiddlewaretoken" in page.content
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/", {"username": "referee", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert client.post("/accounts/logout/").status_code == 403
