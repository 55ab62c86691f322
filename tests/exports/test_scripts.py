"""Names in every script through the exports: the PDFs print Japanese, Chinese, Korean, Cyrillic and
accented Latin names with real glyphs from embedded fonts (docs/languages.md), and the workbooks and CSV
files keep every name intact."""

from __future__ import annotations

import io
from typing import Any

import pypdfium2
import pytest
from pypdf import PdfReader

from exports.exporters import get_exporter
from exports.exporters.pdf_text import CJK_FONTS, font_runs, registered_font
from tests.conftest import seat_table
from tests.exports.helpers import csv_rows, rows, workbook, zip_members
from tournament.models import Player, Round, Tournament

NAMES = [
    "佐藤 太郎",
    "王小明",
    "Алексей Жуков",
    "Łukasz Ćwik",
    "김민준",
    "Anna Berg",
    "Carl Dahl",
    "Eva Falk",
]


def installed(*fonts: str) -> bool:
    return all(registered_font(font) is not None for font in fonts)


needs_fonts = pytest.mark.skipif(
    not installed("DejaVuSans", *CJK_FONTS),
    reason="the PDF fonts are not installed (scripts/ensure-packages.sh installs them)",
)


@pytest.fixture
def world_names(tournament: Tournament) -> Tournament:
    """Two tables of hanchan 1 seated with a name in each script."""
    players = [Player.objects.create(tournament=tournament, name=name) for name in NAMES]
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.SEATED)
    seat_table(first, 1, players[:4])
    seat_table(first, 2, players[4:])
    return tournament


def render(identifier: str, tournament: Tournament) -> Any:
    exporter = get_exporter(identifier)
    assert exporter is not None
    return exporter.render(tournament)


def pdfium_text(data: bytes) -> str:
    """Every page's text as PDFium reads it: characters come back only through the fonts' own maps from
    glyphs to Unicode, so a name read back was printed with real glyphs, not boxes."""
    document = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def font_files(data: bytes) -> dict[str, bool]:
    """Each font the PDF uses, by base name, and whether its program is embedded in the file."""
    fonts: dict[str, bool] = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        resources = page.get("/Resources") or {}
        pending = [resources]
        while pending:
            current = pending.pop().get_object()
            for font in (current.get("/Font") or {}).values():
                font = font.get_object()
                descendants = font.get("/DescendantFonts")
                described = descendants[0].get_object() if descendants else font
                descriptor = (
                    (described.get("/FontDescriptor") or {}).get_object()
                    if described.get("/FontDescriptor")
                    else {}
                )
                embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
                fonts[str(font["/BaseFont"])] = embedded
            for xobject in (current.get("/XObject") or {}).values():
                resources_of = xobject.get_object().get("/Resources")
                if resources_of is not None:
                    pending.append(resources_of)
    return fonts


def test_each_script_gets_a_font_that_has_it() -> None:
    if not installed("DejaVuSans", *CJK_FONTS):
        pytest.skip("the PDF fonts are not installed")
    assert font_runs("Chloé Martin") == [("Helvetica", "Chloé Martin")]
    assert font_runs("Łukasz Ćwik") == [("DejaVuSans", "Łukasz Ćwik")]
    assert font_runs("Алексей Жуков") == [("DejaVuSans", "Алексей Жуков")]
    assert font_runs("佐藤 太郎") == [("IPAGothic", "佐藤 太郎")]  # Japanese forms first
    assert font_runs("刘德华") == [("WenQuanYiMicroHei", "刘德华")]  # simplified Chinese: not in IPA
    assert font_runs("김민준") == [("NanumGothic", "김민준")]  # Hangul: Korean forms, not WenQuanYi's
    assert font_runs("Kim 김민준 佐藤") == [("NanumGothic", "Kim 김민준 佐藤")]
    # One font per name whenever one font has every letter of it: never a change mid-name.
    assert font_runs("Satō Tarō") == [("DejaVuSans", "Satō Tarō")]
    assert font_runs("Taro 佐藤") == [("IPAGothic", "Taro 佐藤")]
    assert font_runs("Алексей 佐藤", bold=True) == [("IPAGothic", "Алексей 佐藤")]
    # Only a text no single font covers is split, each part in a font that has it.
    assert font_runs("Șerban 佐藤") == [("DejaVuSans", "Șerban "), ("IPAGothic", "佐藤")]


@needs_fonts
@pytest.mark.django_db
@pytest.mark.parametrize("identifier", ["seating_cards_pdf", "score_sheets_pdf"])
def test_the_pdfs_print_every_script_with_embedded_fonts(world_names: Tournament, identifier: str) -> None:
    data = render(identifier, world_names).data
    text = pdfium_text(data)
    for name in NAMES:
        assert name in text, (identifier, name)
    fonts = font_files(data)
    used = {name.split("+")[-1] for name in fonts}  # a subset's name: /AAAAAA+IPAGothic
    assert {"IPAGothic", "NanumGothic"} <= used and any(name.startswith("DejaVuSans") for name in used), fonts
    # Every font but the standard Helvetica travels in the file.
    assert all(embedded for name, embedded in fonts.items() if not name.startswith("/Helvetica")), fonts


@pytest.mark.django_db
def test_workbooks_and_csv_keep_every_script(world_names: Tournament) -> None:
    for identifier in ("seating_xlsx", "standings_xlsx"):
        book = workbook(render(identifier, world_names).data)
        cells = {
            cell for sheet in book.worksheets for row in rows(sheet) for cell in row if isinstance(cell, str)
        }
        assert set(NAMES) <= {part for cell in cells for part in (cell, *cell.split(", "))}, identifier
    # The CSV exports are zips of one UTF-8 file per sheet.
    files = [
        data
        for identifier in ("standings_csv", "seating_csv")
        for data in zip_members(render(identifier, world_names).data).values()
    ]
    assert set(NAMES) <= {
        part for data in files for row in csv_rows(data) for cell in row for part in (cell, *cell.split(", "))
    }
