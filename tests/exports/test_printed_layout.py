"""The printed layout of the score sheets and seating cards, read back from the PDF as PDFium sees it
(each character with its font, size and box): real-world names, in English, German, Russian and Japanese,
are never smaller than 8 points and never leave their cell, no two texts of a page overlap, and a document
is printed in one font family (plus one CJK font where CJK text is)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from django.utils import translation

from exports.exporters.printable import (
    CARD_HEIGHT,
    CARD_ORIGINS,
    CARD_PADDING,
    CARD_TABLE_TOP,
    CARD_WIDTH,
    GRID_TOP,
    HAND_ROWS,
    ROW,
    SEAT_COLUMN,
    SEAT_TOP,
    TOTAL_ROWS,
    grid_x,
    score_sheets_pdf,
    seating_cards_pdf,
)
from tests.conftest import seat_table
from tournament.models import Player, Round, Tournament

LATIN_TABLE = [
    "Pieter van der Heijden-de Vries",
    "Aleksandr Konstantinopolsky",
    "Nurul Aisyah binti Ismail",
    "Chloé Dubois-Lefèvre",
]
WORLD_TABLE = [
    "Александра Константинопольская",
    "長谷川 麻衣子",
    "Maximilian Zimmermann",
    "Siobhán Ní Mhaoldhomhnaigh",
]
LANGUAGES = ["en", "de", "ru", "ja"]
CJK_FAMILIES = {"IPAGothic", "WenQuanYiMicroHei", "NanumGothic"}
TOUCH = 0.05  # points: boxes that share only an edge do not overlap


@dataclass(frozen=True)
class Char:
    text: str
    font: str
    size: float
    box: tuple[float, float, float, float]  # left, bottom, right, top


def page_chars(data: bytes) -> list[list[Char]]:
    """Each page's printed characters (not spaces) with their font's family, size and box."""
    document = pypdfium2.PdfDocument(data)
    pages: list[list[Char]] = []
    try:
        for number in range(len(document)):
            textpage = document[number].get_textpage()
            chars = []
            for index in range(textpage.count_chars()):
                text = textpage.get_text_range(index, 1).replace("\ufffe", "-")  # a hyphen ending a line
                if not text.strip():
                    continue
                buffer = ctypes.create_string_buffer(256)
                flags = ctypes.c_int()
                pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, buffer, 256, ctypes.byref(flags))
                font = buffer.value.decode().split("+")[-1].removesuffix("-Bold")
                size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index)
                left, bottom, right, top = textpage.get_charbox(index, loose=True)
                chars.append(Char(text, font, size, (left, bottom, right, top)))
            pages.append(chars)
    finally:
        document.close()
    return pages


def occurrences(chars: list[Char], name: str) -> list[list[Char]]:
    """The characters of each printing of ``name`` on a page (on one line or two, whole or cut with an
    ellipsis after at least its first five letters)."""
    letters = "".join(name.split())
    found: list[list[Char]] = []
    text = "".join(char.text for char in chars)
    start = 0
    while start < len(text):
        matches = [
            (at, length)
            for length in range(len(letters) - 1, 4, -1)
            if (at := text.find(letters[:length] + "…", start)) >= 0
        ]
        if (whole := text.find(letters, start)) >= 0:
            matches.append((whole, len(letters) - 1))  # the last letter stands where an ellipsis would
        if not matches:
            break
        at, length = min(matches, key=lambda match: (match[0], -match[1]))
        found.append(chars[at : at + length + 1])
        start = at + length + 1
    return found


def inside(box: tuple[float, float, float, float], cell: tuple[float, float, float, float]) -> bool:
    return (
        box[0] >= cell[0] - TOUCH
        and box[1] >= cell[1] - TOUCH
        and box[2] <= cell[2] + TOUCH
        and box[3] <= cell[3] + TOUCH
    )


def lines_of(chars: list[Char]) -> list[tuple[float, float, float, float]]:
    """The boxes of the page's runs of text: characters in a row at one size, each next to the last."""
    boxes: list[tuple[float, float, float, float]] = []
    last: Char | None = None
    for char in chars:
        joined = (
            last is not None
            and abs(char.box[1] - last.box[1]) < char.size
            and abs(char.size - last.size) < 0.01
            and -1 <= char.box[0] - last.box[2] < char.size
        )
        if joined:
            left, bottom, right, top = boxes[-1]
            boxes[-1] = (
                min(left, char.box[0]),
                min(bottom, char.box[1]),
                max(right, char.box[2]),
                max(top, char.box[3]),
            )
        else:
            boxes.append(char.box)
        last = char
    return boxes


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > TOUCH and min(a[3], b[3]) - max(a[1], b[1]) > TOUCH


def assert_no_overlap(pages: list[list[Char]]) -> None:
    for number, chars in enumerate(pages):
        boxes = lines_of(chars)
        clashes = [(a, b) for a, b in combinations(boxes, 2) if overlaps(a, b)]
        assert not clashes, (number, clashes[:3])


def assert_one_family(pages: list[list[Char]]) -> None:
    families = {char.font for chars in pages for char in chars}
    latin = families - CJK_FAMILIES
    assert len(latin) == 1 and len(families & CJK_FAMILIES) <= 1, families
    cjk = any(ord(char.text) >= 0x3000 for chars in pages for char in chars)
    assert not (families & CJK_FAMILIES) or cjk, families


def assert_names_fit(pages: list[list[Char]], cells: dict[str, list[Any]], count: int) -> None:
    """Every name printed ``count`` times a page it is on, each time at 8 points or more and inside one
    of its cells."""
    for name, allowed in cells.items():
        for number, chars in enumerate(pages):
            printed = occurrences(chars, name)
            if not printed:
                continue
            assert len(printed) == count, (number, name, len(printed))
            for letters in printed:
                assert all(char.size >= 8 - 0.01 for char in letters), (name, [c.size for c in letters])
                assert any(all(inside(char.box, cell) for char in letters) for cell in allowed[number]), (
                    name,
                    [char.box for char in letters],
                    allowed[number],
                )


@pytest.fixture
def long_names(tournament: Tournament) -> Tournament:
    """Hanchan 1 at two tables: one of long Latin names, one of long names in Cyrillic, Japanese and
    Irish; a long venue."""
    tournament.venue = "Sporthal De Kleine Wereld, Amsterdam-Noord"
    tournament.save()
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.SEATED)
    for number, names in ((1, LATIN_TABLE), (2, WORLD_TABLE)):
        players = [Player.objects.create(tournament=tournament, name=name) for name in names]
        seat_table(first, number, players)
    return tournament


def sheet_cells() -> list[tuple[float, float, float, float]]:
    """The boxes a seat's name may print in on a score sheet: its seat at the top, the space under its
    signature line."""
    xs = grid_x()
    bottom = GRID_TOP - (1 + HAND_ROWS + len(TOTAL_ROWS)) * ROW
    sign_y = bottom - 46
    referee_y = sign_y - 50
    return [
        (xs[3 + index], SEAT_TOP - 44, xs[3 + index] + SEAT_COLUMN, SEAT_TOP - 6) for index in range(4)
    ] + [(xs[3 + index], referee_y + 14, xs[3 + index] + SEAT_COLUMN, sign_y) for index in range(4)]


def card_cells() -> list[tuple[float, float, float, float]]:
    """The band of each card where the player's name prints: below the tournament's name, above the
    table of hanchan, within the padding."""
    return [
        (
            x + CARD_PADDING,
            y + CARD_TABLE_TOP + 8,
            x + CARD_WIDTH - CARD_PADDING,
            y + CARD_HEIGHT - CARD_PADDING,
        )
        for x, y in CARD_ORIGINS
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("table", [1, 2])
def test_score_sheet_names_stay_8_points_in_their_seat(
    long_names: Tournament, language: str, table: int
) -> None:
    names = LATIN_TABLE if table == 1 else WORLD_TABLE
    with translation.override(language):
        data = score_sheets_pdf(long_names, hanchan=1, table=table, base_url="http://testserver").data
    pages = page_chars(data)
    cells = sheet_cells()
    assert_names_fit(pages, {name: [[cells[i], cells[4 + i]]] for i, name in enumerate(names)}, count=2)
    assert_no_overlap(pages)
    assert_one_family(pages)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_seating_card_names_stay_8_points_on_their_card(long_names: Tournament, language: str) -> None:
    with translation.override(language):
        data = seating_cards_pdf(long_names, base_url="http://testserver").data
    pages = page_chars(data)
    assert_names_fit(pages, {name: [card_cells()] * len(pages) for name in LATIN_TABLE + WORLD_TABLE}, 1)
    assert_no_overlap(pages)
    assert_one_family(pages)


@pytest.mark.django_db
def test_a_latin_sheet_in_english_keeps_helvetica_and_a_cyrillic_one_is_all_dejavu(
    long_names: Tournament,
) -> None:
    latin = page_chars(score_sheets_pdf(long_names, hanchan=1, table=1).data)
    assert {char.font for chars in latin for char in chars} == {"Helvetica"}
    world = page_chars(score_sheets_pdf(long_names, hanchan=1, table=2).data)
    fonts = {char.font for chars in world for char in chars}
    assert "Helvetica" not in fonts and "DejaVuSans" in fonts, fonts


def test_a_bold_name_cut_at_eight_points_prints_whole_in_the_regular_weight() -> None:
    """In a document drawn in DejaVu, a single long word too wide in bold at 8 points for a seat cell
    prints in the regular weight when that holds more of it; a name that fits keeps the bold."""
    from exports.exporters.pdf_text import document_fonts, fit_name, fit_name_weighted, unicode_font

    assert unicode_font() is not None, "DejaVu is installed with the suite's packages"
    width = SEAT_COLUMN - 8
    with document_fonts(True):
        for word in ("Konstantinopolsky", "Mhaoldhomhnaigh"):
            assert fit_name(word, 11, width, bold=True) == (8, [word[:-2] + "\N{HORIZONTAL ELLIPSIS}"])
            assert fit_name_weighted(word, 11, width, bold=True) == (8.5, [word], False)
        _size, lines, bold = fit_name_weighted("Константинопольская", 11, width, bold=True)
        assert not bold and lines == ["Константинопол\N{HORIZONTAL ELLIPSIS}"]  # one letter more than bold
        assert fit_name_weighted("Ana Lee", 11, width, bold=True) == (11, ["Ana Lee"], True)
