"""Player lists from CSV or XLSX files: parsing and row-by-row validation, in plain Python.

The import is all-or-nothing: ``validate_rows`` names every bad row with its reason, and the service
layer stores the players only when there is none. Recognised columns (case and spacing ignored):

| column | aliases | required |
|---|---|---|
| name | player, full name | yes (or first name + last name) |
| first name / last name | given name / surname, family name | instead of name |
| country | nation, country code | no: an ISO 3166 code (JP) or an English name (Japan) |
| club | | no |
| ema id | ema, ema number, ema no | no: 8 digits |
| team | | no |
| substitute | sub | no: yes/no, 1/0, x |
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openpyxl import load_workbook

from tournament.refusal import Refusal

MAX_NAME_LENGTH = 120

COLUMN_ALIASES = {
    "name": "name",
    "player": "name",
    "full name": "name",
    "first name": "first_name",
    "given name": "first_name",
    "last name": "last_name",
    "surname": "last_name",
    "family name": "last_name",
    "country": "country",
    "nation": "country",
    "country code": "country",
    "club": "club",
    "ema id": "ema_id",
    "ema": "ema_id",
    "ema number": "ema_id",
    "ema no": "ema_id",
    "team": "team",
    "substitute": "substitute",
    "sub": "substitute",
}
TRUE_WORDS = {"yes", "y", "1", "true", "x"}
FALSE_WORDS = {"no", "n", "0", "false", ""}


def file_refusal(message: str) -> Refusal:
    """The file as a whole cannot be read (format, encoding, no header, no name column)."""
    return Refusal("file", "player-file", message)


@dataclass(frozen=True)
class PlayerRow:
    line: int  # as the organiser sees it: the header is line 1
    name: str
    country: str
    club: str
    ema_id: str
    team: str
    is_substitute: bool


@dataclass(frozen=True)
class RowError:
    line: int
    field: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "field": self.field, "message": self.message}


@dataclass
class ImportPreview:
    rows: list[PlayerRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def read_table(data: bytes, filename: str) -> list[list[str]]:
    """The cells of a CSV (UTF-8, comma or semicolon) or XLSX file, as text, the header first."""
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        return _read_xlsx(data)
    if lower.endswith((".csv", ".txt")):
        return _read_csv(data)
    raise file_refusal(f"{filename!r} is neither .csv nor .xlsx")


def _read_csv(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_refusal(f"not UTF-8 text (byte {exc.start}); save the CSV as UTF-8") from exc
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), dialect)]


def _read_xlsx(data: bytes) -> list[list[str]]:
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several unrelated types for a damaged file
        raise file_refusal(f"not a readable XLSX workbook ({type(exc).__name__})") from exc
    try:
        sheet = workbook.worksheets[0]
        table = [[_cell_text(value) for value in row] for row in sheet.iter_rows(values_only=True)]
    finally:
        workbook.close()
    # A spreadsheet stores 04000001 typed into a number cell as 4000001: EMA ids get their zeros back.
    header = [COLUMN_ALIASES.get(_header_key(cell)) for cell in table[0]] if table else []
    for column, key in enumerate(header):
        if key == "ema_id":
            for row in table[1:]:
                if column < len(row) and row[column].isdigit() and len(row[column]) < 8:
                    row[column] = row[column].zfill(8)
    return table


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _header_key(cell: str) -> str:
    return re.sub(r"[\s_.-]+", " ", cell.strip().lower())


def parse_rows(table: list[list[str]]) -> list[dict[str, str | int]]:
    """Rows as dicts keyed by canonical column names, each with its ``line``; blank rows skipped."""
    if not table:
        raise file_refusal("empty, no header row")
    columns = [COLUMN_ALIASES.get(_header_key(cell)) for cell in table[0]]
    if "name" not in columns and not {"first_name", "last_name"} <= set(columns):
        raise file_refusal("the header has no 'name' column (nor 'first name' and 'last name')")
    rows: list[dict[str, str | int]] = []
    for index, cells in enumerate(table[1:], start=2):
        if not any(cells):
            continue
        row: dict[str, str | int] = {"line": index}
        for column, cell in zip(columns, cells, strict=False):
            if column is not None:
                row[column] = cell
        rows.append(row)
    return rows


def validate_rows(
    rows: Iterable[Mapping[str, str | int]],
    *,
    countries: Mapping[str, str],
    existing_ema_ids: Mapping[str, str] | None = None,
    existing_names: Iterable[str] = (),
) -> ImportPreview:
    """Check every row; ``countries`` maps upper-cased codes and names to ISO 3166 alpha-2 codes.

    ``existing_ema_ids`` maps EMA ids already registered in the tournament to their players' names.
    """
    preview = ImportPreview()
    registered = dict(existing_ema_ids or {})
    seen_ema: dict[str, int] = {}
    names_taken = {name.casefold() for name in existing_names}
    seen_names: dict[str, int] = {}
    for row in rows:
        line = int(row["line"])
        errors: list[RowError] = []
        name = _name_of(row)
        if not name:
            errors.append(RowError(line, "name", "missing name"))
        elif len(name) > MAX_NAME_LENGTH:
            errors.append(RowError(line, "name", f"name longer than {MAX_NAME_LENGTH} characters"))
        elif name.casefold() in names_taken:
            errors.append(RowError(line, "name", f"{name!r} is already registered in this tournament"))
        elif name.casefold() in seen_names:
            errors.append(RowError(line, "name", f"{name!r} also on line {seen_names[name.casefold()]}"))
        country_text = str(row.get("country", "")).strip()
        country = countries.get(country_text.upper(), "") if country_text else ""
        if country_text and not country:
            errors.append(
                RowError(line, "country", f"{country_text!r} is not an ISO 3166 country code or name")
            )
        ema_id = re.sub(r"\s+", "", str(row.get("ema_id", "")))
        if ema_id and not re.fullmatch(r"\d{8}", ema_id):
            errors.append(RowError(line, "ema_id", f"EMA id {ema_id!r} is not 8 digits"))
        elif ema_id in registered:
            errors.append(
                RowError(line, "ema_id", f"duplicate EMA id {ema_id}: already {registered[ema_id]}")
            )
        elif ema_id in seen_ema:
            errors.append(
                RowError(line, "ema_id", f"duplicate EMA id {ema_id}: also on line {seen_ema[ema_id]}")
            )
        for column in ("club", "team"):
            if len(str(row.get(column, "")).strip()) > MAX_NAME_LENGTH:
                errors.append(RowError(line, column, f"{column} longer than {MAX_NAME_LENGTH} characters"))
        substitute_text = str(row.get("substitute", "")).strip().lower()
        if substitute_text not in TRUE_WORDS | FALSE_WORDS:
            errors.append(RowError(line, "substitute", f"{substitute_text!r} is not yes or no"))
        if name:
            seen_names.setdefault(name.casefold(), line)
        if ema_id:
            seen_ema.setdefault(ema_id, line)
        if errors:
            preview.errors.extend(errors)
            continue
        preview.rows.append(
            PlayerRow(
                line=line,
                name=name,
                country=country,
                club=str(row.get("club", "")).strip(),
                ema_id=ema_id,
                team=str(row.get("team", "")).strip(),
                is_substitute=substitute_text in TRUE_WORDS,
            )
        )
    return preview


def _name_of(row: Mapping[str, str | int]) -> str:
    name = str(row.get("name", "")).strip()
    if name:
        return re.sub(r"\s+", " ", name)
    parts = (str(row.get("first_name", "")).strip(), str(row.get("last_name", "")).strip())
    return " ".join(part for part in parts if part)


def substitutes_needed(checked_in: int) -> int:
    """Substitutes that complete the last table: the field must be a multiple of four."""
    return -checked_in % 4


def sitting_out(checked_in: int) -> int:
    """Players who sit out instead, when the organiser prefers no substitutes."""
    return checked_in % 4
