"""Who may do what through the API: every endpoint, tried as every role, against one table of expectations.

Columns, in order: anonymous, a logged-in player with no role, referee, head referee, organiser, site
admin, and a referee of another tournament. Each try runs in a savepoint that is rolled back, so every
role meets the same state. Requests authenticate with each user's token (sessions: test_session.py).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from tests.api.conftest import PASSWORD, ROLES, World, final_entry
from tests.scoring import hanchan
from tournament import services

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"

Body = dict[str, Any] | Callable[[World], dict[str, Any]] | None


class Case(NamedTuple):
    expected: tuple[int, int, int, int, int, int, int]  # in the order of ROLES
    method: str
    url: str  # formatted with World.ids
    body: Body = None
    multipart: bool = False


def new_tournament_body(world: World) -> dict[str, Any]:
    return {
        "name": "New Cup",
        "slug": "new-cup",
        "starts_on": "2026-06-01",
        "ends_on": "2026-06-01",
        "hanchan_count": 4,
    }


def full_tournament_body(world: World) -> dict[str, Any]:
    return {**new_tournament_body(world), "name": "Test Open", "slug": "test-open", "venue": "Hall B"}


def player_file(world: World) -> dict[str, Any]:
    return {"file": SimpleUploadedFile("players.csv", b"name,country\nNew One,JP\nNew Two,FR\n")}


def sheet_t3(world: World) -> dict[str, Any]:
    return {"entry": final_entry(world.names("t3")), "submit": True}


def sheet_t2_update(world: World) -> dict[str, Any]:
    entry = final_entry(world.names("t2"), (35000, 35000, 30000, 20000))
    return {"entry": entry, "submit": True, "expected_version": 1}


def log_t3(world: World) -> dict[str, Any]:
    """The shipped whole-hanchan log, its nicknames mapped to table 3's players."""
    log = json.loads((TENHOU / "hanchan.json").read_text(encoding="utf-8"))
    return {"log": log, "mapping": dict(zip(log["name"], world.names("t3"), strict=True))}


def log_t3_reseated(world: World) -> dict[str, Any]:
    """The same log with table 3's East and South swapped, accepting the log's seats: a head referee's."""
    names = world.names("t3")
    body = log_t3(world)
    body["mapping"] = dict(zip(body["log"]["name"], [names[1], names[0], *names[2:]], strict=True))
    return {**body, "reseat_winds": True}


def check_t2(world: World) -> dict[str, Any]:
    return {"entry": final_entry(world.names("t2"))}


def correct_t1(world: World) -> dict[str, Any]:
    entry = {**hanchan.entry("final"), "chombo": []}
    return {"entry": entry, "reason": "the chombo was at another table"}


def new_series_body(world: World) -> dict[str, Any]:
    return {"name": "New Season", "rule": "best_n", "best_n": 2, "tournaments": [world.ids["t"]]}


EMAILS = itertools.count(1)


def new_signup_body(world: World) -> dict[str, Any]:
    """A sign-up with an email of its own each time: the limit of 3 per email is tested apart."""
    email = f"new{next(EMAILS)}@example.org"
    return {"last_name": "Nunes", "first_name": "Nia", "email": email, "country": "PT", "consent": True}


LOGIN = {"username": "player", "password": PASSWORD}
WITHDRAW = {"from_round": 2}
GRANT = {"username": "player", "role": "referee"}
INVITE = {"username": "new-ref", "role": "referee"}
PROMOTE = {"role": "head_referee"}
REVOKE = {"reason": "not his phone"}
DISQUALIFY = {"player": "{dai}", "reason": "collusion"}

ANYONE = (200, 200, 200, 200, 200, 200, 200)
PHASES = {
    "phases": [
        {"name": "Qualifying", "hanchan": 1},
        {"name": "Final", "hanchan": 1, "seating": "by_rank", "advance": 4},
    ]
}
T = "/api/tournaments/{t}"
PRIVATE = "/api/tournaments/{private}"

# fmt: off
CASES: list[Case] = [
    #     anon, player, referee, head, organiser, admin, other referee
    # The API's own pages and the login.
    Case(ANYONE,                              "GET",    "/api/"),
    Case(ANYONE,                              "GET",    "/api/schema/"),
    Case(ANYONE,                              "GET",    "/api/docs/"),
    Case(ANYONE,                              "GET",    "/api/redoc/"),
    Case(ANYONE,                              "POST",   "/api/auth/token/", LOGIN),
    # Tournaments.
    Case(ANYONE,                              "GET",    "/api/tournaments/"),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   "/api/tournaments/", new_tournament_body),
    Case(ANYONE,                              "GET",    T + "/"),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  T + "/", {"venue": "Hall B"}),
    Case((401, 403, 403, 403, 200, 200, 403), "PUT",    T + "/", full_tournament_body),
    Case(ANYONE,                              "GET",    T + "/standings/"),
    Case(ANYONE,                              "GET",    T + "/team-standings/"),
    Case(ANYONE,                              "GET",    T + "/live-tables/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/check-in-plan/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/statistics/"),
    # Phases (the world has none: a cut, a call-up or a seating by rank finds no phase 2).
    Case(ANYONE,                              "GET",    T + "/phases/"),
    Case((401, 403, 403, 403, 200, 200, 403), "PUT",    T + "/phases/", PHASES),
    Case((401, 403, 403, 403, 404, 404, 403), "POST",   T + "/phases/2/cut/", {"chosen": []}),
    Case((401, 403, 403, 403, 404, 404, 403), "POST",   T + "/phases/2/call-up/", {"player": "{ana}"}),
    Case((401, 403, 403, 403, 404, 404, 403), "POST",   T + "/phases/2/seat-by-rank/"),
    # Players.
    Case(ANYONE,                              "GET",    T + "/players/"),
    Case(ANYONE,                              "GET",    T + "/players/{ana}/"),
    Case(ANYONE,                              "GET",    T + "/players/{ana}/statistics/"),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   T + "/players/", {"name": "New One"}),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  T + "/players/{ana}/", {"club": "Kyoto"}),
    Case((401, 403, 403, 403, 204, 204, 403), "DELETE", T + "/players/{sub2}/"),
    Case((401, 403, 403, 403, 400, 400, 403), "DELETE", T + "/players/{ana}/"),  # played: withdraw instead
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   T + "/players/import/", player_file, multipart=True),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/players/{t3_player}/check-in/"),
    Case((401, 403, 403, 403, 200, 200, 403), "DELETE", T + "/players/{t3_player}/check-in/"),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/players/{t3_player}/withdraw/", WITHDRAW),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   T + "/players/{t3_player}/substitute/",
         {"round": 2, "substitute": "{sub1}"}),
    # Staff roles.
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/staff/"),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   T + "/staff/", GRANT),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   T + "/staff/invite/", INVITE),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  T + "/staff/{referee_role}/", PROMOTE),
    Case((401, 403, 403, 403, 204, 204, 403), "DELETE", T + "/staff/{referee_role}/"),
    # Rounds, tables, the clock, seating.
    Case(ANYONE,                              "GET",    T + "/rounds/"),
    Case(ANYONE,                              "GET",    T + "/rounds/1/"),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/rounds/1/clock/", {"action": "start"}),
    Case((401, 403, 403, 403, 400, 400, 403), "POST",   T + "/rounds/1/finish/"),  # tables 2 and 3 unsigned
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/rounds/2/swiss/", {"seed": 1}),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/rounds/2/publish/", {"published": True}),
    Case((401, 403, 403, 403, 400, 400, 403), "POST",   T + "/reveal/", {"revealed": True}),  # hides none
    # A table formed at the venue: a club session's only (409 for a tournament: tests/tournament).
    Case((401, 403, 403, 403, 409, 409, 403), "POST",   T + "/club-tables/", {"players": [1, 2, 3, 4]}),
    Case((401, 403, 403, 409, 409, 409, 403), "POST",   "/api/tables/{t1}/take-back/"),  # a session's only
    Case(ANYONE,                              "GET",    "/api/tables/{t1}/"),
    Case((401, 403, 403, 200, 200, 200, 403), "POST",   "/api/tables/{t1}/extra-time/", {"minutes": 5}),
    Case(ANYONE,                              "GET",    T + "/exporters/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/exporters/"),
    Case(ANYONE,                              "GET",    T + "/exports/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/exports/"),
    Case((202, 202, 202, 202, 202, 202, 202), "POST",   T + "/exports/", {"exporter": "seating_csv"}),
    Case((401, 403, 202, 202, 202, 202, 403), "POST",   T + "/exports/", {"exporter": "standings_csv"}),
    Case((401, 403, 403, 403, 202, 202, 403), "POST",   T + "/exports/", {"exporter": "archive_json"}),
    Case((401, 403, 403, 403, 202, 202, 403), "POST",   T + "/exports/", {"exporter": "signups_csv"}),
    Case((404, 404, 202, 202, 202, 202, 404), "POST",   PRIVATE + "/exports/", {"exporter": "seating_csv"}),
    Case((401, 403, 200, 200, 200, 200, 403), "GET",    T + "/exports/{export}/"),
    Case((401, 403, 200, 200, 200, 200, 403), "GET",    T + "/exports/{export}/download/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/seating-jobs/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/seating-jobs/{job}/"),
    Case((401, 403, 403, 403, 400, 400, 403), "POST",   T + "/seating-jobs/{job}/apply/"),  # none to apply
    Case((401, 403, 403, 403, 202, 202, 403), "POST",   T + "/seating-jobs/", {"from_round": 2, "seed": 1}),
    # Score sheets: table 1 signed, table 2 submitted, table 3 without a sheet.
    Case(ANYONE,                              "GET",    "/api/tables/{t1}/sheet/"),
    # A player's answer to the table's submitted sheet: for a seated player's session only (the tests of
    # players' entry, tests/scoring/test_player_entry.py and tests/tournament/test_player_login.py).
    Case((401, 403, 403, 403, 403, 403, 403), "POST",   "/api/tables/{t2}/sheet/confirm/", {"version": 1}),
    Case((401, 403, 403, 403, 403, 403, 403), "POST",   "/api/tables/{t2}/sheet/dispute/",
         {"version": 1, "reason": "wrong points"}),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    "/api/tables/{t2}/sheet/"),
    Case((401, 403, 201, 201, 201, 201, 403), "POST",   "/api/tables/{t3}/sheet/", sheet_t3),
    Case((401, 403, 200, 200, 200, 200, 403), "PUT",    "/api/tables/{t2}/sheet/", sheet_t2_update),
    Case((401, 403, 200, 200, 200, 200, 403), "POST",   "/api/tables/{t2}/sheet/check/", check_t2),
    Case((401, 403, 201, 201, 201, 201, 403), "POST",   "/api/tables/{t3}/sheet/from-log/", log_t3),
    Case((401, 403, 403, 201, 201, 201, 403), "POST",   "/api/tables/{t3}/sheet/from-log/", log_t3_reseated),
    # Several replay links for a hanchan (head referee); a text that is no link is listed, never fetched.
    Case((401, 403, 403, 200, 200, 200, 403), "POST",   T + "/rounds/1/sheets/from-links/",
         {"links": ["not a replay link"]}),
    Case((401, 403, 200, 200, 200, 200, 403), "POST",   "/api/tables/{t2}/sheet/sign/", {}),
    Case((401, 403, 403, 200, 200, 200, 403), "POST",   "/api/tables/{t1}/sheet/correct/", correct_t1),
    # Penalties and disqualifications.
    Case(ANYONE,                              "GET",    T + "/penalties/"),
    Case(ANYONE,                              "GET",    T + "/penalties/{penalty}/"),
    Case((401, 403, 403, 201, 201, 201, 403), "POST",   T + "/penalties/",
         {"player": "{ben}", "kind": "phone", "points": "2", "reason": "ringing again"}),
    Case((401, 403, 403, 200, 200, 200, 403), "POST",   T + "/penalties/{penalty}/revoke/", REVOKE),
    Case(ANYONE,                              "GET",    T + "/disqualifications/"),
    Case((401, 403, 403, 201, 201, 201, 403), "POST",   T + "/disqualifications/", DISQUALIFY),
    # A private tournament: invisible (404) to whoever has no role in it.
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/players/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/rounds/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/standings/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/team-standings/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/live-tables/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/phases/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/penalties/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    "/api/tables/{private_table}/"),
    Case((401, 404, 403, 403, 201, 201, 404), "POST",   PRIVATE + "/players/", {"name": "New One"}),
    # Players' registration: public, or by the token of a sign-up's link (a wrong token: 404), and the
    # organisers' sign-ups (Sara registered, Ava awaiting approval, Wes waiting, Uma unconfirmed).
    Case(ANYONE,                              "GET",    T + "/registration/"),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  T + "/registration/", {"entry_fee": "20 EUR"}),
    Case(ANYONE,                              "GET",    T + "/registration/registered/"),
    Case((202, 202, 202, 202, 202, 202, 202), "POST",   T + "/registration/sign-up/", new_signup_body),
    Case(ANYONE,                              "POST",   T + "/registration/confirm/{uma_confirm}/"),
    Case((404, 404, 404, 404, 404, 404, 404), "POST",   T + "/registration/confirm/{sara_me}/"),
    Case(ANYONE,                              "GET",    T + "/registration/me/{wes_me}/"),
    Case((404, 404, 404, 404, 404, 404, 404), "GET",    T + "/registration/me/not-a-token/"),
    Case(ANYONE,                              "POST",   T + "/registration/me/{sara_me}/cancel/"),
    Case((404, 404, 404, 404, 404, 404, 404), "POST",   T + "/registration/me/{uma_confirm}/cancel/"),
    Case((409, 409, 409, 409, 409, 409, 409), "POST",   T + "/registration/me/{wes_me}/accept/"),  # no offer
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    PRIVATE + "/registration/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/signups/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/signups/counts/"),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/signups/{signup_sara}/"),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  T + "/signups/{signup_sara}/", {"club": "Porto"}),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/{signup_ava}/approve/"),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/{signup_ava}/reject/"),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/{signup_sara}/cancel/"),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/{signup_ava}/move/",
         {"state": "waiting_list"}),
    Case((401, 403, 403, 403, 409, 409, 403), "POST",   T + "/signups/{signup_wes}/move/",
         {"state": "registered"}),  # both places held
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/{signup_sara}/paid/", {"paid": True}),
    Case((401, 403, 403, 403, 200, 200, 403), "POST",   T + "/signups/players/"),
    Case((401, 403, 403, 403, 202, 202, 403), "POST",   T + "/signups/announce/",
         {"subject": "Doors", "text": "Doors open at 9:00."}),
    Case((401, 403, 403, 403, 200, 200, 403), "GET",    T + "/signups/announcements/"),
    Case((404, 404, 403, 403, 200, 200, 404), "GET",    PRIVATE + "/signups/"),
    # Series (organisers create them, their creator changes them) and persons (what each event shows).
    Case(ANYONE,                              "GET",    "/api/series/"),
    Case((401, 403, 403, 403, 201, 201, 403), "POST",   "/api/series/", new_series_body),
    Case(ANYONE,                              "GET",    "/api/series/{series}/"),
    Case((401, 403, 403, 403, 200, 200, 403), "PATCH",  "/api/series/{series}/", {"rule": "sum"}),
    Case(ANYONE,                              "GET",    "/api/series/{series}/standings/"),
    Case(ANYONE,                              "GET",    "/api/series/{series}/ratings/"),
    Case(ANYONE,                              "GET",    "/api/ratings/"),
    Case(ANYONE,                              "GET",    "/api/persons/{person}/"),
    Case((404, 404, 200, 200, 200, 200, 404), "GET",    "/api/persons/{private_person}/"),
]
# fmt: on


def fill(value: Any, ids: dict[str, int]) -> Any:
    """ "{name}" placeholders in a request body become the world's ids."""
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return ids[value[1:-1]]
    return value


def send(world: World, role: str, case: Case) -> Any:
    url = case.url.format(**world.ids, **world.links)
    body = case.body(world) if callable(case.body) else case.body
    request = getattr(world.client(role), case.method.lower())
    if body is None:
        return request(url)
    body = {key: fill(value, world.ids) for key, value in body.items()}
    return request(url, body, format="multipart" if case.multipart else "json")


def case_id(case: Case) -> str:
    return f"{case.method} {case.url}"


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_endpoint_as_every_role(shared_world: World, case: Case) -> None:
    world = shared_world  # built once for the module: each role's request is rolled back below
    got: dict[str, int] = {}
    for role in ROLES:
        with transaction.atomic():
            response = send(world, role, case)
            got[role] = response.status_code
            transaction.set_rollback(True)
        if response.status_code >= 400:
            assert set(response.json()) == {"errors"}, response.content  # one error format everywhere
    expected = dict(zip(ROLES, case.expected, strict=True))
    assert got == expected, {
        role: (got[role], expected[role]) for role in ROLES if got[role] != expected[role]
    }


PLACEHOLDERS = {
    "tournament_pk": ["t", "private"],
    "pk": [
        "t",
        "private",
        "ana",
        "t3_player",
        "referee_role",
        "job",
        "export",
        "penalty",
        "t1",
        "private_table",
        "series",
        "person",
        "private_person",
        "signup_sara",
        "signup_ava",
        "signup_wes",
    ],
    "table_pk": ["t1", "t2", "t3"],
    "number": ["1", "2"],
}


def api_routes() -> set[tuple[str, str]]:
    """Every (method, URL pattern) the API answers, read from the URL configuration."""
    from django.urls import get_resolver

    routes: set[tuple[str, str]] = set()

    def walk(patterns: Any, prefix: str) -> None:
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
                continue
            callback = pattern.callback
            actions = getattr(callback, "actions", None) or {
                method: method
                for method in ("get", "post", "put", "patch", "delete")
                if hasattr(callback.cls, method)
            }
            routes.update(
                (method.upper(), prefix + str(pattern.pattern))
                for method in actions
                if method not in {"head", "options"}
            )

    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/")
    walk(api.url_patterns, "/api/")
    return routes


def test_the_table_tries_every_route_and_method_of_the_api() -> None:
    """A new endpoint, or a new method on one, cannot be added without its row in CASES."""

    def regex(route: str) -> str:
        def alternatives(match: re.Match[str]) -> str:
            values = PLACEHOLDERS[match.group(1)]
            return "(" + "|".join(re.escape("{" + v + "}") if not v.isdigit() else v for v in values) + ")"

        route = re.sub(r"<int:(\w+)>", alternatives, route.replace(".", r"\."))
        return re.sub(r"<str:\w+>", "[^/]+", route)  # a link's token

    tried = {(case.method, case.url) for case in CASES}
    untried = sorted(
        (method, route)
        for method, route in api_routes()
        if not any(m == method and re.fullmatch(regex(route), url) for m, url in tried)
    )
    assert untried == []
    assert len(api_routes()) > 40  # the walk found the API


def test_private_tournament_is_left_out_of_the_list_for_outsiders(shared_world: World) -> None:
    world = shared_world
    seen = {}
    for role in ROLES:
        response = world.client(role).get("/api/tournaments/")
        seen[role] = sorted(t["name"] for t in response.json()["results"])
    everything = ["Closed Cup", "Other Cup", "Test Open"]
    assert seen == {
        "anonymous": ["Other Cup", "Test Open"],
        "player": ["Other Cup", "Test Open"],
        "referee": everything,
        "head_referee": everything,
        "organiser": everything,
        "admin": everything,
        "other_referee": ["Other Cup", "Test Open"],
    }


@pytest.mark.django_db
def test_creating_a_tournament_is_refused_by_the_service_itself(shared_world: World) -> None:
    world = shared_world
    """One permission, in the service both doors call: a caller that skips the page or the API's own
    checks is refused too; Django's add_tournament permission opens it to an account without a role."""
    fields = {"name": "Side Door", "slug": "side-door", "starts_on": date(2026, 6, 1)}
    fields |= {"ends_on": date(2026, 6, 1), "hanchan_count": 4}
    with pytest.raises(PermissionDenied):
        services.create_tournament(world.users["player"], **fields)
    world.users["player"].user_permissions.add(Permission.objects.get(codename="add_tournament"))
    player = type(world.users["player"]).objects.get(pk=world.users["player"].pk)  # fresh permission cache
    assert services.create_tournament(player, **fields).slug == "side-door"
