"""``POST /api/tables/{id}/sheet/from-log/``: a draft sheet from a tenhou.net/6 log, with the findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.models import ScoreSheet
from tests.api.conftest import World

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
def test_a_broken_log_is_refused_with_the_hand_and_the_field(world: World) -> None:
    url = f"/api/tables/{world.ids['t3']}/sheet/from-log/"
    response = world.client("referee").post(url, body(world, "broken-hand"), format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["hand"]) == ("log[1][16][2][3]", 2)
    unmapped = world.client("referee").post(url, {"log": body(world)["log"]}, format="json")
    assert unmapped.status_code == 400 and unmapped.json()["errors"][0]["field"] == "mapping"
    assert not ScoreSheet.objects.filter(table_id=world.ids["t3"]).exists()
