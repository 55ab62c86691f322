"""Who signed a sheet's current version, and when: its history says, the same on the page, in the API, in
the score sheets workbook and in the archive, after a correction too; the sheet's own fields agree, and
the migration mends the sheets a correction left naming the first signer."""

from __future__ import annotations

import importlib
import json
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime

from exports.archive.dump import build_archive
from exports.archive.load import import_archive
from exports.exporters.sheets import ScoreSheetsExporter
from scoring import services
from scoring.models import ScoreSheet, SheetVersion
from tests.conftest import seat_table
from tests.scoring import hanchan
from tournament.models import Round

CORRECTED_ENTRY = {
    "form": "final",
    "final_points": {"Ana": 36400, "Ben": 27600, "Cho": 24900, "Dai": 31100},
    "riichi_sticks_left": 0,
}


def signed_then_corrected(table: Any, referee: Any, corrector: Any) -> ScoreSheet:
    """Signed by the referee an hour ago (version 1), corrected by ``corrector`` now (version 2)."""
    sheet = services.sign_sheet(
        services.save_sheet(table, hanchan.entry("final"), referee, submit=True), referee
    )
    an_hour_ago = timezone.now() - timedelta(hours=1)
    SheetVersion.objects.filter(sheet=sheet).update(at=an_hour_ago)
    ScoreSheet.objects.filter(pk=sheet.pk).update(signed_at=an_hour_ago)
    sheet.refresh_from_db()
    return services.correct_sheet(sheet, CORRECTED_ENTRY, corrector, reason="points of Ana and Ben swapped")


def workbook_signature_row(tournament: Any) -> str:
    """The last line of the only table of the workbook, at the venue's time, as the export task writes it."""
    with timezone.override(tournament.zone()):
        (sheet,) = ScoreSheetsExporter("xlsx").sheets(tournament, lambda done: None)
        rows = [row for row in sheet.rows if row]
    return rows[-1][5]


@pytest.mark.django_db
def test_a_corrected_sheet_names_its_corrector_and_the_time_of_the_correction_everywhere(
    client: Any, tournament: Any, seated_table: Any, referee: Any, organiser: Any
) -> None:
    signed_then_corrected(seated_table, referee, organiser)
    sheet = ScoreSheet.objects.get(table=seated_table)
    correction = sheet.versions.get(action=SheetVersion.Action.CORRECTED)
    signature = sheet.signature
    assert (signature.version, signature.action, signature.author, signature.at) == (
        2,
        "corrected",
        organiser,
        correction.at,
    )
    # The sheet's own fields are the correction's, to the microsecond: one story, not two.
    assert (sheet.signed_by, sheet.signed_at) == (organiser, correction.at)

    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/sheet/1/1/").content.decode()
    signer = page.split("data-signer>", 1)[1].split("</span>", 1)[0]
    assert signer == "corrected by organiser"
    with timezone.override(tournament.zone()):
        shown_at = formats.date_format(timezone.localtime(correction.at), "DATETIME_FORMAT")
    assert f"<span data-signed-at>{shown_at}</span>" in page

    body = client.get(f"/api/tables/{seated_table.pk}/sheet/").json()
    assert body["signed_by"] == "organiser"
    assert body["signature"]["action"] == "corrected" and body["signature"]["version"] == 2
    assert body["signature"]["by"] == "organiser"
    assert body["signed_at"] == body["signature"]["at"]
    assert parse_datetime(body["signed_at"]) == correction.at

    assert workbook_signature_row(tournament) == f"Corrected by organiser at {shown_at} (version 2)"

    (archived,) = [table["score_sheet"] for r in build_archive(tournament)["rounds"] for table in r["tables"]]
    assert (archived["signed_by"], parse_datetime(archived["signed_at"])) == ("organiser", correction.at)


@pytest.mark.django_db
def test_the_history_wins_over_a_sheet_whose_own_fields_still_name_the_first_signer(
    client: Any, tournament: Any, seated_table: Any, referee: Any, head_referee: Any
) -> None:
    """A sheet corrected before the correction signed the new version keeps its first signer in its own
    fields: the history still names the correction's author and time."""
    signed_then_corrected(seated_table, referee, head_referee)
    first = SheetVersion.objects.get(sheet__table=seated_table, action=SheetVersion.Action.SIGNED)
    ScoreSheet.objects.filter(table=seated_table).update(signed_by=referee, signed_at=first.at)
    sheet = ScoreSheet.objects.get(table=seated_table)
    assert (sheet.signature.author, sheet.signature.action) == (head_referee, "corrected")
    client.force_login(head_referee)
    assert client.get(f"/api/tables/{seated_table.pk}/sheet/").json()["signed_by"] == "head"
    assert workbook_signature_row(tournament).startswith("Corrected by head at ")


@pytest.mark.django_db
def test_a_sheet_signed_once_names_its_referee(tournament: Any, seated_table: Any, referee: Any) -> None:
    sheet = services.sign_sheet(
        services.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True), referee
    )
    sheet = ScoreSheet.objects.get(pk=sheet.pk)
    assert (sheet.signature.action, sheet.signature.author, sheet.signature.version) == ("signed", referee, 1)
    assert workbook_signature_row(tournament).startswith("Signed by referee at ")


@pytest.mark.django_db
def test_the_migration_mends_a_sheet_whose_own_fields_still_name_the_first_signer(
    tournament: Any, seated_table: Any, referee: Any, head_referee: Any
) -> None:
    """The data migration writes the history's signer and time into the sheet's own fields, where a
    correction left them stale, and leaves a sheet whose fields are right as it is."""
    signed_then_corrected(seated_table, referee, head_referee)
    first = SheetVersion.objects.get(sheet__table=seated_table, action=SheetVersion.Action.SIGNED)
    correction = SheetVersion.objects.get(sheet__table=seated_table, action=SheetVersion.Action.CORRECTED)
    ScoreSheet.objects.filter(table=seated_table).update(signed_by=referee, signed_at=first.at)
    players = [seat.player for seat in seated_table.seats.order_by("wind")]
    second, third = (
        seat_table(Round.objects.create(tournament=tournament, number=number, status="started"), 1, players)
        for number in (2, 3)
    )
    other = services.sign_sheet(
        services.save_sheet(second, hanchan.entry("final"), referee, submit=True), referee
    )
    draft = services.save_sheet(third, hanchan.entry("final"), referee)
    before = ScoreSheet.objects.get(pk=other.pk).updated_at

    migration = importlib.import_module("scoring.migrations.0007_signer_from_history")
    migration.signer_from_history(apps, None)

    mended = ScoreSheet.objects.get(table=seated_table)
    assert (mended.signed_by, mended.signed_at) == (head_referee, correction.at)
    untouched = ScoreSheet.objects.get(pk=other.pk)
    assert (untouched.signed_by, untouched.updated_at) == (referee, before)
    assert ScoreSheet.objects.get(pk=draft.pk).signed_by is None


@pytest.mark.django_db
def test_an_archive_naming_the_first_signer_loads_with_the_histories_signer(
    tournament: Any, seated_table: Any, referee: Any, head_referee: Any
) -> None:
    """An archive written before a correction signed its version holds the first signer in the sheet's
    own fields: the loaded sheet takes its history's."""
    signed_then_corrected(seated_table, referee, head_referee)
    first = SheetVersion.objects.get(sheet__table=seated_table, action=SheetVersion.Action.SIGNED)
    correction = SheetVersion.objects.get(sheet__table=seated_table, action=SheetVersion.Action.CORRECTED)
    archive = json.loads(json.dumps(build_archive(tournament), default=str))
    (archived,) = [table["score_sheet"] for r in archive["rounds"] for table in r["tables"]]
    archived["signed_by"], archived["signed_at"] = "referee", first.at.isoformat()

    copy = import_archive(archive, slug="copy")
    loaded = ScoreSheet.objects.get(table__round__tournament=copy)
    assert (loaded.signed_by, loaded.signed_at) == (head_referee, correction.at)
