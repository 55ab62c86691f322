"""No export writes a formula from text, and every export survives any name already stored."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from openpyxl import load_workbook

from exports.exporters import get_exporter
from exports.exporters.base import SCORE_FORMAT, Column, Formatted, Sheet, write_csv, write_xlsx
from tests.exports.helpers import csv_rows, zip_members
from tests.exports.test_exporters import PRODUCT_EXPORTERS
from tournament.models import Player, Tournament
from tournament.queries.standings_db import refresh_standings

HYPERLINK = '=HYPERLINK("http://evil.example","x")'
FORMULAS = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", HYPERLINK]


def cells(data: bytes, sheet: str) -> list[list[Any]]:
    """Each cell as (data type, value), read back by openpyxl in its normal (not read-only) mode."""
    book = load_workbook(io.BytesIO(data))
    return [[(cell.data_type, cell.value) for cell in row] for row in book[sheet].iter_rows()]


def sheet_xml(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return b"".join(
            archive.read(name) for name in archive.namelist() if name.startswith("xl/worksheets/")
        )


def test_text_is_a_text_cell_in_excel_whatever_it_starts_with_and_numbers_stay_numbers() -> None:
    columns = [Column("=Name"), Column("Score", number_format=SCORE_FORMAT)]
    rows = [[text, Decimal("-15")] for text in [*FORMULAS, "#N/A", "Ana\x01\ud800", "Ben"]]
    rows.append([Formatted("=2+2", SCORE_FORMAT), Formatted(Decimal("-1.5"), SCORE_FORMAT)])
    data = write_xlsx([Sheet("Names\x02", columns, rows)], title="Open\x03")
    assert b"<f>" not in sheet_xml(data)
    table = cells(data, "Names")
    assert table[0] == [("s", "=Name"), ("s", "Score")]
    assert [row[0] for row in table[1:]] == [
        *(("s", text) for text in FORMULAS),
        ("s", "#N/A"),
        ("s", "Ana\ufffd\ufffd"),
        ("s", "Ben"),
        ("s", "=2+2"),
    ]
    assert {row[1] for row in table[1:-1]} == {("n", -15)}
    assert table[-1][1] == ("n", -1.5)


def test_csv_text_that_would_start_a_formula_gets_a_quote_and_numbers_do_not() -> None:
    rows = [[text, Decimal("-15"), -3] for text in [*FORMULAS, "Ana", "a=b", "Ana\x01"]]
    text = write_csv(Sheet("Names", [Column("Name"), Column("Score"), Column("Points")], rows)).decode(
        "utf-8-sig"
    )
    table = csv_rows(text.encode("utf-8-sig"))
    assert [row[0] for row in table[1:]] == [
        *("'" + formula for formula in FORMULAS),
        "Ana",
        "a=b",
        "Ana\x01",
    ]
    assert {(row[1], row[2]) for row in table[1:]} == {("-15", "-3")}


@pytest.mark.django_db
def test_every_export_survives_a_stored_name_that_is_a_formula_or_holds_a_control_character(
    played: Tournament,
) -> None:
    """Names the registration refuses today may be stored already (an archive, older data)."""
    Player.objects.filter(tournament=played, name="Ana").update(name=HYPERLINK)
    Player.objects.filter(tournament=played, name="Ben").update(name="Ben\x01")
    refresh_standings(played.pk)
    for identifier in PRODUCT_EXPORTERS:
        exporter = get_exporter(identifier)
        assert exporter is not None
        data = exporter.render(played).data
        if identifier.endswith("_xlsx"):
            assert b"<f>" not in sheet_xml(data), identifier
    standings = get_exporter("standings_xlsx")
    seating = get_exporter("seating_xlsx")
    assert standings is not None and seating is not None
    names = [row[1] for row in cells(standings.render(played).data, "Standings")[1:]]
    assert ("s", HYPERLINK) in names and ("s", "Ben\ufffd") in names
    assert ("s", HYPERLINK) in [row[2] for row in cells(seating.render(played).data, "By table")]
    csv_export = get_exporter("standings_csv")
    assert csv_export is not None
    members = zip_members(csv_export.render(played).data)
    names_csv = [row[1] for row in csv_rows(members["test-open-standings-standings.csv"])]
    assert "'" + HYPERLINK in names_csv and "Ben\x01" in names_csv
