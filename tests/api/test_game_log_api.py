"""``POST /api/tables/{id}/sheet/from-log/``: a draft sheet from a tenhou.net/6 log, with the findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.models import ScoreSheet
from tests.api.conftest import World
from tournament.models import AuditEntry

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"


def body(world: World, name: str = "hanchan", **extra: Any) -> dict[str, Any]:
    log = json.loads((TENHOU / f"{name}.json").read_text(encoding="utf-8"))
    return {"log": log, "mapping": dict(zip(log["name"], world.names("t3"), strict=True)), **extra}


@pytest.mark.django_db
def test_the_api_answers_the_draft_sheet_and_the_findings(world: World) -> None:
    client = world.client("referee")
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    response = client.post(url, body(world), format="json")
    assert response.status_code == 201, response.content
    answer = response.json()
    assert answer["sheet"]["status"] == "draft" and answer["sheet"]["version"] == 1
    assert [(f["hand"], f["label"]) for f in answer["findings"]] == [(2, "East 1, 1 honba")]
    # The log as a text, replacing the draft (version named).
    text = (TENHOU / "double-ron.json").read_text(encoding="utf-8")
    again = client.post(url, {**body(world, "double-ron"), "log": text, "expected_version": 1}, format="json")
    assert again.status_code == 200, again.content
    assert "head-bump (WRCR 2015 §5.7.6)" in [f["rule"] for f in again.json()["findings"]]
    assert ScoreSheet.objects.get(table_id=world.ids["t3"]).version == 2


@pytest.mark.django_db
def test_a_real_games_mjlog_xml_gives_the_sheet_and_findings_of_its_json_and_says_which_it_read(
    world: World,
) -> None:
    client = world.client("referee")
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    log = json.loads((TENHOU / "real-tenhou-2023.json").read_text(encoding="utf-8"))
    mapping = dict(zip(log["name"], world.names("t3"), strict=True))
    from_json = client.post(url, {"log": log, "mapping": mapping}, format="json")
    assert from_json.status_code == 201, from_json.content
    assert from_json.json()["format"] == "tenhou.net/6 JSON"
    xml = (TENHOU / "real-tenhou-2023.xml").read_text(encoding="utf-8")
    from_xml = client.post(url, {"log": xml, "mapping": mapping, "expected_version": 1}, format="json")
    assert from_xml.status_code == 200, from_xml.content
    assert from_xml.json()["format"] == "Tenhou mjlog XML"
    assert from_xml.json()["findings"] == from_json.json()["findings"] != []
    first, second = (answer.json()["sheet"] for answer in (from_json, from_xml))
    assert second["entry"] == first["entry"] and second["replay"] == first["replay"]


@pytest.mark.django_db
def test_a_broken_log_is_refused_with_the_hand_and_the_field(world: World) -> None:
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    response = world.client("referee").post(url, body(world, "broken-hand"), format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["hand"]) == ("log[1][16][2][3]", 2)
    unmapped = world.client("referee").post(url, {"log": body(world)["log"]}, format="json")
    assert unmapped.status_code == 400 and unmapped.json()["errors"][0]["field"] == "mapping"
    assert not ScoreSheet.objects.filter(table_id=world.ids["t3"]).exists()


@pytest.mark.django_db
def test_the_sheet_answers_the_findings_of_its_current_version(world: World) -> None:
    client = world.client("referee")
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    answer = client.post(url, body(world), format="json").json()
    sheet = client.get(f"/api/tables/{world.ids['t3']}/sheet/").json()
    assert sheet["findings"] == answer["findings"] == answer["sheet"]["findings"]
    assert [version["findings"] for version in sheet["history"]] == [answer["findings"]]
    # A version entered by hand has none; the history keeps the log's.
    entry = {"form": "final", "final_points": sheet["replay"]["final_points"], "riichi_sticks_left": 0}
    put = client.put(
        f"/api/tables/{world.ids['t3']}/sheet/", {"entry": entry, "expected_version": 1}, format="json"
    )
    assert put.status_code == 200, put.content
    assert put.json()["findings"] is None
    assert [version["findings"] for version in put.json()["history"]] == [answer["findings"], None]


@pytest.mark.django_db
def test_reseat_winds_accepts_the_logs_seats(world: World) -> None:
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    names = world.names("t3")
    swapped = body(world)
    swapped["mapping"] = dict(
        zip(swapped["log"]["name"], [names[1], names[0], names[2], names[3]], strict=True)
    )
    refused = world.client("head_referee").post(url, swapped, format="json")
    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert error["field"] == "reseat_winds" and '"reseat_winds": true' in error["message"]
    as_referee = world.client("referee").post(url, {**swapped, "reseat_winds": True}, format="json")
    assert as_referee.status_code == 403 and world.names("t3") == names
    accepted = world.client("head_referee").post(url, {**swapped, "reseat_winds": True}, format="json")
    assert accepted.status_code == 201, accepted.content
    assert world.names("t3") == [names[1], names[0], names[2], names[3]]
    assert AuditEntry.objects.filter(action="seating.reseat_winds").count() == 1
    table = world.client("head_referee").get(f"/api/tables/{world.ids['t3']}/").json()
    assert [seat["player"]["name"] for seat in table["seats"]][:2] == [names[1], names[0]]
