"""No input answers 5xx: each request below once did (the hardening issue), and now answers 4xx in the one
error format, naming the field and the rule, or succeeds correctly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from config.api import exception_handler
from tests.api.conftest import World, final_entry


def errors(response: Any, status: int = 400) -> list[dict[str, Any]]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert list(body) == ["errors"] and body["errors"], body
    for item in body["errors"]:
        assert {"field", "rule", "message"} <= set(item), item
    return list(body["errors"])


def raw(client: APIClient, method: str, url: str, body: str | bytes) -> Any:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return getattr(client, method)(url, data=data, content_type="application/json")


NESTED = "[" * 5000 + "]" * 5000


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", "organiser"])
def test_deeply_nested_json_is_refused_by_depth(world: World, role: str) -> None:
    client = world.client(role)
    urls = ["/api/auth/token/"]
    if role != "anonymous":  # anonymous callers are refused (401) before the body is read
        urls += ["/api/tournaments/", f"/api/tables/{world.ids['t3']}/sheet/check/"]
    for url in urls:
        found = errors(raw(client, "post", url, '{"entry": ' + NESTED + "}"), 400)
        assert found[0]["field"] == "body" and found[0]["rule"] == "json-depth", found
    # 32 levels are read (and then judged by the serializer).
    assert raw(client, "post", "/api/auth/token/", "[" * 32 + "]" * 32).status_code == 400


@pytest.mark.django_db
def test_nul_and_lone_surrogates_in_a_json_body_are_refused(world: World) -> None:
    client = world.client("organiser")
    url = f"/api/tournaments/{world.ids['t']}/"
    found = errors(raw(client, "patch", url, '{"venue": "Hall\\u0000 B"}'))
    assert (found[0]["field"], found[0]["rule"]) == ("body", "printable-text")
    found = errors(raw(client, "patch", url, '{"venue": "Hall \\ud800"}'))
    assert (found[0]["field"], found[0]["rule"]) == ("body", "json-unicode")
    found = errors(raw(client, "patch", url, b'{"venue": "\xff"}'))
    assert (found[0]["field"], found[0]["rule"]) == ("body", "json-unicode")
    found = errors(raw(client, "patch", url, '{"venue": '))
    assert found[0]["field"] == "body" and found[0]["rule"] == "json"


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_choice_field_is_refused_encodably(world: World) -> None:
    organiser = world.client("organiser")
    base = f"/api/tournaments/{world.ids['t']}"
    cases = [
        (f"{base}/", "patch", "entry_mode"),
        (f"{base}/", "patch", "ruleset_preset"),
        (f"{base}/staff/", "post", "role"),
        (f"{base}/rounds/1/clock/", "post", "action"),
    ]
    for url, method, field in cases:
        # As JSON, the parser refuses it before any field sees it.
        found = errors(raw(organiser, method, url, '{"' + field + '": "\\ud800"}'))
        assert (found[0]["field"], found[0]["rule"]) == ("body", "json-unicode"), found
        # As a form, the surrogate's UTF-8 bytes are invalid and read as U+FFFD: a plain invalid choice.
        response = getattr(organiser, method)(
            url, f"{field}=%ED%A0%80", content_type="application/x-www-form-urlencoded"
        )
        assert field in {e["field"] for e in errors(response)}
    head = world.client("head_referee")
    found = errors(raw(head, "post", f"{base}/penalties/", '{"player": 1, "kind": "\\udfff"}'))
    assert found[0]["rule"] == "json-unicode"


def test_the_error_renderer_encodes_whatever_a_message_quotes() -> None:
    """Whatever reaches a message (here DRF's "not a valid choice" quoting a lone surrogate), the
    response renders as UTF-8, the surrogate replaced by U+FFFD."""
    response = exception_handler(
        ValidationError({"tie_break": ['"\ud800" is not a valid choice.']}), {"request": None}
    )
    assert response is not None and response.status_code == 400
    body = JSONRenderer().render(response.data)
    assert json.loads(body) == {
        "errors": [{"field": "tie_break", "rule": "invalid", "message": '"\ufffd" is not a valid choice.'}]
    }


@pytest.mark.django_db
def test_control_characters_in_names_and_texts_are_refused(world: World) -> None:
    organiser = world.client("organiser")
    base = f"/api/tournaments/{world.ids['t']}"
    found = errors(organiser.patch(f"{base}/", {"venue": "Hall\x00"}, format="multipart"))
    assert found[0]["field"] == "venue", found  # DRF's own null_characters_not_allowed
    for data, field in (
        ({"name": "Open\x01"}, "name"),
        ({"venue": "Hall\x1b[31m"}, "venue"),
        ({"ruleset_overrides": '{"uma": [15, 5, -5, -15], "name": "x\\u0000"}'}, "ruleset_overrides"),
    ):
        found = errors(organiser.patch(f"{base}/", data, format="multipart"))
        assert (found[0]["field"], found[0]["rule"]) == (field, "printable-text"), found
    for name in ("pl\x00ayer", "pl\x01ayer"):
        data = {"username": name, "role": "referee"}
        found = errors(organiser.post(f"{base}/staff/", data, format="multipart"))
        assert (found[0]["field"], found[0]["rule"]) == ("username", "printable-text"), found
    head = world.client("head_referee")
    found = errors(
        head.post(
            f"{base}/penalties/",
            {"player": world.ids["ben"], "kind": "phone", "points": "2", "reason": "rang\x07"},
        )
    )
    assert (found[0]["field"], found[0]["rule"]) == ("reason", "printable-text"), found
    # Multi-line text keeps its tabs and new lines.
    ok = head.post(
        f"{base}/penalties/",
        {"player": world.ids["ben"], "kind": "phone", "points": "2", "reason": "rang\ttwice\r\nat the table"},
    )
    assert ok.status_code == 201, ok.content


@pytest.mark.django_db
def test_control_characters_inside_a_sheet_entry_are_refused_by_check_and_save_alike(world: World) -> None:
    referee = world.client("referee")
    url = f"/api/tables/{world.ids['t3']}/sheet/"
    entry = {**final_entry(world.names("t3")), "note": "bad\x01note"}
    verdict = referee.post(f"{url}check/", {"entry": entry}).json()
    assert verdict["valid"] is False and verdict["errors"][0]["rule"] == "printable-text", verdict
    found = errors(referee.post(url, {"entry": entry}))
    assert (found[0]["field"], found[0]["rule"]) == ("entry", "printable-text"), found
    nul = {**entry, "note": "bad\x00note"}
    found = errors(referee.post(url, {"entry": nul}))
    assert (found[0]["field"], found[0]["rule"]) == ("body", "printable-text"), found
    assert referee.get(url).status_code == 404  # nothing saved
    tabs = {**entry, "note": "two\tlines\r\nof note"}
    assert referee.post(url, {"entry": tabs}).status_code == 201


@pytest.mark.django_db
def test_penalty_points_are_bounded(world: World) -> None:
    head = world.client("head_referee")
    base = f"/api/tournaments/{world.ids['t']}/penalties/"
    for points in ("100000", "1e1000000", "1001", "NaN", "Infinity", "-5"):
        found = errors(
            head.post(base, {"player": world.ids["ben"], "kind": "phone", "points": points, "reason": "x"})
        )
        assert found[0]["field"] == "points", (points, found)
    ok = head.post(base, {"player": world.ids["ben"], "kind": "phone", "points": "1000", "reason": "x"})
    assert ok.status_code == 201, ok.content


@pytest.mark.django_db
def test_final_points_beyond_the_table_are_refused_at_submit(world: World) -> None:
    referee = world.client("referee")
    names = world.names("t3")
    entry = final_entry(names, (1_000_000_000, -1_000_000_000, 60000, 60000))
    url = f"/api/tables/{world.ids['t3']}/sheet/"
    found = errors(referee.post(url, {"entry": entry, "submit": True}))
    assert found[0]["rule"].startswith("final-points-range"), found
    verdict = referee.post(f"{url}check/", {"entry": entry}).json()
    assert verdict["valid"] is False


@pytest.mark.django_db
def test_ruleset_overrides_are_bounded(world: World) -> None:
    organiser = world.client("organiser")
    url = f"/api/tournaments/{world.ids['t']}/"
    for overrides in (
        {"chombo_penalty": 10**9},
        {"starting_points": 10**12},
        {"uma": [10**9, 0, 0, -(10**9)]},
        {"kiriage": "yes"},
        {"east_only": "yes"},
        {"chombo_penalty": 20.5},
    ):
        found = errors(organiser.patch(url, {"ruleset_overrides": overrides}))
        assert found[0]["field"] == "ruleset_overrides", (overrides, found)
    # East-only games (issue 53) are a ruleset field as every other.
    answer = organiser.patch(url, {"ruleset_overrides": {"east_only": True}})
    assert answer.status_code == 200 and answer.json()["ruleset_overrides"] == {"east_only": True}
    found = errors(organiser.patch(url, {"ruleset_overrides": "null"}, format="multipart"))
    assert found[0]["field"] == "ruleset_overrides"
    found = errors(organiser.patch(url, {"ruleset_overrides": None}))
    assert found[0]["field"] == "ruleset_overrides"
    created = organiser.post(
        "/api/tournaments/",
        {
            "name": "N",
            "slug": "n",
            "starts_on": "2026-01-01",
            "ends_on": "2026-01-01",
            "hanchan_count": 2,
            "ruleset_overrides": "null",
        },
        format="multipart",
    )
    assert created.status_code == 400, created.content


@pytest.mark.django_db
def test_options_on_the_sheet_with_a_token(world: World) -> None:
    for role in ("referee", "anonymous"):
        response = world.client(role).options(f"/api/tables/{world.ids['t3']}/sheet/")
        assert response.status_code in (200, 401, 403, 405), response.content


@pytest.mark.django_db
def test_a_body_over_the_upload_limit_is_refused_unread(world: World, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"name": "' + "x" * 2000 + '"}'
    found = errors(raw(world.client("organiser"), "post", "/api/tournaments/", body))
    assert (found[0]["field"], found[0]["rule"]) == ("body", "body-size"), found
    form = world.client("organiser").post(
        "/api/tournaments/", "name=" + "x" * 2000, content_type="application/x-www-form-urlencoded"
    )
    assert (errors(form)[0]["field"], errors(form)[0]["rule"]) == ("body", "body-size")


@pytest.mark.django_db
def test_an_unknown_api_address_answers_in_the_error_format(world: World) -> None:
    found = errors(world.client("anonymous").get("/api/tournaments/-3/players/"), 404)
    assert found[0]["rule"] == "not_found"
    page = world.client("anonymous").get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_hanchan_numbers_minutes_and_seeds_are_bounded(world: World) -> None:
    organiser = world.client("organiser")
    base = f"/api/tournaments/{world.ids['t']}"
    found = errors(organiser.post(f"{base}/players/{world.ids['ana']}/withdraw/", {"from_round": 10**30}))
    assert (found[0]["field"], found[0]["rule"]) == ("from_round", "hanchan-range")
    assert organiser.get(f"{base}/players/{world.ids['ana']}/").json()["status"] != "withdrawn"
    found = errors(organiser.patch(f"{base}/", {"hanchan_minutes": 301}))
    assert (found[0]["field"], found[0]["rule"]) == ("hanchan_minutes", "hanchan-time (WRCR 2015 §8.2)")
    assert organiser.patch(f"{base}/", {"hanchan_minutes": 300}).status_code == 200
    found = errors(organiser.post(f"{base}/rounds/2/swiss/", {"seed": 2**31}))
    assert (found[0]["field"], found[0]["rule"]) == ("seed", "max_value")
