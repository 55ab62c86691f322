"""A draft sheet from an online game's log (tenhou.net/6 JSON): saved through the sheet's own checks, the
log's names mapped to the seated players, nothing signed, refusals that name the field, one transaction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from scoring import services
from scoring.models import ScoreSheet, SeatResult, SheetVersion
from scoring.rules.tenhou import RULE_HEAD_BUMP, RULE_RED_FIVES
from tests.conftest import make_user
from tournament.refusal import CONFLICT, Refusal

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"
MAPPING = {"chochan": "Cho", "dai-chi": "Dai"}


def log(name: str) -> bytes:
    return (TENHOU / f"{name}.json").read_bytes()


def expected_entry(name: str, ruleset: str = "WRC2015") -> dict[str, Any]:
    sheets = json.loads((TENHOU / f"{name}.expected.json").read_text(encoding="utf-8"))["sheets"]
    entry: dict[str, Any] = sheets[ruleset]["entry"]
    return entry


@pytest.mark.django_db
def test_a_log_becomes_a_draft_sheet_checked_by_the_rules_engine(seated_table: Any, referee: Any) -> None:
    sheet, findings = services.sheet_from_log(seated_table, log("hanchan"), referee, mapping=MAPPING)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.DRAFT and sheet.signed_by is None
    assert sheet.entry == expected_entry("hanchan")
    assert sheet.replay["valid"] is True
    assert sheet.replay["final_points"] == {"Ana": 42400, "Ben": 35800, "Cho": 23100, "Dai": 18700}
    assert [(finding.hand, finding.rule) for finding in findings] == [(2, RULE_RED_FIVES)]
    assert SeatResult.objects.count() == 0  # results are written when a sheet is signed
    # The referee submits and signs it as any sheet.
    services.save_sheet(seated_table, sheet.entry, referee, submit=True, expected_version=1)
    signed = services.sign_sheet(ScoreSheet.objects.get(pk=sheet.pk), referee)
    assert {r.player.name: r.points for r in signed.results.select_related("player")}["Ana"] == 42400


@pytest.mark.django_db
def test_a_draft_is_replaced_by_a_log_naming_its_version(seated_table: Any, referee: Any) -> None:
    services.sheet_from_log(seated_table, log("online-rules"), referee, mapping=MAPPING)
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(seated_table, log("hanchan"), referee, mapping=MAPPING)
    assert caught.value.status == CONFLICT
    sheet, _ = services.sheet_from_log(
        seated_table, log("hanchan"), referee, mapping=MAPPING, expected_version=1
    )
    assert sheet.version == 2 and sheet.entry == expected_entry("hanchan")
    assert SheetVersion.objects.filter(sheet=sheet).count() == 2


@pytest.mark.django_db
def test_the_tournaments_ruleset_decides_a_double_ron(seated_table: Any, referee: Any) -> None:
    sheet, findings = services.sheet_from_log(seated_table, log("double-ron"), referee, mapping=MAPPING)
    assert sheet.entry == expected_entry("double-ron", "WRC2015")
    assert RULE_HEAD_BUMP in [finding.rule for finding in findings]
    tournament = seated_table.round.tournament
    tournament.ruleset_preset = "EMA2016"
    tournament.save()
    sheet, findings = services.sheet_from_log(
        seated_table, log("double-ron"), referee, mapping=MAPPING, expected_version=1
    )
    assert sheet.entry == expected_entry("double-ron", "EMA2016")
    assert RULE_HEAD_BUMP not in [finding.rule for finding in findings]


@pytest.mark.django_db
def test_a_broken_log_is_refused_naming_the_hand_and_nothing_is_saved(
    seated_table: Any, referee: Any
) -> None:
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(seated_table, log("broken-hand"), referee, mapping=MAPPING)
    assert caught.value.problems[0].hand == 2 and caught.value.field == "log[1][16][2][3]"
    assert ScoreSheet.objects.count() == 0


@pytest.mark.django_db
def test_names_that_match_nobody_are_refused_naming_the_mapping(seated_table: Any, referee: Any) -> None:
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(seated_table, log("hanchan"), referee)
    assert caught.value.field == "mapping" and "'chochan'" in caught.value.message
    assert ScoreSheet.objects.count() == 0


@pytest.mark.django_db
def test_only_a_referee_of_the_tournament_reads_a_log(seated_table: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.sheet_from_log(seated_table, log("hanchan"), make_user("someone"), mapping=MAPPING)
    assert ScoreSheet.objects.count() == 0
