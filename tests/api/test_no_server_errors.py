"""No 5xx for any method on any route: every route of the URL configuration (the pages and the API),
tried with GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS, as an anonymous reader, an account with no
role and a referee, with no body and with a broken JSON body. Whatever a route
does not take is refused (401, 403, 404, 405, 400...), never answered 500.

Django's admin is tried at its index, login and logout only: its other routes are the same views for
each model, and they answer every one of these callers with the admin's sign-in (none of them is staff).
The live stream's GET is left to the stream tests (tests/live): it holds the connection open.

``OPTIONS`` is tried on every route as every role of the world (organiser and admin included): DRF's
description of a view runs the view's object lookup for each method the caller may use, which differs
with the role."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.api.conftest import ROLES, World

METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")
BODIES = {
    "empty": (b"", "application/json"),
    "junk": (b'\x00{"not": json ]\xff', "application/json"),
}
CALLERS = ("anonymous", "player", "referee")  # the API tests' world: "player" is an account with no role
ADMIN_TRIED = {"admin/", "admin/login/", "admin/logout/"}
# Whose id an int in the URL stands for, by the name of the converter or the segment before it.
IDS = {
    "tournament_pk": "t",
    "tournaments": "t",
    "players": "ana",
    "player_id": "ana",
    "staff": "referee_role",
    "seating-jobs": "job",
    "job_id": "job",
    "jobs": "job",
    "exports": "export",
    "export_id": "export",
    "penalties": "penalty",
    "disqualifications": "penalty",
    "tables": "t1",
    "table_pk": "t1",
    "person_id": "person",
    "persons": "person",
    "series": "series",
    "signups": "signup_sara",
}
NUMBERS = {"number", "round_number", "table_number"}


def routes() -> Iterator[str]:
    """Every route of the URL configuration, as the text of its pattern."""

    def walk(patterns: Any, prefix: str) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)

    for route in walk(get_resolver().url_patterns, ""):
        if not route.startswith("admin/") or route in ADMIN_TRIED:
            yield route


def concrete(route: str, ids: dict[str, int]) -> str:
    """The route with a real value for each of its converters (the world's tournament, player, ...)."""

    def value(match: re.Match[str]) -> str:
        converter, name = match.group(1) or "str", match.group(2)
        if converter == "slug":
            return "season" if name == "series_slug" else "test-open"
        if converter == "int":
            if name in NUMBERS:
                return "1"
            segment = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
            key = IDS.get(name) or IDS.get(segment)
            assert key is not None, f"{route}: which id is <{name}>? (add it to IDS)"
            return str(ids[key])
        return "no-such-token"

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def attempts() -> Iterator[tuple[str, str | None]]:
    for method in METHODS:
        if method in ("GET", "HEAD", "OPTIONS"):
            yield method, None
        else:
            for body in BODIES:
                yield method, body


def client_of(world: World, caller: str) -> Client:
    client = Client(raise_request_exception=False)  # a view's exception is its 500, counted below
    if caller != "anonymous":
        client.force_login(world.users[caller])
    return client


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
def test_no_route_answers_5xx_to_any_method_or_body(world: World, caller: str) -> None:
    client = client_of(world, caller)
    failures = []
    tried = 0
    for route in sorted(set(routes())):
        url = concrete(route, world.ids)
        for method, body in attempts():
            if route.endswith("/live") and method in ("GET", "HEAD"):
                continue
            data, content_type = BODIES[body] if body else (b"", "application/octet-stream")
            with transaction.atomic():
                response = client.generic(method, url, data, content_type=content_type)
                transaction.set_rollback(True)
            tried += 1
            if response.status_code >= 500:
                failures.append(f"{method} {url} ({body or 'no body'}): {response.status_code}")
    assert failures == []
    assert tried > 1000  # the walk found the routes


def test_every_int_in_a_route_has_a_value() -> None:
    ids = {key: 1 for key in IDS.values()}
    for route in routes():
        assert "<" not in concrete(route, ids)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_options_answers_every_route_for_every_role(world: World, role: str) -> None:
    client = client_of(world, role)
    failures = []
    for route in sorted(set(routes())):
        url = concrete(route, world.ids)
        with transaction.atomic():
            response = client.options(url)
            transaction.set_rollback(True)
        if response.status_code >= 500:
            failures.append(f"OPTIONS {url}: {response.status_code}")
    assert failures == []


@pytest.mark.django_db
def test_options_on_the_phases_describes_their_put_to_an_organiser_only(world: World) -> None:
    url = f"/api/tournaments/{world.ids['t']}/phases/"
    organiser = client_of(world, "organiser").options(url)
    assert organiser.status_code == 200
    phase = organiser.json()["actions"]["PUT"]["phases"]["child"]["children"]
    assert {"name", "hanchan", "seating", "carry_over", "advance"} <= set(phase)
    referee = client_of(world, "referee").options(url)
    assert referee.status_code == 200 and "actions" not in referee.json()
