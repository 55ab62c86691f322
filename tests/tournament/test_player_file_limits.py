"""Player files are read within bounded time and memory whatever they claim, or refused naming ``file``
and the rule; names and text with control characters are refused row by row."""

from __future__ import annotations

import io
import random
import time
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

import pytest
from openpyxl import Workbook

from tournament import services
from tournament.core import player_files, spreadsheets
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE = "http://schemas.openxmlformats.org/package/2006/relationships"


def workbook_zip(sheet: bytes | Iterator[bytes], strings: bytes | None = None) -> bytes:
    """A minimal XLSX written by hand: the sheet XML (streamed into the zip when given as chunks)."""
    parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
            'package/2006/content-types"><Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            'ContentType="application/xml"/></Types>'
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{PACKAGE}"><Relationship Id="rId1" Type="{RELS}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>'
            '<sheet name="Players" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PACKAGE}"><Relationship Id="rId1" Type="{RELS}/worksheet" '
            'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="'
            f'{RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
        ),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        archive.writestr(
            "xl/sharedStrings.xml",
            strings or f'<sst xmlns="{MAIN}"><si><t>name</t></si><si><t>Ana</t></si></sst>'.encode(),
        )
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            for chunk in [sheet] if isinstance(sheet, bytes) else sheet:
                member.write(chunk)
    return buffer.getvalue()


def sheet_xml(rows: Iterator[bytes], dimension: str = "A1:B2") -> Iterator[bytes]:
    yield f'<worksheet xmlns="{MAIN}"><dimension ref="{dimension}"/><sheetData>'.encode()
    yield from rows
    yield b"</sheetData></worksheet>"


def measured(read: Callable[[], Any]) -> tuple[Any, float, int]:
    """What ``read`` returned or raised, the seconds of CPU it took and the peak of memory it allocated.

    The seconds are this process's CPU time in a run of its own, without the memory tracing (which slows
    every allocation many times over): the bounds separate a reader that stops early (milliseconds) from
    one that reads everything (seconds), and neither the machine's other work nor the tracing moves them.
    """
    start = time.process_time()
    with suppress(Refusal):
        read()
    seconds = time.process_time() - start
    tracemalloc.start()
    try:
        outcome: Any = read()
    except Refusal as refusal:
        outcome = refusal
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return outcome, seconds, peak


def refused(outcome: Any, rule: str) -> dict[str, Any]:
    assert isinstance(outcome, Refusal), outcome
    assert outcome.field == "file"
    assert outcome.rule == rule, outcome.as_dicts()
    problem: dict[str, Any] = outcome.as_dicts()[0]
    return problem


def test_a_sheet_claiming_a_huge_range_is_read_by_its_cells() -> None:
    """1.6 KB declaring A1:XFD10000 held a worker 12.6 s and 1.4 GB: only the cells present count."""
    rows = [
        b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
        b'<row r="2"><c r="A2" t="s"><v>1</v></c><c r="XFD2" t="inlineStr"><is><t>far</t></is></c></row>',
        b'<row r="10000"><c r="XFD10000" t="inlineStr"><is><t>far</t></is></c></row>',
    ]
    data = workbook_zip(b"".join(sheet_xml(iter(rows), "A1:XFD10000")))
    table, seconds, peak = measured(lambda: player_files.read_table(data, "claims.xlsx"))
    assert table == [["name"], ["Ana"]]  # the cells past column 50 are not read
    assert seconds < 1 and peak < 5_000_000


def test_millions_of_rows_of_one_shared_string_are_refused_before_reading() -> None:
    """5 million rows of one shared string in 390 KB held a worker 31 s: such a sheet shrinks hundreds of
    times in the zip and is refused from the zip's directory (300,000 rows, 10 MB of XML, here)."""
    row = b'<row><c t="s"><v>1</v></c></row>'
    data = workbook_zip(sheet_xml(row * 10_000 for _ in range(30)))
    assert len(data) < 100_000
    outcome, seconds, peak = measured(lambda: player_files.read_table(data, "rows.xlsx"))
    assert "decompresses 4" in refused(outcome, "compression-ratio")["message"]
    assert seconds < 0.5 and peak < 5_000_000


def test_rows_past_the_player_limit_stop_the_reading() -> None:
    """Rows that do not shrink much (a name each) are streamed and refused at the 5,001st player."""
    names = (
        f'<row><c t="inlineStr"><is><t>{random.randbytes(12).hex()}</t></is></c></row>' for _ in range(8_000)
    )
    data = workbook_zip(sheet_xml(name.encode() for name in names))
    outcome, seconds, peak = measured(lambda: player_files.read_table(data, "rows.xlsx"))
    assert refused(outcome, "row-limit")["line"] == spreadsheets.MAX_PLAYERS + 2
    assert seconds < 3 and peak < 20_000_000


def test_a_zip_member_too_large_once_decompressed_is_refused_before_reading() -> None:
    data = workbook_zip(sheet_xml(b"<row/>" * 100_000 for _ in range(36)))  # 21.6 MB of empty rows
    outcome, seconds, _ = measured(lambda: player_files.read_table(data, "big.xlsx"))
    problem = refused(outcome, "decompressed-size")
    assert "xl/worksheets/sheet1.xml" in problem["message"]
    assert seconds < 0.5


def test_a_member_that_shrank_too_much_is_refused() -> None:
    data = workbook_zip(sheet_xml(iter([b" " * 2_000_000])))
    refused(measured(lambda: player_files.read_table(data, "ratio.xlsx"))[0], "compression-ratio")


def test_one_row_of_many_cells_is_refused_quickly() -> None:
    """One row of 100,000 cells (openpyxl took 24 s and 730 MB for a million): refused at 1,001."""
    cells = (f'<c t="inlineStr"><is><t>{random.randbytes(6).hex()}</t></is></c>' for _ in range(100_000))
    data = workbook_zip(sheet_xml(iter([b"<row>", "".join(cells).encode(), b"</row>"])))
    outcome, seconds, peak = measured(lambda: player_files.read_table(data, "wide.xlsx"))
    refused(outcome, "cell-limit")
    assert seconds < 1 and peak < 5_000_000


def test_a_document_type_declaration_is_refused() -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        + f'<sst xmlns="{MAIN}"><si><t>&b;</t></si></sst>'.encode()
    )
    data = workbook_zip(b"".join(sheet_xml(iter([]))), strings=laughs)
    refused(measured(lambda: player_files.read_table(data, "dtd.xlsx"))[0], "xml-dtd")


def test_a_file_over_the_upload_limit_is_refused() -> None:
    problem = refused(
        measured(lambda: player_files.read_table(b"x" * (spreadsheets.MAX_FILE_BYTES + 1), "p.csv"))[0],
        "file-size",
    )
    assert "2,097,152" in problem["message"]


def test_a_csv_field_over_the_cell_limit_is_refused_with_its_line_and_column() -> None:
    data = b"name,club\nAna,Lisboa\nBen," + b"x" * 1_001 + b"\n"
    problem = refused(measured(lambda: player_files.read_table(data, "p.csv"))[0], "field-length")
    assert problem["line"] == 3
    assert "column 2 ('club')" in problem["message"]


def test_a_csv_field_over_the_csv_module_limit_is_refused_not_a_crash() -> None:
    data = b"name,club\nAna,Lisboa\nBen," + b"x" * 200_000 + b"\n"
    outcome, seconds, _ = measured(lambda: player_files.read_table(data, "p.csv"))
    assert refused(outcome, "field-length")["line"] == 3
    assert seconds < 1


def test_a_csv_of_more_rows_than_players_is_refused_and_blank_rows_do_not_count() -> None:
    rows = b"".join(b"P%d\n" % n for n in range(spreadsheets.MAX_PLAYERS))
    assert len(player_files.read_table(b"name\n" + b"\n" * 1_000 + rows, "p.csv")) == 6_001
    outcome = measured(lambda: player_files.read_table(b"name\n" + rows + b"one more\n", "p.csv"))[0]
    assert refused(outcome, "row-limit")["line"] == spreadsheets.MAX_PLAYERS + 2


def test_an_ordinary_workbook_still_reads_numbers_booleans_and_rich_text() -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Name", "EMA id", "Substitute", "Club"])
    sheet.append(["Ana Alves", 4000001, True, 1.5])
    buffer = io.BytesIO()
    workbook.save(buffer)
    table = player_files.read_table(buffer.getvalue(), "p.xlsx")
    assert table == [["Name", "EMA id", "Substitute", "Club"], ["Ana Alves", "04000001", "True", "1.5"]]


@pytest.mark.parametrize(
    ("key", "text", "code"),
    [
        ("name", "Ana\x01", "U+0001"),
        ("club", "Lis\x00boa", "U+0000"),
        ("team", "Porto\x85", "U+0085"),
        ("country", "P\x7fT", "U+007F"),
        ("first_name", "An\ud800a", "U+D800"),
        ("last_name", "Al\nves", "U+000A"),
    ],
)
def test_control_characters_are_refused_in_every_text_column(key: str, text: str, code: str) -> None:
    row = {"line": 2, "first_name": "Ana", "last_name": "Alves", "club": "Lisboa", key: text}
    preview = player_files.validate_rows([row], countries=services.country_lookup())
    message = f"{key.replace('_', ' ')}: a control character ({code}); only printable text is accepted"
    assert [e.as_dict() for e in preview.errors] == [
        {"line": 2, "field": key, "rule": "printable-text", "message": message}
    ]
    assert not preview.rows


@pytest.mark.django_db
def test_a_name_with_a_control_character_is_refused_by_hand_and_from_a_file(
    tournament: Tournament, organiser: Any
) -> None:
    with pytest.raises(Refusal) as refusal:
        services.register_player(
            tournament, organiser, name="Ana\x01", country="", club="", ema_id="", team=""
        )
    assert (refusal.value.field, refusal.value.rule) == ("name", "printable-text")
    preview = services.import_players(
        tournament, b"name,club\nBen\x1b[31m,\nCho,\tx\n", "p.csv", user=organiser
    )
    assert [(e.line, e.field, e.rule) for e in preview.errors] == [(2, "name", "printable-text")]
    assert not Player.objects.filter(tournament=tournament).exists()
