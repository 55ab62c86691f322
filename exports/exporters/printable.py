"""Printable PDFs: the score sheets referees carry to the tables, and each player's seating card.

Drawn with reportlab's canvas directly (no layout engine): the parts every page shares are drawn once as a
form (a PDF XObject) and placed on each page, so that thousands of pages render in seconds. Written with
``invariant=1``: the same data gives the same bytes.

Text, fonts and the fitting of names to their cells: ``pdf_text`` (one font family a document, a name
never below 8 points). The sheets' and cards' own words print in the reader's language (the language
active when they render: the request's, or the export job's).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from operator import itemgetter

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy
from django_countries import countries
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from exports.exporters.base import PDF, Exporter, ExportFile, Progress, no_progress, register, site_address
from exports.exporters.pdf_text import (
    CAP_HEIGHT,
    LEADING,
    block_height,
    draw,
    draw_lines,
    fit_name,
    fit_name_weighted,
    one_family,
    two_lines,
    wrap_address,
)
from tournament.core import qr
from tournament.core.collation import by_name
from tournament.models import Player, Round, Seat, StaffRole, Tournament
from tournament.queries import access
from tournament.services.player_login import LINK_HOURS, Credentials

WINDS = Seat.Wind.labels  # East to North, translated when drawn
PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 36.0
GREY = 0.45


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

SEAT_TOP = 764.0  # the wind headings' baseline, clear of the date and venue line above them
GRID_TOP = 700.0
HAND_ROWS = 18
ROW = 20.0
# Columns of the hand grid: number, round, result, the four seats, riichi. A seat column holds two lines
# of a long name at 8 points (docs/exports.md): 90 points, its width taken from the round (48 to 36), the
# result (113 to 73) and the riichi (40 to 32) columns.
GRID_COLUMNS = (
    ("#", 22.0),
    (pgettext_lazy("hand of a hanchan", "Round"), 36.0),
    (gettext_lazy("Result (han / fu)"), 73.0),
)
SEAT_COLUMN = 90.0
RIICHI_COLUMN = 32.0
SEAT_NAME_SIZE = 10.0
SIGNATURE_NAME_SIZE = 8.0
CELL_PADDING = 4.0
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


Box = tuple[float, float, float, float]  # left, bottom, right, top


def seat_cell(index: int) -> Box:
    """The box of the seat ``index`` (East 0 to North 3) at the top of a sheet, where its name prints."""
    left = grid_x()[3 + index]
    return (left, SEAT_TOP - 44, left + SEAT_COLUMN, SEAT_TOP - 6)


def grid_bottom() -> float:
    return GRID_TOP - (1 + HAND_ROWS + len(TOTAL_ROWS)) * ROW


def signature_cell(index: int) -> Box:
    """The box under the signature line of the seat ``index``, where its name prints again."""
    left = grid_x()[3 + index]
    sign_y = grid_bottom() - 46
    return (left, sign_y - 34, left + SEAT_COLUMN, sign_y - 2)


def draw_name_in(canvas: Canvas, box: Box, name: str, size: float, *, bold: bool, middle: bool) -> None:
    """``name`` fitted to ``box`` (pdf_text.fit_name: two lines, then smaller, never below 8 points), in
    the middle of its height (``middle``) or at its top."""
    left, bottom, right, top = box
    fitted, lines, bold = fit_name_weighted(name, size, right - left - 2 * CELL_PADDING, bold=bold)
    height = block_height(fitted, len(lines))
    first = (top + bottom + height) / 2 if middle else top - CELL_PADDING
    draw_lines(canvas, left + CELL_PADDING, first, fitted, lines, bold=bold)


def draw_column_title(canvas: Canvas, left: float, right: float, title: str) -> None:
    """A column's title in the grid's header row: bold, at 8 points, centred; a long one (a translation)
    on two lines, then smaller down to 6 points (pdf_text.fit_name)."""
    size, lines = fit_name(title, 8, right - left - 4, bold=True, smallest=6)
    first = GRID_TOP - ROW / 2 + block_height(size, len(lines)) / 2
    for line, text in enumerate(lines):
        y = first - CAP_HEIGHT * size - line * LEADING * size
        draw(canvas, (left + right) / 2, y, text, size, bold=True, align="center")


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
    titles = [*(title for title, _width in GRID_COLUMNS), *winds, _("Riichi")]
    for title, x, right in zip(titles, xs[:-1], xs[1:], strict=True):
        draw_column_title(canvas, x, right, str(title))
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
    line = f"{when}  {tournament.venue}".strip()
    draw(canvas, MARGIN, PAGE_HEIGHT - MARGIN - 28, line, 8, max_width=PAGE_WIDTH - 2 * MARGIN)
    for index, name in enumerate(names):
        draw_name_in(canvas, seat_cell(index), name, SEAT_NAME_SIZE, bold=True, middle=True)
        draw_name_in(canvas, signature_cell(index), name, SIGNATURE_NAME_SIZE, bold=False, middle=False)
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
    texts = [
        tournament.name,
        tournament.venue,
        *document_words(),
        *(n for _r, _t, names in tables for n in names),
    ]
    data = one_family(lambda: draw_score_sheets(tournament, tables, progress, base_url), texts)
    suffix = "" if hanchan is None else f"-hanchan-{hanchan}" + ("" if table is None else f"-table-{table}")
    return ExportFile(f"{tournament.slug}-score-sheets{suffix}.pdf", PDF, data)


def document_words() -> list[str]:
    """Words every sheet and card prints, in the active language: whether they need DejaVu tells
    beforehand the font family of a document (pdf_text.one_family)."""
    return [*(str(wind) for wind in WINDS), _("Players"), _("Hanchan"), _("Table"), _("Seat")]


def draw_score_sheets(
    tournament: Tournament,
    tables: list[tuple[int, int, list[str]]],
    progress: Progress,
    base_url: str | None,
) -> bytes:
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
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------------
# Seating cards: four A6 cards on each A4 page

CARD_WIDTH, CARD_HEIGHT = PAGE_WIDTH / 2, PAGE_HEIGHT / 2
CARD_PADDING = 22.0
CARD_ORIGINS = ((0.0, CARD_HEIGHT), (CARD_WIDTH, CARD_HEIGHT), (0.0, 0.0), (CARD_WIDTH, 0.0))
CARD_TABLE_TOP = CARD_HEIGHT - 96
CARD_NAME_SIZE = 16.0


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
    size, lines, bold = fit_name_weighted(name, CARD_NAME_SIZE, CARD_WIDTH - 2 * left, bold=True)
    # One line: its capitals 24 points below the card's top padding; two: 16, clear of the tournament.
    top = CARD_HEIGHT - CARD_PADDING - (24 if len(lines) == 1 else 16)
    baseline = draw_lines(canvas, left, top, size, lines, bold=bold)
    if country:
        draw(canvas, left, baseline - 15, country, 9, max_width=CARD_WIDTH - 2 * left)
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
    texts = [tournament.name, *document_words(), *(text for player in players for text in player[1:3])]
    data = one_family(
        lambda: draw_seating_cards(tournament, players, rounds, progress, base_url, credentials), texts
    )
    suffix = "" if hanchan is None else f"-hanchan-{hanchan}"
    return ExportFile(f"{tournament.slug}-seating-cards{suffix}.pdf", PDF, data)


def draw_seating_cards(
    tournament: Tournament,
    players: list[Card],
    rounds: list[int],
    progress: Progress,
    base_url: str,
    credentials: Mapping[int, Credentials] | None,
) -> bytes:
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
    return buffer.getvalue()


Card = tuple[int, str, str, dict[int, tuple[int, int]]]


def chunks(items: list[Card], size: int) -> Iterator[list[Card]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
