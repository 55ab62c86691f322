"""Exporters: a registry of small classes, each turning one tournament into one file.

An exporter has an ``identifier`` (what a job stores and a URL names), a ``verbose_name``, the
``permission`` it needs (``PUBLIC``: whoever may see the tournament; otherwise the minimum staff role,
a value of ``StaffRole.Role``) and ``render(tournament, progress)`` returning an ``ExportFile``.

Most exporters are lists: a ``ListExporter`` subclass only yields ``Sheet``s of rows and gets an Excel
workbook and CSV for free; registering it registers one exporter per format (``standings_xlsx``,
``standings_csv``). CSV holds one table: an exporter with several sheets gives a zip of one CSV per sheet.

Every file is written in the language active when it renders (the task activates the asker's, see
``exports.services``): the titles, sheet names and column headers people read, while identifiers and file
names stay English. A file another program reads in a fixed format (the EMA results, the archive) keeps
its English headers whatever the language.

A file with addresses in it (the QR codes of the printable sheets and cards) writes them absolute on
``site_address()``: the site's ``SITE_URL`` when set, else the address (scheme and host) of the request
that asked for the file, which the task makes current with ``asked_from`` (``ExportJob.site_address``).

Every file is deterministic: the same data, in the same language, gives the same bytes (fixed workbook
and zip timestamps, no "generated at" stamps), so running an export twice gives the same file.

No file ever holds a formula made from text: Excel cells of text are text cells whatever they start
with, and CSV text that a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage
return) gets a leading single quote, as OWASP's advice on CSV injection says. Numbers stay numbers. A
character XML 1.0 forbids (an old name may hold one) becomes U+FFFD in a workbook instead of failing it.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import re
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from copy import copy
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.writer.excel import ExcelWriter

from exports.progress import Progress, no_progress
from scoring.rules.scores import format_score
from tournament.models import Tournament

PUBLIC = "public"

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
ZIP = "application/zip"
PDF = "application/pdf"

_asked_from: ContextVar[str] = ContextVar("asked_from", default="")


def site_address() -> str:
    """The site's address for the absolute URLs of a file (``https://mahjong.example.org``, no slash at
    the end): ``SITE_URL`` when set, else the address of the request that asked for it (``asked_from``),
    else blank (a file without addresses: no QR codes)."""
    return (settings.SITE_URL or _asked_from.get()).rstrip("/")


@contextmanager
def asked_from(address: str) -> Iterator[None]:
    """While the file of a job renders: ``address`` (the scheme and host of the request that asked for
    it) is the site's address when ``SITE_URL`` is not set."""
    token = _asked_from.set(address)
    try:
        yield
    finally:
        _asked_from.reset(token)


JSON = "application/json"

# Number formats of the cells (Excel codes): scores keep one decimal at least, two when they have them.
SCORE_FORMAT = "0.0#"
POINTS_FORMAT = "#,##0"
INTEGER_FORMAT = "0"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"

# Characters an XML 1.0 document cannot hold (C0 controls but tab and line breaks, lone surrogates, the two
# non-characters): replaced in workbooks by U+FFFD, the replacement character.
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# What a spreadsheet program reads as the start of a formula in a CSV cell (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# The fixed time written into every workbook and zip, so that the same data gives the same bytes.
FIXED_TIME = datetime(2000, 1, 1)
ZIP_TIME = (2000, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content_type: str
    data: bytes


class Exporter(ABC):
    """One kind of export. Subclasses set the class attributes and implement ``render``."""

    identifier: str = ""
    verbose_name: str = ""  # gettext_lazy: read in the reader's language
    description: str = ""  # gettext_lazy
    permission: str = PUBLIC
    # Where the exporter shows in lists, smaller first (then in the order of registration).
    position: int = 100

    @abstractmethod
    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        """The tournament's file; ``progress`` is called with the fraction done (0 to 1) now and then."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.identifier}>"


@dataclass(frozen=True)
class Column:
    title: str
    width: float = 12
    number_format: str | None = None


@dataclass(frozen=True, slots=True)
class Formatted:
    """A cell value with its own number format, for a row unlike the others of its columns."""

    value: Any
    number_format: str


@dataclass
class Sheet:
    """One table of a list export: a worksheet in Excel, a CSV file. ``name`` is in the reader's language;
    ``key`` (English, stable) names the sheet's CSV file in a zip, whatever the language."""

    name: str
    columns: Sequence[Column]
    rows: Iterable[Sequence[Any]] = field(default_factory=list)
    key: str = ""


class ListExporter(Exporter):
    """An exporter whose subclasses yield sheets of rows; Excel and CSV come from here.

    Subclasses set ``name`` (the identifier without the format), ``title`` and ``formats`` and implement
    ``sheets``. Cell values: ``str``, ``int``, ``Decimal`` (exact: written as a number in Excel, as
    ``format_score`` text in CSV), ``datetime`` (local time of the site), ``date`` or ``None``.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    formats: ClassVar[tuple[str, ...]] = ("xlsx", "csv")
    FORMAT_LABELS: ClassVar[dict[str, str]] = {"xlsx": "Excel", "csv": "CSV"}

    def __init__(self, file_format: str) -> None:
        if file_format not in self.FORMAT_LABELS:
            raise ValueError(f"file_format: {file_format!r} is not one of {sorted(self.FORMAT_LABELS)}")
        self.file_format = file_format
        self.identifier = f"{self.name}_{file_format}"
        # Lazy: the registry is built once, and each reader reads it in their own language.
        self.verbose_name = format_lazy("{} ({})", self.title, self.FORMAT_LABELS[file_format])

    @abstractmethod
    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        """The sheets of the export, each with its rows (an iterable, consumed once)."""

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        sheets = self.sheets(tournament, progress)
        return list_file(
            sheets, self.file_format, file_stem(tournament.slug, self.name), tournament.name, self.title
        )


def file_stem(owner_slug: str, exporter_name: str) -> str:
    """An export's file name before its extension: the tournament's or series' slug and the export's
    name, words joined by hyphens in every file (``demo-open-score-sheets.xlsx`` beside
    ``demo-open-score-sheets.pdf``); the exporter's identifier (``score_sheets``) stays as the API
    names it."""
    return f"{owner_slug}-{exporter_name.replace('_', '-')}"


def list_file(sheets: Iterable[Sheet], file_format: str, stem: str, owner: str, title: str) -> ExportFile:
    """Sheets as one file: an Excel workbook (``xlsx``), or a CSV (a zip of one CSV per sheet when there
    are several); named ``stem`` and its extension, the workbook titled "``owner``: ``title``"."""
    if file_format == "xlsx":
        return ExportFile(f"{stem}.xlsx", XLSX, write_xlsx(sheets, title=f"{owner}: {title}"))
    tables = list(sheets)
    if len(tables) == 1:
        return ExportFile(f"{stem}.csv", CSV, write_csv(tables[0]))
    files = [(f"{stem}-{slugify(t.key or t.name)}.csv", write_csv(t)) for t in tables]
    return ExportFile(f"{stem}-csv.zip", ZIP, write_zip(files))


# ---------------------------------------------------------------------------------------------------
# The registry

_registry: dict[str, Exporter] = {}


def register(cls: type[Exporter]) -> type[Exporter]:
    """Class decorator: register an exporter (a list exporter once per format)."""
    instances = [cls(fmt) for fmt in cls.formats] if issubclass(cls, ListExporter) else [cls()]
    for exporter in instances:
        if not exporter.identifier or len(exporter.identifier) > 40:
            raise ValueError(f"{cls.__name__}: an identifier of 1 to 40 characters is needed")
        known = _registry.get(exporter.identifier)
        if known is not None and type(known) is not cls:
            raise ValueError(f"{exporter.identifier}: already registered by {type(known).__name__}")
        _registry[exporter.identifier] = exporter
    return cls


def unregister(identifier: str) -> None:
    _registry.pop(identifier, None)


def get_exporter(identifier: str) -> Exporter | None:
    return _registry.get(identifier)


def all_exporters() -> list[Exporter]:
    """Every registered exporter, by position, then in the order of registration."""
    exporters = list(_registry.values())
    return sorted(exporters, key=lambda exporter: (exporter.position, exporters.index(exporter)))


# ---------------------------------------------------------------------------------------------------
# Writers


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "sheet"


def sheet_title(name: str, taken: set[str]) -> str:
    """A worksheet title Excel accepts: at most 31 characters, none of []:*?/\\, unique."""
    title = re.sub(r"[\[\]:*?/\\]", " ", XML_ILLEGAL.sub(" ", name)).strip()[:31] or "Sheet"
    candidate, number = title, 2
    while candidate.lower() in taken:
        suffix = f" ({number})"
        candidate, number = title[: 31 - len(suffix)] + suffix, number + 1
    taken.add(candidate.lower())
    return candidate


def xml_text(text: str) -> str:
    """Text an XLSX file can hold: a character XML forbids becomes U+FFFD."""
    return XML_ILLEGAL.sub("\ufffd", text)


def text_cell(worksheet: Any, text: str) -> Cell | str:
    """A text value as a workbook writes it: always a text cell, never a formula nor an error value
    (openpyxl reads a str starting with "=" as a formula and "#N/A" as an error)."""
    text = xml_text(text)
    if text.startswith("=") or text in ERROR_CODES:
        cell = WriteOnlyCell(worksheet, value=text)
        cell.data_type = "s"
        return cell
    return text


def excel_value(value: Any) -> Any:
    """A value as openpyxl writes it: aware datetimes in the site's local time, without the zone."""
    if isinstance(value, datetime) and timezone.is_aware(value):
        return timezone.localtime(value).replace(tzinfo=None)
    return value


class FixedTimeZipFile(zipfile.ZipFile):
    """A zip file whose members all carry the same fixed time, so that equal content gives equal bytes."""

    def writestr(  # type: ignore[override]
        self,
        zinfo_or_arcname: str | zipfile.ZipInfo,
        data: bytes | str,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        if isinstance(zinfo_or_arcname, str):
            info = zipfile.ZipInfo(zinfo_or_arcname, date_time=ZIP_TIME)
            info.compress_type = self.compression
            info.external_attr = 0o644 << 16
            zinfo_or_arcname = info
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

    def write(  # type: ignore[override]
        self,
        filename: str | os.PathLike[str],
        arcname: str | None = None,
        compress_type: int | None = None,
        compresslevel: int | None = None,
    ) -> None:
        """A file from disk (openpyxl streams write-only worksheets through one), without its mtime."""
        with open(filename, "rb") as handle:
            data = handle.read()
        self.writestr(arcname or os.path.basename(filename), data, compress_type, compresslevel)


def write_zip(files: Iterable[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with FixedTimeZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def write_xlsx(sheets: Iterable[Sheet], *, title: str = "") -> bytes:
    """An Excel workbook, one worksheet per sheet: bold frozen header row, column widths, number formats.

    Written in openpyxl's write-only mode (streamed, about three times faster than the normal mode).
    Decimals are written as exact number cells (their decimal text), never through a float.
    """
    workbook = Workbook(write_only=True)
    styles: dict[str, Any] = {}  # number format -> the style of a cell with it, made once per workbook

    def styled(worksheet: Any, value: Any, number_format: str) -> Cell:
        cell = WriteOnlyCell(worksheet, value=value)
        style = styles.get(number_format)
        if style is None:
            cell.number_format = number_format
            styles[number_format] = copy(cell._style)
        else:
            cell._style = copy(style)
        return cell

    workbook.properties.creator = "Riichi tournament manager"
    workbook.properties.title = xml_text(title)
    workbook.properties.created = workbook.properties.modified = FIXED_TIME
    bold = Font(bold=True)
    taken: set[str] = set()
    for sheet in sheets:
        worksheet = workbook.create_sheet(title=sheet_title(sheet.name, taken))
        for index, column in enumerate(sheet.columns, 1):
            worksheet.column_dimensions[get_column_letter(index)].width = column.width
        worksheet.freeze_panes = "A2"
        header = []
        for column in sheet.columns:
            cell = WriteOnlyCell(worksheet, value=xml_text(str(column.title)))
            cell.data_type = "s"  # a title is text, whatever it starts with
            cell.font = bold
            header.append(cell)
        worksheet.append(header)
        formats = [column.number_format for column in sheet.columns]
        formatted = [index for index, fmt in enumerate(formats) if fmt]
        for row in sheet.rows:
            values = list(row)
            for index, value in enumerate(values):
                kind = type(value)
                if kind is str:
                    values[index] = text_cell(worksheet, value)
                elif kind is datetime:
                    values[index] = excel_value(value)
                elif kind is Formatted:
                    inner = value.value
                    inner = text_cell(worksheet, inner) if type(inner) is str else excel_value(inner)
                    if type(inner) is not Cell:  # a text cell needs no number format
                        inner = styled(worksheet, inner, value.number_format)
                    values[index] = inner
            for index in formatted:
                value = values[index] if index < len(values) else None
                if value is not None and value != "" and type(value) is not Cell:
                    values[index] = styled(worksheet, value, formats[index])  # type: ignore[arg-type]
            worksheet.append(values)
    if not workbook.worksheets:
        workbook.create_sheet(title=sheet_title(_("Empty"), taken)).append([_("Nothing to export yet")])
    buffer = io.BytesIO()
    archive = FixedTimeZipFile(buffer, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
    ExcelWriter(workbook, archive).save()  # closes the archive
    return buffer.getvalue()


def csv_value(value: Any) -> Any:
    """A cell of a CSV file: text that would start a formula gets a leading single quote; numbers
    (ints, Decimals as ``format_score`` text: "-15") are written as they are."""
    if type(value) is Formatted:
        value = value.value
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, Decimal):
        return format_score(value)
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.isoformat()
    return value


def write_csv(sheet: Sheet) -> bytes:
    """CSV in UTF-8 with a byte order mark (so that spreadsheet programs read accents right), comma
    separated, a header row first; decimals in plain notation ("22.4", "-15").

    Every row, the header included, goes through ``csv_value``: a column title may be a name someone
    typed (the series standings have a column per tournament, titled with its name)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    header = [str(column.title) for column in sheet.columns]
    for row in itertools.chain([header], sheet.rows):
        writer.writerow([csv_value(value) for value in row])
    return buffer.getvalue().encode("utf-8-sig", errors="replace")
