"""The login limits of config.auth at every door: the page (/accounts/login/), the admin (/admin/login/)
and the API's token endpoint. A header written by the client never changes the address counted; failures
are counted per address and user name and per address, never per user name alone, so that nobody
elsewhere can lock the real user out; with TRUSTED_PROXY_COUNT the address comes from our proxy's
X-Forwarded-For."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from config import auth
from tests.api.conftest import PASSWORD, World

A, B, PROXY = "203.0.113.10", "198.51.100.20", "10.0.0.2"


def page_login(username: str, password: str, address: str = A, **headers: str) -> Any:
    client = Client(REMOTE_ADDR=address, headers=headers)
    return client.post("/accounts/login/", {"username": username, "password": password})


def admin_login(username: str, password: str, address: str = A) -> Any:
    client = Client(REMOTE_ADDR=address)
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def token_login(username: str, password: str, address: str = A, **headers: str) -> Any:
    client = APIClient(REMOTE_ADDR=address, headers=headers)
    return client.post("/api/auth/token/", {"username": username, "password": password})


@pytest.mark.django_db
def test_a_forged_forwarded_for_header_does_not_reset_the_token_limit(world: World) -> None:
    """Each try claims another address in X-Forwarded-For: the limits still count REMOTE_ADDR."""
    statuses = [
        token_login(f"user{n}", "wrong", x_forwarded_for=f"192.0.2.{n}").status_code for n in range(12)
    ]
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429, 429]
    # Per name too: 5 failures for "player" (forged headers again), then even the right password is refused.
    for n in range(auth.MAX_FAILURES):
        assert token_login("player", "wrong", B, x_forwarded_for=f"192.0.2.{n}").status_code == 400
    refused = token_login("player", PASSWORD, B, x_forwarded_for="192.0.2.99")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= auth.WINDOW_SECONDS
    assert refused.json() == {
        "errors": [
            {
                "field": None,
                "rule": auth.TOO_MANY,
                "message": "Too many failed sign-in attempts for this user name. Try again in 10 minutes.",
            }
        ]
    }
    # The real user, elsewhere, is not locked out.
    assert "token" in token_login("player", PASSWORD, "192.0.2.200").json()


@pytest.mark.django_db
def test_a_forged_forwarded_for_header_does_not_reset_the_page_limit(world: World) -> None:
    for n in range(auth.MAX_FAILURES):
        assert page_login("player", "wrong", x_forwarded_for=f"192.0.2.{n}").status_code == 200
    assert page_login("player", PASSWORD, x_forwarded_for="192.0.2.99").status_code == 429


@pytest.mark.django_db
def test_failures_from_one_address_do_not_lock_the_user_out_elsewhere(world: World) -> None:
    for _ in range(auth.MAX_FAILURES):
        page_login("organiser", "wrong", A)
    refused = page_login("organiser", PASSWORD, A)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"Too many failed sign-in attempts for this user name. Try again in 10 minutes." in refused.content
    assert page_login("organiser", PASSWORD, B).status_code == 302  # the real organiser, at the venue
    assert "token" in token_login("organiser", PASSWORD, B).json()


@pytest.mark.django_db
def test_one_address_cannot_spray_user_names(world: World) -> None:
    """Twenty failures from one address, one per name: the address is closed, for every name."""
    for n in range(auth.MAX_ADDRESS_FAILURES):
        assert page_login(f"guess{n}", "wrong", A).status_code == 200
    refused = page_login("referee", PASSWORD, A)
    assert refused.status_code == 429
    assert b"Too many failed sign-in attempts from this address. Try again in 10 minutes." in refused.content
    assert token_login("referee", PASSWORD, A).status_code == 429  # the same limiter at every door
    assert page_login("referee", PASSWORD, B).status_code == 302


@pytest.mark.django_db
def test_the_admin_login_is_limited(world: World) -> None:
    for _ in range(auth.MAX_FAILURES):
        response = admin_login("admin", "wrong")
        assert response.status_code == 200 and b"Please enter the correct username" in response.content
    refused = admin_login("admin", PASSWORD)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"Too many failed sign-in attempts for this user name." in refused.content
    assert "_auth_user_id" not in refused.client.session
    # Failures count across doors: the page and the token endpoint refuse this name from this address too.
    assert page_login("admin", PASSWORD).status_code == 429
    assert admin_login("admin", PASSWORD, B).status_code == 302


@pytest.mark.django_db
def test_behind_trusted_proxies_the_address_comes_from_their_header(world: World, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    # The client wrote "192.0.2.1" itself; our proxy appended the address it saw (A, then B).
    for _ in range(auth.MAX_FAILURES):
        page_login("referee", "wrong", PROXY, x_forwarded_for=f"192.0.2.1, {A}")
    assert page_login("referee", PASSWORD, PROXY, x_forwarded_for=f"192.0.2.2, {A}").status_code == 429
    assert page_login("referee", PASSWORD, PROXY, x_forwarded_for=f"192.0.2.1, {B}").status_code == 302
    assert token_login("referee", PASSWORD, PROXY, x_forwarded_for=A).status_code == 429
    assert "token" in token_login("referee", PASSWORD, PROXY, x_forwarded_for=B).json()


@pytest.mark.parametrize(
    ("trusted", "forwarded", "expected"),
    [
        (0, None, PROXY),
        (0, "192.0.2.1", PROXY),  # no proxy of ours: the header is the client's own words
        (1, None, PROXY),
        (1, f"192.0.2.1, {A}", A),
        (2, f"192.0.2.1, {A}, {B}", A),
        (2, B, B),  # fewer addresses than proxies: the leftmost
        (1, " , ", PROXY),
    ],
)
def test_client_address(settings: Any, trusted: int, forwarded: str | None, expected: str) -> None:
    settings.TRUSTED_PROXY_COUNT = trusted
    meta = {"REMOTE_ADDR": PROXY} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {})
    assert auth.client_address(RequestFactory().get("/", **meta)) == expected
