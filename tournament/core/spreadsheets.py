"""Tables read from a CSV or XLSX file within bounds, in plain Python: a player file's rows as text.

Whatever a file claims (a sheet's declared dimensions, a zip member's size), reading stops as soon as a
limit is passed, so that a file is read or refused within seconds and a few tens of megabytes; an XLSX
file's XML is read by a pull parser that refuses a document type, entities and oversized parts. The
columns and the rows' meaning are ``tournament.core.player_files``'.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from xml.etree.ElementTree import Element, ParseError, XMLPullParser

from scoring.rules.i18n import _
from tournament.core.refusal import Problem, Refusal

# Limits of a player file. Whatever a file claims (a sheet's declared dimensions, a zip member's size),
# reading stops as soon as one is passed, so that a file is read or refused within seconds and a few
# tens of megabytes. No tournament registers more than MAX_PLAYERS players.
MAX_FILE_BYTES = 2 * 1024 * 1024  # the upload itself
MAX_PLAYERS = 5_000  # non-blank rows below the header
MAX_COLUMNS = 50  # columns read in each row (the cells to their right are ignored)
MAX_FIELD_CHARS = 1_000  # characters in one cell
MAX_LINE = 1_048_576  # the last row of an Excel sheet
# An XLSX file is a zip of XML documents: their sizes once decompressed, and how far each one shrank.
MAX_XLSX_BYTES = 24 * 1024 * 1024  # every member together
MAX_XLSX_MEMBER_BYTES = 20 * 1024 * 1024  # any one member
MAX_XLSX_RATIO = 100  # decompressed / compressed, for a member larger than XLSX_RATIO_FLOOR
XLSX_RATIO_FLOOR = 1024 * 1024
MAX_XLSX_ROW_CELLS = 1_000  # cells stored in one row of the sheet, read or not
MAX_XLSX_ROW_ELEMENTS = 5_000  # XML elements in one cell or shared string (rich-text runs)
MAX_SHARED_STRINGS = (MAX_PLAYERS + 1) * MAX_COLUMNS


def file_refusal(message: str, rule: str = "player-file", *, line: int | None = None) -> Refusal:
    """The file as a whole cannot be read (format, encoding, no header, no name column, a limit passed)."""
    return Refusal.of([Problem("file", rule, message, line=line)])


def read_table(data: bytes, filename: str) -> list[list[str]]:
    """The cells of a CSV (UTF-8, comma or semicolon) or XLSX file, as text, the header first.

    Blank rows are kept (as empty rows) so that each row's index is its line; the limits above are
    checked while reading, and the first one passed refuses the file, naming ``file`` and the rule.
    """
    if len(data) > MAX_FILE_BYTES:
        raise file_refusal(
            _("the file has {size} bytes; a player list is at most {limit}").format(
                size=f"{len(data):,}", limit=f"{MAX_FILE_BYTES:,}"
            ),
            "file-size",
        )
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        return _read_xlsx(data)
    if lower.endswith((".csv", ".txt")):
        return _read_csv(data)
    raise file_refusal(_("{name} is neither .csv nor .xlsx").format(name=repr(filename)))


class _Table:
    """The rows read so far, with the row and cell limits checked as each row arrives."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self.filled = 0
        self.header: list[str] = []

    def add(self, line: int, cells: list[str]) -> None:
        for column, cell in enumerate(cells[:MAX_COLUMNS], 1):
            if len(cell) > MAX_FIELD_CHARS:
                raise file_refusal(
                    _("line {line}, {column}: {length} characters; a cell holds at most {limit}").format(
                        line=line,
                        column=self._column_name(column),
                        length=f"{len(cell):,}",
                        limit=f"{MAX_FIELD_CHARS:,}",
                    ),
                    "field-length",
                    line=line,
                )
        if not any(cells):
            return
        if line > MAX_LINE or line <= len(self.rows):
            raise file_refusal(
                _("row {line} is out of order or past line {limit}").format(line=line, limit=f"{MAX_LINE:,}"),
                "row-limit",
                line=line,
            )
        self.filled += 1
        if self.filled > MAX_PLAYERS + 1:
            raise file_refusal(
                _("more than {limit} players (line {line}); a tournament registers at most {limit}").format(
                    limit=f"{MAX_PLAYERS:,}", line=line
                ),
                "row-limit",
                line=line,
            )
        while len(self.rows) < line - 1:
            self.rows.append([])
        self.rows.append(cells[:MAX_COLUMNS])
        if self.filled == 1:
            self.header = self.rows[-1]

    def _column_name(self, column: int) -> str:
        title = self.header[column - 1] if column <= len(self.header) else ""
        if title:
            return _("column {number} ({title})").format(number=column, title=repr(title))
        return _("column {number}").format(number=column)


def _read_csv(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_refusal(
            _("not UTF-8 text (byte {byte}); save the CSV as UTF-8").format(byte=exc.start)
        ) from exc
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    table = _Table()
    reader = csv.reader(io.StringIO(text), dialect)
    line = 0
    try:
        for line, row in enumerate(reader, start=1):
            table.add(line, [cell.strip() for cell in row])
    except csv.Error as exc:
        # The csv module stops at a field longer than its own limit (128 KiB) or at a broken quote.
        raise file_refusal(
            _(
                "line {line} cannot be read: a field longer than {limit} characters, or a quote never closed"
            ).format(line=line + 1, limit=f"{MAX_FIELD_CHARS:,}"),
            "field-length",
            line=line + 1,
        ) from exc
    return table.rows


# ---------------------------------------------------------------------------------------------------
# XLSX, read by hand: a zip of XML documents, streamed element by element and forgotten as it goes, so
# that neither a sheet's declared dimensions nor a member's size decide how long reading takes.

_XLSX_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    NotImplementedError,
    RuntimeError,
    KeyError,
    ValueError,
    OSError,
    ParseError,
    IndexError,
)


def _read_xlsx(data: bytes) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_members(archive)
            sheet_path, strings_path = _workbook_parts(archive)
            strings = _shared_strings(archive, strings_path) if strings_path else []
            table = _sheet_rows(archive, sheet_path, strings)
    except _XLSX_ERRORS as exc:
        raise file_refusal(
            _("not a readable XLSX workbook ({error})").format(error=type(exc).__name__)
        ) from exc
    return table


def _check_members(archive: zipfile.ZipFile) -> None:
    """Refuse a zip whose members, once decompressed, would be too large, before decompressing any.
    A member cannot decompress to more than it declares: zipfile stops there and checks the CRC."""
    total = 0
    for info in archive.infolist():
        if info.file_size > MAX_XLSX_MEMBER_BYTES:
            raise file_refusal(
                _("{member} holds {size} bytes once decompressed; at most {limit}").format(
                    member=info.filename, size=f"{info.file_size:,}", limit=f"{MAX_XLSX_MEMBER_BYTES:,}"
                ),
                "decompressed-size",
            )
        if info.file_size > XLSX_RATIO_FLOOR and info.file_size > MAX_XLSX_RATIO * max(info.compress_size, 1):
            raise file_refusal(
                _("{member} decompresses {ratio} times; at most {limit}").format(
                    member=info.filename,
                    ratio=f"{info.file_size // max(info.compress_size, 1):,}",
                    limit=MAX_XLSX_RATIO,
                ),
                "compression-ratio",
            )
        total += info.file_size
        if total > MAX_XLSX_BYTES:
            raise file_refusal(
                _("the workbook holds more than {limit} bytes once decompressed").format(
                    limit=f"{MAX_XLSX_BYTES:,}"
                ),
                "decompressed-size",
            )


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _xml_events(archive: zipfile.ZipFile, path: str, unit: str) -> Iterator[tuple[str, str, Element]]:
    """(event, local tag, element) of one member, streamed. Every element is dropped from its parent
    once its end event has been handled, except inside a ``unit`` (a cell, a shared string), which is
    kept whole until its own end; a unit of more than MAX_XLSX_ROW_ELEMENTS elements is refused.
    A document type declaration (and so any entity) is refused."""
    parser: XMLPullParser[Element] = XMLPullParser(events=("start", "end"))
    stack: list[Element] = []
    in_unit = 0
    tail = b""
    with archive.open(path) as stream:
        while True:
            chunk = stream.read(65536)
            window = tail + chunk
            if b"<!DOCTYPE" in window or b"<!ENTITY" in window:
                raise file_refusal(
                    _("{member} declares a document type; an XLSX file has none").format(member=path),
                    "xml-dtd",
                )
            tail = chunk[-16:]
            if chunk:
                parser.feed(chunk)
            else:
                parser.close()
            for item in parser.read_events():
                event, element = item[0], item[-1]
                if not isinstance(element, Element):
                    continue
                tag = _local(element.tag)
                if event == "start":
                    stack.append(element)
                    if tag == unit or in_unit:
                        in_unit += 1
                        if in_unit > MAX_XLSX_ROW_ELEMENTS:
                            raise file_refusal(
                                _("{member}: a {element} of too many parts").format(
                                    member=path, element=unit
                                ),
                                "cell-limit",
                            )
                    yield event, tag, element
                    continue
                yield event, tag, element
                stack.pop()
                if tag == unit:
                    in_unit = 0
                if not in_unit and stack:
                    stack[-1].remove(element)
            if not chunk:
                return


def _relationships(archive: zipfile.ZipFile, path: str) -> dict[str, tuple[str, str]]:
    """A part's relationships: id -> (type, target path in the zip)."""
    if path not in archive.NameToInfo:
        return {}
    base = posixpath.dirname(posixpath.dirname(path))
    found: dict[str, tuple[str, str]] = {}
    for event, tag, element in _xml_events(archive, path, "Relationship"):
        if event == "end" and tag == "Relationship":
            target = element.get("Target", "")
            target = (
                target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
            )
            found[element.get("Id", "")] = (element.get("Type", ""), target)
    return found


def _workbook_parts(archive: zipfile.ZipFile) -> tuple[str, str]:
    """The paths of the first worksheet and of the shared strings ("" when there are none)."""
    workbook = next(
        (
            target
            for kind, target in _relationships(archive, "_rels/.rels").values()
            if kind.endswith("/officeDocument")
        ),
        "xl/workbook.xml",
    )
    folder, name = posixpath.split(workbook)
    parts = _relationships(archive, posixpath.join(folder, "_rels", f"{name}.rels"))
    sheets = [
        parts.get(next((v for k, v in element.attrib.items() if _local(k) == "id"), ""), ("", ""))
        for event, tag, element in _xml_events(archive, workbook, "sheet")
        if event == "end" and tag == "sheet"
    ]
    sheet = next((target for kind, target in sheets if kind.endswith("/worksheet")), "")
    if not sheet:
        raise file_refusal(_("the workbook has no worksheet"))
    strings = next((target for kind, target in parts.values() if kind.endswith("/sharedStrings")), "")
    return sheet, strings


def _text(element: Element) -> str:
    """The text of a string item (shared or inline): its runs, without phonetic hints."""
    parts: list[str] = []
    for child in element:
        tag = _local(child.tag)
        if tag == "t":
            parts.append(child.text or "")
        elif tag == "r":
            parts.extend(grandchild.text or "" for grandchild in child if _local(grandchild.tag) == "t")
    return "".join(parts)


def _shared_strings(archive: zipfile.ZipFile, path: str) -> list[str]:
    strings: list[str] = []
    for event, tag, element in _xml_events(archive, path, "si"):
        if event == "end" and tag == "si":
            strings.append(_text(element))
            if len(strings) > MAX_SHARED_STRINGS:
                raise file_refusal(
                    _("more than {limit} different texts").format(limit=f"{MAX_SHARED_STRINGS:,}"),
                    "cell-limit",
                )
    return strings


_CELL_REFERENCE = re.compile(r"([A-Z]{1,3})(\d{1,7})")


def _sheet_rows(archive: zipfile.ZipFile, path: str, strings: list[str]) -> list[list[str]]:
    table = _Table()
    line = column = cells = 0
    values: list[str] = []
    for event, tag, element in _xml_events(archive, path, "c"):
        if event == "start":
            if tag == "row":
                reference = element.get("r")
                line = int(reference) if reference and reference.isdigit() else line + 1
                column = cells = 0
                values = []
            elif tag == "c":
                column = _column_of(element.get("r"), column)
            continue
        if tag == "c":
            cells += 1
            if cells > MAX_XLSX_ROW_CELLS:
                raise file_refusal(
                    _("row {line} holds more than {limit} cells").format(
                        line=line, limit=f"{MAX_XLSX_ROW_CELLS:,}"
                    ),
                    "cell-limit",
                )
            if column <= MAX_COLUMNS:
                value = _cell_value(element, strings)
                if value:
                    values.extend([""] * (column - len(values)))
                    values[column - 1] = value
        elif tag == "row":
            table.add(line, values)
        elif tag == "sheetData":
            break
    return table.rows


def _column_of(reference: str | None, previous: int) -> int:
    match = _CELL_REFERENCE.fullmatch(reference or "")
    if match is None:
        return previous + 1
    number = 0
    for letter in match.group(1):
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _cell_value(cell: Element, strings: list[str]) -> str:
    kind = cell.get("t", "n")
    raw = ""
    for child in cell:
        tag = _local(child.tag)
        if tag == "is":
            return _text(child).strip()
        if tag == "v":
            raw = (child.text or "").strip()
    if kind == "s":
        return strings[int(raw)].strip() if raw else ""
    if kind == "b":
        return "True" if raw == "1" else "False" if raw else ""
    if kind != "n" or not raw:
        return raw
    try:
        number = float(raw)
    except ValueError:
        return raw
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return str(number)
