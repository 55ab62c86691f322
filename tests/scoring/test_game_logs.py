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
from scoring.rules.tenhou import RESEAT_LABEL, RULE_HEAD_BUMP, RULE_RED_FIVES, RULE_SEAT_ORDER
from tests.conftest import make_user
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import AuditEntry, Player, Seat

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"
MAPPING = {"chochan": "Cho", "dai-chi": "Dai"}


def log(name: str) -> bytes:
    return (TENHOU / f"{name}.json").read_bytes()


def log_seated(name: str, order: list[int]) -> bytes:
    """The log with its players' nicknames in another seat order: ``order[i]`` is the seat of the
    shipped log whose name sits in seat ``i`` (the hands stay: only who sat where changes)."""
    raw = json.loads(log(name))
    raw["name"] = [raw["name"][seat] for seat in order]
    return json.dumps(raw, ensure_ascii=False).encode()


def winds(table: Any) -> dict[str, str]:
    return {seat.player.name: seat.get_wind_display() for seat in table.seats.select_related("player")}


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


# The shipped hanchan with Ben's nickname in East and Ana's in South: the table seats Ana East, Ben South.
SWAPPED = [1, 0, 2, 3]


@pytest.mark.django_db
def test_a_log_seated_otherwise_is_refused_saying_how_to_accept_its_seats(
    seated_table: Any, referee: Any
) -> None:
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(seated_table, log_seated("hanchan", SWAPPED), referee, mapping=MAPPING)
    refused = caught.value
    assert (refused.field, refused.rule) == ("reseat_winds", RULE_SEAT_ORDER)
    assert "the log seats Ben, Ana, Cho, Dai as East, South, West, North" in refused.message
    assert RESEAT_LABEL in refused.message and '"reseat_winds": true' in refused.message
    assert ScoreSheet.objects.count() == 0 and AuditEntry.objects.count() == 0
    assert winds(seated_table) == {"Ana": "East", "Ben": "South", "Cho": "West", "Dai": "North"}


@pytest.mark.django_db
def test_a_head_referee_accepts_the_logs_seats_and_the_table_is_reseated(
    seated_table: Any, head_referee: Any
) -> None:
    sheet, findings = services.sheet_from_log(
        seated_table, log_seated("hanchan", SWAPPED), head_referee, mapping=MAPPING, reseat_winds=True
    )
    assert winds(seated_table) == {"Ben": "East", "Ana": "South", "Cho": "West", "Dai": "North"}
    [entry] = AuditEntry.objects.filter(action="seating.reseat_winds")
    assert entry.actor == head_referee and entry.subject.startswith("hanchan 1, table 1")
    assert entry.changes == {"Ben": ["South", "East"], "Ana": ["East", "South"]}
    # The sheet names players, replayed East first: Ben deals East 1 and ends with Ana's old points.
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.DRAFT and sheet.replay["valid"] is True
    assert sheet.replay["final_points"] == {"Ben": 42400, "Ana": 35800, "Cho": 23100, "Dai": 18700}
    assert services.check_entry(seated_table, sheet.entry).valid
    assert services.content_hash(seated_table, sheet.entry) == sheet.versions.get().content_hash
    # Signed as any sheet: the results sit on the new winds.
    services.save_sheet(seated_table, sheet.entry, head_referee, submit=True, expected_version=1)
    signed = services.sign_sheet(ScoreSheet.objects.get(pk=sheet.pk), head_referee)
    results = {r.player.name: (r.seat.get_wind_display(), r.points) for r in signed.results.all()}
    assert results["Ben"] == ("East", 42400) and results["Ana"] == ("South", 35800)
    assert [(finding["hand"], finding["rule"]) for finding in services.log_findings(signed) or []] == [
        (f.hand, f.rule) for f in findings
    ]


@pytest.mark.django_db
def test_reseating_keeps_whom_a_substitute_replaces(seated_table: Any, head_referee: Any) -> None:
    cho_seat = Seat.objects.get(table=seated_table, player__name="Cho")
    cho_seat.replaces = Player.objects.create(tournament=seated_table.round.tournament, name="Absent")
    cho_seat.save()
    order = [2, 1, 0, 3]  # Cho's nickname in East, Ana's in West
    services.sheet_from_log(
        seated_table, log_seated("hanchan", order), head_referee, mapping=MAPPING, reseat_winds=True
    )
    moved = Seat.objects.get(pk=cho_seat.pk)
    assert (moved.wind, moved.player.name, moved.replaces.name) == (Seat.Wind.EAST, "Cho", "Absent")


@pytest.mark.django_db
def test_only_a_head_referee_or_organiser_reseats_the_winds(
    seated_table: Any, referee: Any, organiser: Any
) -> None:
    with pytest.raises(PermissionDenied):
        services.sheet_from_log(
            seated_table, log_seated("hanchan", SWAPPED), referee, mapping=MAPPING, reseat_winds=True
        )
    assert ScoreSheet.objects.count() == 0 and winds(seated_table)["Ana"] == "East"
    services.sheet_from_log(
        seated_table, log_seated("hanchan", SWAPPED), organiser, mapping=MAPPING, reseat_winds=True
    )
    assert winds(seated_table)["Ana"] == "South"


@pytest.mark.django_db
def test_a_signed_sheet_is_not_reseated(seated_table: Any, head_referee: Any) -> None:
    sheet, _ = services.sheet_from_log(seated_table, log("hanchan"), head_referee, mapping=MAPPING)
    services.save_sheet(seated_table, sheet.entry, head_referee, submit=True, expected_version=1)
    services.sign_sheet(ScoreSheet.objects.get(pk=sheet.pk), head_referee)
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(
            seated_table,
            log_seated("hanchan", SWAPPED),
            head_referee,
            mapping=MAPPING,
            expected_version=2,
            reseat_winds=True,
        )
    assert caught.value.status == CONFLICT and caught.value.field == "reseat_winds"
    assert "signed" in caught.value.message
    assert winds(seated_table)["Ana"] == "East" and not AuditEntry.objects.filter(
        action="seating.reseat_winds"
    )


@pytest.mark.django_db
def test_a_player_not_at_the_table_is_not_reseated(seated_table: Any, head_referee: Any) -> None:
    """A log naming someone of another table (here Eve for Dai) matches nobody seated: refused."""
    Player.objects.create(tournament=seated_table.round.tournament, name="Eve")
    with pytest.raises(Refusal) as caught:
        services.sheet_from_log(
            seated_table,
            log_seated("hanchan", SWAPPED),
            head_referee,
            mapping={"chochan": "Cho", "dai-chi": "Eve"},
            reseat_winds=True,
        )
    assert caught.value.field == "mapping" and "'dai-chi' matches nobody at the table" in caught.value.message
    assert winds(seated_table)["Ana"] == "East" and ScoreSheet.objects.count() == 0
    assert not AuditEntry.objects.filter(action="seating.reseat_winds").exists()


# The final points of the shipped hanchan, as a referee would correct them (a stick misread).
CORRECTED = {
    "form": "final",
    "final_points": {"Ana": 42400, "Ben": 35800, "Cho": 23700, "Dai": 18100},
    "riichi_sticks_left": 0,
    "chombo": [],
}


@pytest.mark.django_db
def test_the_findings_stay_with_their_version(seated_table: Any, referee: Any, head_referee: Any) -> None:
    sheet, findings = services.sheet_from_log(seated_table, log("hanchan"), referee, mapping=MAPPING)
    stored = [finding.as_json() for finding in findings]
    assert services.log_findings(sheet) == stored and stored
    # Submitted as read (as the sheet editor writes it back: without the default riichi sticks left),
    # the version scores every hand the same and keeps the log's findings; signed, they stay.
    as_edited = {key: value for key, value in sheet.entry.items() if key != "riichi_sticks_left"}
    assert as_edited != sheet.entry
    services.save_sheet(seated_table, as_edited, referee, submit=True, expected_version=1)
    sheet = services.sign_sheet(ScoreSheet.objects.get(pk=sheet.pk), referee)
    assert sheet.version == 2 and services.log_findings(sheet) == stored
    # A correction is a version entered by hand: no findings now, the history keeps the log's.
    sheet = services.correct_sheet(sheet, CORRECTED, head_referee, reason="a stick misread")
    assert services.log_findings(sheet) is None
    history = [(v.action, v.findings) for v in sheet.versions.order_by("pk")]
    assert history == [("created", stored), ("submitted", stored), ("signed", None), ("corrected", None)]


@pytest.mark.django_db
def test_an_edited_draft_leaves_the_findings_in_the_history(seated_table: Any, referee: Any) -> None:
    sheet, _ = services.sheet_from_log(seated_table, log("online-rules"), referee, mapping=MAPPING)
    sheet = services.save_sheet(seated_table, CORRECTED, referee, expected_version=1)
    assert sheet.version == 2 and services.log_findings(sheet) is None
    assert SheetVersion.objects.get(sheet=sheet, version=1).findings


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "preset"), [("tenhou-ranked", "TENHOU"), ("mahjongsoul-bust", "MAHJONGSOUL")]
)
def test_an_online_events_log_becomes_its_sheet_with_no_findings_and_is_signed(
    seated_table: Any, referee: Any, name: str, preset: str
) -> None:
    """An event played under an online preset: the log is its sheet (abortive draws, nagashi mangan,
    multiple rons, a bust as the game had them), no finding, and the results signed are the log's."""
    tournament = seated_table.round.tournament
    tournament.ruleset_preset = preset
    tournament.save()
    sheet, findings = services.sheet_from_log(seated_table, log(name), referee, mapping=MAPPING)
    assert list(findings) == []
    sheet.refresh_from_db()
    assert sheet.entry == expected_entry(name, preset) and sheet.replay["valid"] is True
    versions = SheetVersion.objects.filter(sheet=sheet)
    assert [version.findings for version in versions] == [[]]
    services.save_sheet(seated_table, sheet.entry, referee, submit=True, expected_version=1)
    signed = services.sign_sheet(ScoreSheet.objects.get(pk=sheet.pk), referee)
    points = {r.player.name: r.points for r in signed.results.select_related("player")}
    assert points == sheet.entry["final_points"]
