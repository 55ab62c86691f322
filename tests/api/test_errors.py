"""One error format everywhere: {"errors": [{"field", "rule", "message"}, ...]}, whatever refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.api.conftest import PASSWORD, World, final_entry
from tests.scoring import hanchan


def errors(response: Any, status: int) -> list[dict[str, Any]]:
    assert response.status_code == status, response.content
    body = response.json()
    assert list(body) == ["errors"] and body["errors"], body
    for item in body["errors"]:
        assert {"field", "rule", "message"} <= set(item), item
    return list(body["errors"])


@pytest.mark.django_db
def test_field_errors_name_the_field_and_the_rule(world: World) -> None:
    organiser = world.client("organiser")
    found = errors(organiser.post("/api/tournaments/", {"name": "", "hanchan_count": 0}), 400)
    by_field = {e["field"]: e["rule"] for e in found}
    assert by_field == {
        "name": "blank",
        "slug": "required",
        "starts_on": "required",
        "ends_on": "required",
        "hanchan_count": "min_value",
    }
    # A nested field is named with dots; a non-object entry is refused before the rules engine.
    found = errors(world.client("referee").post(f"/api/tables/{world.ids['t3']}/sheet/", {"entry": [1]}), 400)
    assert [(e["field"], e["rule"]) for e in found] == [("entry", "not_a_dict")]


@pytest.mark.django_db
def test_model_and_service_refusals_take_the_same_shape(world: World) -> None:
    organiser = world.client("organiser")
    base = f"/api/tournaments/{world.ids['t']}"
    found = errors(organiser.patch(f"{base}/", {"ruleset_overrides": {"uma": "lots"}}), 400)
    assert [e["field"] for e in found] == ["ruleset_overrides"]
    found = errors(organiser.patch(f"{base}/", {"ends_on": "2026-04-01"}), 400)
    # A sentence naming the field, never the database constraint's name.
    assert found[0]["field"] == "ends_on" and "ends_after_start" not in found[0]["message"]
    assert "The last day comes before the first day" in found[0]["message"]
    found = errors(organiser.post(f"{base}/players/", {"name": "Ana"}), 400)
    assert found == [
        {"field": "name", "rule": "registration", "message": "'Ana' is already registered in this tournament"}
    ]
    found = errors(organiser.post(f"{base}/seating-jobs/", {"from_round": 9}), 400)
    assert found == [{"field": "from_round", "rule": "hanchan-range", "message": "from_round: 1 to 2"}]
    head = world.client("head_referee")
    found = errors(
        head.post(f"{base}/penalties/", {"player": world.ids["ben"], "kind": "phone", "points": "2"}), 400
    )
    assert [(e["field"], e["rule"]) for e in found] == [("reason", "penalty-reason (WRCR 2015 §7.1)")]
    upload = {"file": SimpleUploadedFile("players.pdf", b"%PDF")}
    found = errors(organiser.post(f"{base}/players/import/", upload, format="multipart"), 400)
    assert found == [
        {"field": "file", "rule": "player-file", "message": "'players.pdf' is neither .csv nor .xlsx"}
    ]


@pytest.mark.django_db
def test_a_sheet_error_names_the_hand_and_the_rule_and_nothing_is_submitted(world: World) -> None:
    names = world.names("t3")
    entry = {
        "form": "hands",
        "hands": [{"result": "ron", "winner": names[1], "loser": names[2], "han": 1, "fu": 20, "riichi": []}],
    }
    url = f"/api/tables/{world.ids['t3']}/sheet/"
    found = errors(world.client("referee").post(url, {"entry": entry, "submit": True}), 400)
    assert found[0]["hand"] == 1 and found[0]["field"] == "hands"
    assert found[0]["rule"] == "han-fu (WRCR 2015 §6.1, §6.3)"
    assert "20 fu" in found[0]["message"]
    assert world.client("referee").get(url).status_code == 404
    # As a draft it is kept with its problems, named as the refusal names them; submitting stays refused.
    draft = world.client("referee").post(url, {"entry": entry})
    assert draft.status_code == 201 and draft.json()["status"] == "draft"
    assert draft.json()["replay"]["valid"] is False
    assert [(e["hand"], e["rule"]) for e in draft.json()["replay"]["errors"]] == [(1, found[0]["rule"])]
    update = {"entry": entry, "submit": True, "expected_version": draft.json()["version"]}
    assert errors(world.client("referee").put(url, update), 400)[0]["rule"] == found[0]["rule"]
    assert world.client("referee").get(url).json()["status"] == "draft"
    # The check endpoint gives the same verdict without refusing: 200 with valid false.
    verdict = world.client("referee").post(f"/api/tables/{world.ids['t3']}/sheet/check/", {"entry": entry})
    assert verdict.status_code == 200
    assert verdict.json()["valid"] is False and verdict.json()["errors"][0]["hand"] == 1


@pytest.mark.django_db
def test_401_403_404_and_409(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}"
    refused = APIClient().post(f"{base}/penalties/", {"player": world.ids["ben"], "kind": "chombo"})
    assert errors(refused, 401) == [
        {
            "field": None,
            "rule": "not_authenticated",
            "message": "Authentication credentials were not provided.",
        }
    ]
    assert refused["WWW-Authenticate"] == "Token"
    found = errors(
        world.client("referee").post(f"{base}/penalties/", {"player": world.ids["ben"], "kind": "chombo"}),
        403,
    )
    assert found == [
        {
            "field": None,
            "rule": "permission_denied",
            "message": "this needs the role head referee of Test Open",
        }
    ]
    found = errors(world.client("player").get("/api/tournaments/999999/"), 404)
    assert found == [{"field": None, "rule": "not_found", "message": "no tournament 999999"}]
    found = errors(world.client("player").get(f"/api/tournaments/{world.ids['private']}/"), 404)
    assert found[0]["rule"] == "not_found"

    referee = world.client("referee")
    t2 = f"/api/tables/{world.ids['t2']}/sheet/"
    entry = final_entry(world.names("t2"))
    found = errors(referee.post(t2, {"entry": entry, "submit": True}), 409)
    assert [(e["field"], e["rule"]) for e in found] == [("table", "one-sheet-per-table")]
    found = errors(referee.put(t2, {"entry": entry, "expected_version": 7}), 409)
    assert [(e["field"], e["rule"]) for e in found] == [("version", "stale-version")]
    t1 = f"/api/tables/{world.ids['t1']}/sheet/"
    found = errors(referee.put(t1, {"entry": hanchan.entry("final"), "expected_version": 2}), 409)
    assert found[0]["rule"] == "signed-sheets-are-locked (WRCR 2015 §8.2)"
    found = errors(referee.post(f"{t1}sign/", {}), 409)
    assert found[0]["rule"] == "already-signed"


@pytest.mark.django_db
def test_the_eleventh_login_attempt_in_a_minute_is_throttled(world: World) -> None:
    client = APIClient()
    for n in range(10):  # ten user names: the failed-attempt limits (5 per name) stay open
        found = errors(client.post("/api/auth/token/", {"username": f"user{n}", "password": "wrong"}), 400)
        assert found == [
            {"field": None, "rule": "authorization", "message": "Unable to log in with provided credentials."}
        ]
    refused = client.post("/api/auth/token/", {"username": "player", "password": PASSWORD})
    found = errors(refused, 429)
    assert found[0]["rule"] == "throttled" and int(refused["Retry-After"]) > 0


@pytest.mark.django_db
def test_a_session_needs_the_csrf_token_for_changes_a_token_does_not(world: World) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    assert browser.login(username="organiser", password=PASSWORD)
    assert browser.get(f"/api/tournaments/{world.ids['t']}/staff/").status_code == 200
    found = errors(browser.patch(f"/api/tournaments/{world.ids['t']}/", {"venue": "Hall C"}), 403)
    assert found[0]["message"].startswith("CSRF Failed")
    assert (
        world.client("organiser")
        .patch(f"/api/tournaments/{world.ids['t']}/", {"venue": "Hall C"})
        .status_code
        == 200
    )


@pytest.mark.django_db
def test_player_file_limits_and_control_characters_are_refusals(world: World) -> None:
    organiser = world.client("organiser")
    url = f"/api/tournaments/{world.ids['t']}/players/import/"
    big = {"file": SimpleUploadedFile("players.csv", b"name\n" + b"x" * 2 * 1024 * 1024)}
    found = errors(organiser.post(url, big, format="multipart"), 400)
    assert [(e["field"], e["rule"]) for e in found] == [("file", "file-size")]
    long_field = {"file": SimpleUploadedFile("players.csv", b"name,club\nZed," + b"x" * 200_000 + b"\n")}
    found = errors(organiser.post(url, long_field, format="multipart"), 400)
    assert [(e["field"], e["rule"], e["line"]) for e in found] == [("file", "field-length", 2)]
    control = {"file": SimpleUploadedFile("players.csv", b"name\nZed\x01\n"), "dry_run": "true"}
    response = organiser.post(url, control, format="multipart")
    assert response.status_code == 200 and response.json()["errors"] == [
        {
            "field": "name",
            "rule": "printable-text",
            "message": "name: a control character (U+0001); only printable text is accepted",
            "line": 2,
        }
    ]
