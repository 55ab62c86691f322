"""Printable PDFs: the score sheets referees carry to the tables, and each player's seating card.

Drawn with reportlab's canvas directly (no layout engine): the parts every page shares are drawn once as a
form (a PDF XObject) and placed on each page, so that thousands of pages render in seconds. Written with
``invariant=1``: the same data gives the same bytes.

Fonts, chosen per run of text (docs/languages.md): Helvetica for text that Windows-1252 can write (most
European names); for anything else DejaVu Sans (Debian's fonts-dejavu-core: accented Latin, Cyrillic,
Greek) and, for the characters DejaVu lacks, one CJK font for the whole text: Nanum Gothic (Debian's
fonts-nanum, Korean glyph forms) for a text with Hangul in it; otherwise IPA Gothic (Debian's
fonts-ipafont-gothic, Japanese glyph forms, kanji and kana) when it has every CJK character of the text,
else WenQuanYi Micro Hei (fonts-wqy-microhei, simplified Chinese), else Nanum Gothic. All three are
TrueType outlines, which reportlab embeds (subset); Noto Sans CJK (fonts-noto-cjk) is CFF-flavoured
OpenType, which reportlab's TTFont cannot read. scripts/ensure-packages.sh installs the four; a font that
is missing leaves its
characters as boxes and the rest prints. The same fonts print the sheets' and cards' own words in the
reader's language (the language active when they render: the request's, or the export job's).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from functools import cache
from operator import itemgetter
from pathlib import Path

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from django_countries import countries
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from exports.exporters.base import PDF, Exporter, ExportFile, Progress, no_progress, register, site_address
from tournament.core import qr
from tournament.core.collation import by_name
from tournament.core.names import HANGUL, scripts_of
from tournament.models import Player, Round, Seat, StaffRole, Tournament
from tournament.queries import access
from tournament.services.player_login import LINK_HOURS, Credentials

WINDS = Seat.Wind.labels  # East to North, translated when drawn
PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 36.0
GREY = 0.45
# (name registered with reportlab, the candidate files, the subfont of a TrueType collection)
UNICODE_FONTS = (
    (
        "DejaVuSans",
        (
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/local/share/fonts/DejaVuSans.ttf",
        ),
        0,
    ),
    (
        "DejaVuSans-Bold",
        (
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
            "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
        ),
        0,
    ),
    ("IPAGothic", ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",), 0),
    ("WenQuanYiMicroHei", ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",), 0),
    ("NanumGothic", ("/usr/share/fonts/truetype/nanum/NanumGothic.ttf",), 0),
)
CJK_FONTS = ("IPAGothic", "WenQuanYiMicroHei", "NanumGothic")  # in the order tried (the module's docstring)
KOREAN_FONT = (
    "NanumGothic"  # tried first for a text with Hangul in it (WenQuanYi has Hangul, in Chinese style)
)


@cache
def registered_font(name: str) -> frozenset[int] | None:
    """Register the font ``name`` (of UNICODE_FONTS) with reportlab once; the code points it has, or
    None when it is not installed."""
    for font, paths, subfont in UNICODE_FONTS:
        if font != name:
            continue
        for path in paths:
            if Path(path).is_file():
                ttf = TTFont(font, path, subfontIndex=subfont)
                pdfmetrics.registerFont(ttf)
                return frozenset(ttf.face.charToGlyph)
    return None


def unicode_font(bold: bool = False) -> str | None:
    """The name of the registered font for text beyond Windows-1252, or None when none is installed."""
    name = "DejaVuSans-Bold" if bold else "DejaVuSans"
    if registered_font(name) is not None:
        return name
    return "DejaVuSans" if bold and registered_font("DejaVuSans") is not None else None


def cjk_font(text: str) -> str | None:
    """The CJK font for the characters of ``text`` that DejaVu Sans lacks: the first installed one of
    CJK_FONTS (KOREAN_FONT first when the text has Hangul) that has all of them (else the first installed
    one)."""
    latin = registered_font("DejaVuSans") or frozenset()
    wanted = {ord(c) for c in text if ord(c) not in latin and not c.isspace()}
    order = CJK_FONTS
    if HANGUL in scripts_of(text):
        order = (KOREAN_FONT, *(font for font in CJK_FONTS if font != KOREAN_FONT))
    installed = [(font, registered_font(font)) for font in order]
    installed = [(font, points) for font, points in installed if points is not None]
    for font, points in installed:
        if points is not None and wanted <= points:
            return font
    return installed[0][0] if installed else None


def font_runs(text: str, bold: bool = False) -> list[tuple[str, str]]:
    """``text`` as (font, part) runs, each part printable in its font, in one font whenever one has
    every character (a name never changes font mid-word: "Satō", "Sato 佐藤"): Helvetica for what
    Windows-1252 writes, else DejaVu Sans, else the text's CJK font (which has Latin and Cyrillic
    letters too); only a text no single font covers is split, DejaVu Sans where it has the character
    and the CJK font where it does not (spaces stay with the run they are in)."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        pass
    else:
        return [("Helvetica-Bold" if bold else "Helvetica", text)]
    base = unicode_font(bold)
    if base is None:
        return [("Helvetica-Bold" if bold else "Helvetica", text)]
    has = registered_font(base) or frozenset()
    wanted = {ord(c) for c in text if not c.isspace()}
    if wanted <= has:
        return [(base, text)]
    cjk = cjk_font(text)
    if cjk is not None and wanted <= (registered_font(cjk) or frozenset()):
        return [(cjk, text)]
    runs: list[tuple[str, str]] = []
    for character in text:
        font = base if ord(character) in has or cjk is None or character.isspace() else cjk
        if runs and (runs[-1][0] == font or character.isspace()):
            runs[-1] = (runs[-1][0], runs[-1][1] + character)
        else:
            runs.append((font, character))
    return runs


def font_for(text: str, bold: bool = False) -> str:
    """The font of the first run of ``text`` (font_runs)."""
    return font_runs(text, bold)[0][0] if text else ("Helvetica-Bold" if bold else "Helvetica")


def draw(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    size: float = 10,
    *,
    bold: bool = False,
    align: str = "left",
    max_width: float | None = None,
) -> None:
    """Text at (x, y), each run in a font that has its characters (font_runs), shrunk to ``max_width``
    when it is too long. ``text`` may be a lazy translation: it is read in the active language."""
    runs = font_runs(str(text), bold)
    width = sum(pdfmetrics.stringWidth(part, font, size) for font, part in runs)
    if max_width is not None and width > max_width:
        size = max(5.0, size * max_width / width)
        width = sum(pdfmetrics.stringWidth(part, font, size) for font, part in runs)
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    for font, part in runs:
        canvas.setFont(font, size)
        canvas.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, font, size)


def seating_of(
    tournament: Tournament, *, hanchan: int | None = None, table: int | None = None
) -> list[tuple[int, int, list[str]]]:
    """(hanchan, table, the four names from East to North) of every table (of one hanchan, or one
    table of it), in order."""
    tables: dict[tuple[int, int], list[str]] = {}
    seats = Seat.objects.filter(round__tournament=tournament)
    if hanchan is not None:
        seats = seats.filter(round__number=hanchan)
    if table is not None:
        seats = seats.filter(table__number=table)
    rows = seats.order_by("round__number", "table__number", "wind").values_list(
        "round__number", "table__number", "wind", "player__name"
    )
    for round_number, table, wind, name in rows:
        tables.setdefault((round_number, table), ["", "", "", ""])[wind] = name
    return [(round_number, table, names) for (round_number, table), names in tables.items()]


def new_canvas(buffer: io.BytesIO, title: str) -> Canvas:
    canvas = Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Riichi tournament manager")
    canvas.setCreator("Riichi tournament manager")
    return canvas


def draw_qr(canvas: Canvas, x: float, y: float, size: float, text: str) -> None:
    """A QR code of ``text``, ``size`` points on a side with its quiet zone, its lower left corner at
    (``x``, ``y``): one black rectangle per run of dark modules (``tournament.core.qr.dark_runs``)."""
    module = size / qr.size(text)
    canvas.saveState()
    canvas.setFillGray(0)
    for row, column, length in qr.dark_runs(text):
        canvas.rect(
            x + column * module, y + size - (row + 1) * module, length * module, module, stroke=0, fill=1
        )
    canvas.restoreState()


# ---------------------------------------------------------------------------------------------------
# Score sheets

SEAT_TOP = 770.0
GRID_TOP = 700.0
HAND_ROWS = 18
ROW = 20.0
# Columns of the hand grid: number, round, result, the four seats, riichi.
GRID_COLUMNS = (
    ("#", 22.0),
    (pgettext_lazy("hand of a hanchan", "Round"), 48.0),
    (gettext_lazy("Result (han / fu)"), 113.0),
)
SEAT_COLUMN = 75.0
RIICHI_COLUMN = 40.0
TOTAL_ROWS = (
    gettext_lazy("Riichi sticks"),
    gettext_lazy("Final points"),
    gettext_lazy("Place"),
    gettext_lazy("Score"),
)
SHEET_QR_SIZE = 72.0  # points (25 mm): about 2 mm a module, read by a phone at arm's length


def grid_x() -> list[float]:
    """Left edges of the grid's columns, and the right edge last."""
    xs = [MARGIN]
    for _title, width in GRID_COLUMNS:
        xs.append(xs[-1] + width)
    for _seat in range(4):
        xs.append(xs[-1] + SEAT_COLUMN)
    xs.append(xs[-1] + RIICHI_COLUMN)
    return xs


def draw_sheet_form(canvas: Canvas) -> None:
    """Everything a score sheet page shares: frames, grid, labels, signature lines."""
    xs = grid_x()
    seat_x = xs[3:7]
    canvas.setLineWidth(0.6)
    # The seats: the wind above each seat column.
    winds = [str(wind) for wind in WINDS]
    for index, wind in enumerate(winds):
        canvas.setFillGray(GREY)
        draw(canvas, seat_x[index] + SEAT_COLUMN / 2, SEAT_TOP, wind.upper(), 8, bold=True, align="center")
    canvas.setFillGray(0)
    canvas.rect(seat_x[0], SEAT_TOP - 44, 4 * SEAT_COLUMN, 38)
    for x in seat_x[1:]:
        canvas.line(x, SEAT_TOP - 44, x, SEAT_TOP - 6)
    draw(canvas, MARGIN, SEAT_TOP - 22, _("Players"), 10, bold=True)
    draw(canvas, MARGIN, SEAT_TOP - 34, _("in their seats"), 8, max_width=seat_x[0] - MARGIN - 4)
    # The hand grid: header row, hand rows, total rows.
    rows = 1 + HAND_ROWS + len(TOTAL_ROWS)
    bottom = GRID_TOP - rows * ROW
    canvas.rect(xs[0], bottom, xs[-1] - xs[0], rows * ROW)
    for index in range(1, rows):
        y = GRID_TOP - index * ROW
        canvas.setLineWidth(1.2 if index in (1, 1 + HAND_ROWS) else 0.4)
        canvas.line(xs[0], y, xs[-1], y)
    canvas.setLineWidth(0.6)
    hands_bottom = GRID_TOP - (1 + HAND_ROWS) * ROW
    for index, x in enumerate(xs[1:-1], 1):
        # The total rows' titles span the number, round and result columns.
        canvas.line(x, hands_bottom if index < 3 else bottom, x, GRID_TOP)
    header_y = GRID_TOP - ROW + 6
    for (title, _width), x, right in zip(GRID_COLUMNS, xs, xs[1:], strict=False):
        draw(canvas, (x + right) / 2, header_y, title, 8, bold=True, align="center", max_width=right - x - 4)
    for index, wind in enumerate(winds):
        draw(
            canvas,
            (seat_x[index] + seat_x[index] + SEAT_COLUMN) / 2,
            header_y,
            wind,
            8,
            bold=True,
            align="center",
        )
    draw(
        canvas,
        (xs[-2] + xs[-1]) / 2,
        header_y,
        _("Riichi"),
        8,
        bold=True,
        align="center",
        max_width=RIICHI_COLUMN - 4,
    )
    for index in range(HAND_ROWS):
        y = GRID_TOP - (index + 2) * ROW + 6
        draw(canvas, (xs[0] + xs[1]) / 2, y, str(index + 1), 8, align="center")
    for index, title in enumerate(TOTAL_ROWS):
        y = GRID_TOP - (1 + HAND_ROWS + index + 1) * ROW + 6
        draw(canvas, xs[0] + 4, y, title, 9, bold=True, max_width=xs[3] - xs[0] - 8)
    # Signatures: one line under each seat, then the referee's.
    sign_y = bottom - 46
    draw(canvas, MARGIN, sign_y + 4, _("Signatures"), 10, bold=True)
    for x in seat_x:
        canvas.line(x + 4, sign_y, x + SEAT_COLUMN - 4, sign_y)
    referee_y = sign_y - 50
    draw(canvas, MARGIN, referee_y + 4, _("Referee"), 10, bold=True, max_width=seat_x[0] - MARGIN - 4)
    canvas.line(seat_x[0] + 4, referee_y, seat_x[1] + SEAT_COLUMN - 4, referee_y)
    draw(canvas, seat_x[2] + 4, referee_y + 4, pgettext("time of day", "Time"), 10, bold=True, max_width=28)
    canvas.line(seat_x[2] + 34, referee_y, seat_x[3] + SEAT_COLUMN - 4, referee_y)
    canvas.setFillGray(GREY)
    draw(canvas, seat_x[0] + 4, referee_y - 12, _("name and signature"), 7)
    advice = _(
        "Write each hand's point changes per seat, riichi sticks included; the final points add up to "
        "the starting points less the riichi sticks left. All four players sign."
    )
    for line, text in enumerate(reversed(two_lines(advice, 7, PAGE_WIDTH - 2 * MARGIN))):
        draw(canvas, MARGIN, MARGIN + line * 9, text, 7, max_width=PAGE_WIDTH - 2 * MARGIN)
    canvas.setFillGray(0)


def text_width(text: str, size: float, bold: bool = False) -> float:
    return sum(pdfmetrics.stringWidth(part, font, size) for font, part in font_runs(text, bold))


def two_lines(text: str, size: float, width: float) -> list[str]:
    """``text`` on one line if it fits in ``width``, else broken in two at the space nearest its middle
    (a translation may be longer than the English)."""
    if text_width(text, size) <= width or " " not in text.strip():
        return [text]
    middle = len(text) // 2
    spaces = [index for index, character in enumerate(text) if character == " "]
    cut = min(spaces, key=lambda index: abs(index - middle))
    return [text[:cut], text[cut + 1 :]]


def draw_sheet_page(
    canvas: Canvas,
    tournament: Tournament,
    round_number: int,
    table: int,
    names: list[str],
    base_url: str | None = None,
) -> None:
    """One table's sheet; with ``base_url`` (the site's address), a QR code of the table's entry page
    in the bottom right corner, for the referee's phone."""
    xs = grid_x()
    seat_x = xs[3:7]
    draw(canvas, MARGIN, PAGE_HEIGHT - MARGIN - 12, tournament.name, 14, bold=True, max_width=330)
    draw(
        canvas,
        PAGE_WIDTH - MARGIN,
        PAGE_HEIGHT - MARGIN - 14,
        _("Hanchan {hanchan}  ·  Table {table}").format(hanchan=round_number, table=table),
        16,
        bold=True,
        align="right",
    )
    when = formats.date_format(tournament.starts_on, "DATE_FORMAT")
    draw(canvas, MARGIN, PAGE_HEIGHT - MARGIN - 28, f"{when}  {tournament.venue}".strip(), 8)
    for index, name in enumerate(names):
        draw(canvas, seat_x[index] + 4, SEAT_TOP - 28, name, 10, bold=True, max_width=SEAT_COLUMN - 8)
    bottom = GRID_TOP - (1 + HAND_ROWS + len(TOTAL_ROWS)) * ROW
    for index, name in enumerate(names):
        draw(canvas, seat_x[index] + 4, bottom - 58, name, 7, max_width=SEAT_COLUMN - 8)
    if base_url:
        address = base_url.rstrip("/") + reverse("scoring:sheet", args=[tournament.slug, round_number, table])
        left = PAGE_WIDTH - MARGIN - SHEET_QR_SIZE
        draw_qr(canvas, left, MARGIN + 12, SHEET_QR_SIZE, address)
        canvas.setFillGray(GREY)
        draw(canvas, left - 4, MARGIN + 12 + SHEET_QR_SIZE / 2, _("Enter this sheet:"), 7, align="right")
        canvas.setFillGray(0)


@register
class ScoreSheetsPDFExporter(Exporter):
    identifier = "score_sheets_pdf"
    position = 50
    verbose_name = gettext_lazy("Printable score sheets (PDF)")
    description = gettext_lazy(
        "One sheet per table per hanchan: the four players in their seats, hand rows, signatures."
    )
    permission = StaffRole.Role.REFEREE

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        return score_sheets_pdf(tournament, progress=progress, base_url=site_address() or None)


def score_sheets_pdf(
    tournament: Tournament,
    *,
    hanchan: int | None = None,
    table: int | None = None,
    progress: Progress = no_progress,
    base_url: str | None = None,
) -> ExportFile:
    """The printable score sheets of every table, of one hanchan, or of one table of it. With
    ``base_url`` (the site's address, from the request that asks for them), each sheet carries a QR code
    of its table's entry page."""
    tables = seating_of(tournament, hanchan=hanchan, table=table)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, _("{tournament}: score sheets").format(tournament=tournament.name))
    canvas.beginForm("sheet")
    draw_sheet_form(canvas)
    canvas.endForm()
    for index, (round_number, number, names) in enumerate(tables):
        canvas.doForm("sheet")
        draw_sheet_page(canvas, tournament, round_number, number, names, base_url)
        canvas.showPage()
        if index % 100 == 99:
            progress(index / len(tables))
    if not tables:
        text = _("{tournament}: no table is seated yet.").format(tournament=tournament.name)
        draw(canvas, MARGIN, PAGE_HEIGHT / 2, text, 12)
        canvas.showPage()
    canvas.save()
    suffix = "" if hanchan is None else f"-hanchan-{hanchan}" + ("" if table is None else f"-table-{table}")
    return ExportFile(f"{tournament.slug}-score-sheets{suffix}.pdf", PDF, buffer.getvalue())


# ---------------------------------------------------------------------------------------------------
# Seating cards: four A6 cards on each A4 page

CARD_WIDTH, CARD_HEIGHT = PAGE_WIDTH / 2, PAGE_HEIGHT / 2
CARD_PADDING = 22.0
CARD_ORIGINS = ((0.0, CARD_HEIGHT), (CARD_WIDTH, CARD_HEIGHT), (0.0, 0.0), (CARD_WIDTH, 0.0))
CARD_TABLE_TOP = CARD_HEIGHT - 96


def card_row_height(rounds: list[int], signed: bool) -> float:
    """The height of a row of the card's table: its rows end above the sign-in block at the bottom
    (``signed``: a QR code and its lines) or above the card's edge, 16 points at most."""
    bottom = CARD_PADDING + (CARD_QR_SIZE + 8 if signed else 16)
    return min(16.0, (CARD_TABLE_TOP - bottom) / max(len(rounds) + 1, 1))


def draw_card_form(canvas: Canvas, rounds: list[int], signed: bool) -> None:
    """A card's frame and its table of the ``rounds`` (hanchan numbers), drawn at the origin (the bottom
    left of the card)."""
    row = card_row_height(rounds, signed)
    canvas.setLineWidth(0.3)
    canvas.setDash(2, 3)
    canvas.rect(0, 0, CARD_WIDTH, CARD_HEIGHT)
    canvas.setDash()
    left, right = CARD_PADDING, CARD_WIDTH - CARD_PADDING
    canvas.setLineWidth(0.6)
    header_y = CARD_TABLE_TOP
    canvas.line(left, header_y - 4, right, header_y - 4)
    columns = (left + 4, left + 90, left + 160)
    titles = (_("Hanchan"), _("Table"), _("Seat"))
    for x, title, right in zip(columns, titles, (*columns[1:], CARD_WIDTH - CARD_PADDING), strict=True):
        draw(canvas, x, header_y, title, 9, bold=True, max_width=right - x - 6)
    canvas.setLineWidth(0.3)
    for line, number in enumerate(rounds, 1):
        y = header_y - line * row
        draw(canvas, columns[0], y, str(number), min(10, row - 4))
        canvas.line(left, y - 4, right, y - 4)


def draw_card(
    canvas: Canvas,
    tournament: Tournament,
    name: str,
    country: str,
    places: dict[int, tuple[int, int]],
    rounds: list[int],
    signed: bool,
) -> None:
    row = card_row_height(rounds, signed)
    left = CARD_PADDING
    draw(canvas, left, CARD_HEIGHT - CARD_PADDING - 10, tournament.name, 9, max_width=CARD_WIDTH - 2 * left)
    draw(canvas, left, CARD_HEIGHT - CARD_PADDING - 36, name, 16, bold=True, max_width=CARD_WIDTH - 2 * left)
    if country:
        draw(canvas, left, CARD_HEIGHT - CARD_PADDING - 52, country, 9)
    columns = (left + 90, left + 160)
    size = min(11, row - 3)
    for line, number in enumerate(rounds, 1):
        y = CARD_TABLE_TOP - line * row
        if number in places:
            table, wind = places[number]
            draw(canvas, columns[0], y, str(table), size, bold=True)
            draw(canvas, columns[1], y, str(WINDS[wind]), size, bold=True)
        else:
            draw(canvas, columns[0], y, "-", size)


@register
class SeatingCardsPDFExporter(Exporter):
    identifier = "seating_cards_pdf"
    position = 60
    verbose_name = gettext_lazy("Seating cards (PDF)")
    description = gettext_lazy(
        "A card per player with their table and seat in every hanchan, four to a page."
    )
    permission = StaffRole.Role.REFEREE

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        return seating_cards_pdf(tournament, progress=progress, base_url=site_address())


CARD_QR_SIZE = 118.0  # points: about 4 cm, quiet zone included


ADDRESS_SIZES = (8.0, 7.5, 7.0)  # points: the sign-in address prints at 8, shrinks to 7 at the least


def address_breaks(address: str) -> list[str]:
    """``address`` in the pieces a printed line may break between, as the Chicago Manual of Style breaks
    a URL: before a slash, a dot or a hyphen (which then starts the next line and cannot be read as the
    sentence's punctuation or a hyphenation), never inside "://" nor before the closing slash."""
    pieces = [""]
    for index, character in enumerate(address):
        before = address[index - 1] if index else ""
        last = index == len(address) - 1
        if pieces[-1] and character in "/.-" and before not in "/:" and not last:
            pieces.append("")
        pieces[-1] += character
    return pieces


def wrap_address(address: str, width: float, fits: int) -> tuple[float, list[str]]:
    """The font size and lines that print ``address`` within ``width`` points: the largest of
    ADDRESS_SIZES that needs no more than ``fits`` lines, else the smallest in as many lines as it takes;
    lines break where ``address_breaks`` allows, a piece too long for a line by itself between characters.
    Never wider than ``width``: the address is typed from the card, so it wraps rather than shrinks away."""
    font = font_for(address)
    lines: list[str] = []
    for size in ADDRESS_SIZES:
        lines = [""]
        for piece in address_breaks(address):
            for character in piece if pdfmetrics.stringWidth(piece, font, size) > width else [piece]:
                if lines[-1] and pdfmetrics.stringWidth(lines[-1] + character, font, size) > width:
                    lines.append("")
                lines[-1] += character
        if len(lines) <= fits:
            return size, lines
    return ADDRESS_SIZES[-1], lines


def draw_card_sign_in(
    canvas: Canvas, tournament: Tournament, player: int, base_url: str, issued: Credentials | None
) -> None:
    """The bottom of a card: a QR code of the player's one-time sign-in link and their PIN, when new
    sign-in codes are printed (in either entry mode: the link lands the player on their own page,
    signed in; when the players enter the results the card says so), else a QR code of the player's
    public page."""
    x = CARD_WIDTH - CARD_PADDING - CARD_QR_SIZE
    width = x - 2 * CARD_PADDING + 10
    top = CARD_PADDING + CARD_QR_SIZE - 20
    if issued is not None:
        path = reverse("player_link", kwargs={"slug": tournament.slug, "token": issued.token})
        players_enter = tournament.entry_mode == Tournament.EntryMode.PLAYERS
        # One sentence in three printed lines: each line is a message, so that a translation can break
        # where its language reads best (a line may be left empty).
        text_lines = [
            _("Enter and confirm your table's results:")
            if players_enter
            else _("Your results and next seats:"),
            _("scan the code (works once,"),
            ngettext(
                "for {hours} hour), or sign in at", "for {hours} hours), or sign in at", LINK_HOURS
            ).format(hours=LINK_HOURS),
        ]
        for line, text in enumerate(text_lines):
            draw(canvas, CARD_PADDING, top - line * 14, text, 8, max_width=width)
        # The address to type: at 8 points, wrapped (7 points at the least) down to the PIN's line.
        address = base_url + reverse("player_login", kwargs={"slug": tournament.slug})
        size, lines = wrap_address(address, width, fits=3)
        y = top - len(text_lines) * 14
        for line in lines:
            draw(canvas, CARD_PADDING, y, line, size)
            y -= size + 2
        draw(
            canvas,
            CARD_PADDING,
            max(y - 8, CARD_PADDING),
            _("PIN {pin}").format(pin=issued.pin),
            13,
            bold=True,
        )
    else:
        path = reverse("tournament:player", kwargs={"slug": tournament.slug, "player_id": player})
        for line, text in enumerate((_("Your results and next seats:"), _("scan the code."))):
            draw(canvas, CARD_PADDING, top - line * 14, text, 8, max_width=width)
    draw_qr(canvas, x, CARD_PADDING, CARD_QR_SIZE, base_url + path)


def seating_cards_pdf(
    tournament: Tournament,
    *,
    hanchan: int | None = None,
    progress: Progress = no_progress,
    base_url: str = "",
    credentials: Mapping[int, Credentials] | None = None,
) -> ExportFile:
    """A card per player with their table and seat in every hanchan; or, for one ``hanchan``, a card per
    player seated in it with that hanchan first and the later ones whose seating is public (the card is
    the player's schedule as it stands: a re-seating of a later hanchan prints its own cards).

    With ``base_url`` (the site's address, from the request), a QR code at the bottom of each card: the
    player's one-time sign-in link with their PIN printed beside it, when ``credentials`` (by player pk)
    holds theirs, else the player's public page."""
    places: dict[int, dict[int, tuple[int, int]]] = {}
    seats = Seat.objects.filter(round__tournament=tournament)
    if hanchan is not None:
        public = access.public_rounds(None, tournament)  # what the players may know of later hanchan
        later = set(seats.filter(round__number__gt=hanchan).values_list("round__number", flat=True))
        rounds = [hanchan, *sorted(n for n in later if public is None or n in public)]
        seats = seats.filter(round__number__in=rounds)
    rows = seats.values_list("player_id", "round__number", "table__number", "wind")
    for player, round_number, table, wind in rows:
        places.setdefault(player, {})[round_number] = (table, wind)
    if hanchan is not None:
        places = {player: seated for player, seated in places.items() if hanchan in seated}
    else:
        numbers = (
            Round.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True)
        )
        rounds = list(range(1, max(tournament.hanchan_count, next(iter(numbers), 0)) + 1))
    country_names = dict(countries)
    players = [
        (
            pk,
            _("{name} (substitute)").format(name=name) if is_substitute else name,
            str(country_names.get(code, code)) if code else "",
            places[pk],
        )
        for pk, name, code, is_substitute in by_name(
            Player.objects.filter(tournament=tournament, pk__in=places).values_list(
                "pk", "name", "country", "is_substitute"
            ),
            itemgetter(1),
        )
    ]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, _("{tournament}: seating cards").format(tournament=tournament.name))
    canvas.beginForm("card")
    draw_card_form(canvas, rounds, bool(base_url))
    canvas.endForm()
    for page, cards in enumerate(chunks(players, 4)):
        for (x, y), (pk, name, country, seated) in zip(CARD_ORIGINS, cards, strict=False):
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm("card")
            draw_card(canvas, tournament, name, country, seated, rounds, bool(base_url))
            if base_url:
                draw_card_sign_in(canvas, tournament, pk, base_url, (credentials or {}).get(pk))
            canvas.restoreState()
        canvas.showPage()
        if page % 50 == 49:
            progress(page * 4 / len(players))
    if not players:
        text = _("{tournament}: no player is seated yet.").format(tournament=tournament.name)
        draw(canvas, MARGIN, PAGE_HEIGHT / 2, text, 12)
        canvas.showPage()
    canvas.save()
    suffix = "" if hanchan is None else f"-hanchan-{hanchan}"
    return ExportFile(f"{tournament.slug}-seating-cards{suffix}.pdf", PDF, buffer.getvalue())


Card = tuple[int, str, str, dict[int, tuple[int, int]]]


def chunks(items: list[Card], size: int) -> Iterator[list[Card]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
