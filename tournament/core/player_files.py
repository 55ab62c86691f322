"""Player lists from CSV or XLSX files: parsing and row-by-row validation, in plain Python.

The import is all-or-nothing: ``validate_rows`` names every bad row with its reason, and the service
layer stores the players only when there is none. Recognised columns (case and spacing ignored):

| column | aliases | required |
|---|---|---|
| name | player, full name | yes (or first name + last name) |
| first name / last name | given name / surname, family name | instead of name, or beside it |
| native name | name in native script, original name | no: the name in its own script (山田 太郎) |
| country | nation, country code | no: an ISO 3166 code (JP) or an English name (Japan) |
| club | | no |
| ema id | ema, ema number, ema no | no: 8 digits |
| team | | no |
| substitute | sub | no: yes/no, 1/0, x |

Each column also has its usual spellings in the product's other six languages (``COLUMN_ALIASES``: "nom",
"prénom", "Nachname", "姓", "фамилия"...). A name given in one column is split into the Latin first and
last names only where that is certain (``tournament.core.names.split_name``); the preview lists the others
(``ImportPreview.unsplit``) for the organiser to confirm or correct.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scoring.rules.i18n import _, gettext_noop
from tournament.core import spreadsheets
from tournament.core.names import FAMILY_FIRST, NameSplit, is_native_script, scripts_of, split_name
from tournament.core.spreadsheets import file_refusal

MAX_NAME_LENGTH = 120


# Header spellings in the product's seven languages (compared lower-cased, spaces, dots, dashes and
# underscores as one space). "nom" is the French family name ("nom complet" the whole name); a header
# the import does not know is listed in the preview as ignored.
COLUMN_ALIASES = {
    **dict.fromkeys(
        [
            "name",
            "player",
            "full name",
            "nom complet",
            "joueur",
            "joueuse",
            "spieler",
            "spielerin",
            "vollständiger name",
            "氏名",
            "名前",
            "選手",
            "姓名",
            "选手",
            "성명",
            "선수",
            "фио",
            "игрок",
            "полное имя",
        ],
        "name",
    ),
    **dict.fromkeys(
        [
            "native name",
            "name in native script",
            "native",
            "native script",
            "original name",
            "nom natif",
            "nom d'origine",
            "nom en écriture originale",
            "name in originalschrift",
            "originalname",
            "原語表記",
            "現地表記",
            "漢字",
            "原名",
            "母语姓名",
            "본명",
            "원어 이름",
            "имя на родном языке",
            "имя в оригинале",
        ],
        "native_name",
    ),
    **dict.fromkeys(
        [
            "first name",
            "given name",
            "given names",
            "first names",
            "forename",
            "prénom",
            "prénoms",
            "vorname",
            "vornamen",
            "名",
            "이름",
            "имя",
        ],
        "first_name",
    ),
    **dict.fromkeys(
        [
            "last name",
            "surname",
            "family name",
            "nom",
            "nom de famille",
            "nachname",
            "familienname",
            "姓",
            "姓氏",
            "성",
            "фамилия",
        ],
        "last_name",
    ),
    **dict.fromkeys(
        [
            "country",
            "nation",
            "country code",
            "pays",
            "land",
            "staat",
            "国",
            "国籍",
            "国家",
            "나라",
            "국가",
            "국적",
            "страна",
        ],
        "country",
    ),
    **dict.fromkeys(["club", "verein", "クラブ", "俱乐部", "클럽", "клуб"], "club"),
    **dict.fromkeys(["ema id", "ema", "ema number", "ema no", "numéro ema", "ema nummer"], "ema_id"),
    **dict.fromkeys(["team", "équipe", "mannschaft", "チーム", "队伍", "팀", "команда"], "team"),
    **dict.fromkeys(
        [
            "substitute",
            "sub",
            "remplaçant",
            "remplaçante",
            "ersatz",
            "ersatzspieler",
            "補欠",
            "替补",
            "교체",
            "замена",
            "запасной",
        ],
        "substitute",
    ),
}
# The fields of a row, in words (the file's column names): translated when shown.
FIELD_LABELS = {
    "file": gettext_noop("file"),
    "name": gettext_noop("name"),
    "native_name": gettext_noop("native name"),
    "first_name": gettext_noop("first name"),
    "last_name": gettext_noop("last name"),
    "country": gettext_noop("country"),
    "club": gettext_noop("club"),
    "ema_id": gettext_noop("ema id"),
    "team": gettext_noop("team"),
    "substitute": gettext_noop("substitute"),
}
TRUE_WORDS = {"yes", "y", "1", "true", "x"}
FALSE_WORDS = {"no", "n", "0", "false", ""}


@dataclass(frozen=True)
class PlayerRow:
    line: int  # as the organiser sees it: the header is line 1
    name: str
    country: str
    club: str
    ema_id: str
    team: str
    is_substitute: bool
    first_name: str = ""
    last_name: str = ""
    native_name: str = ""  # the name in its own script (山田 太郎), when the player gives it


@dataclass(frozen=True)
class RowError:
    line: int
    field: str
    message: str
    rule: str = "registration"

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "field": self.field, "rule": self.rule, "message": self.message}

    @property
    def field_label(self) -> str:
        """The field in the reader's language (``field`` itself is an identifier and never changes)."""
        return field_label(self.field)


def field_label(key: str) -> str:
    """A row's field (a column of the file) in words, in the reader's language."""
    label = FIELD_LABELS.get(key)
    return _(label) if label is not None else key.replace("_", " ")


# C0 and C1 control characters (tab and line breaks included: a cell of a name holds one line), lone
# surrogates and the two non-characters XML 1.0 forbids: none belongs in a name, and an XLSX file
# cannot hold them.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def control_character_errors(row: Mapping[str, str | int]) -> list[RowError]:
    """Rule ``printable-text``: every text field of a row, refused when it holds a control character."""
    line = int(row["line"])
    errors = []
    for key, value in row.items():
        found = CONTROL_CHARACTERS.search(value) if isinstance(value, str) else None
        if found is not None:
            message = _("{field}: a control character (U+{code}); only printable text is accepted").format(
                field=field_label(key), code=f"{ord(found.group()):04X}"
            )
            errors.append(RowError(line, key, message, "printable-text"))
    return errors


@dataclass(frozen=True)
class UnsplitName:
    line: int
    name: str
    first_name: str
    last_name: str
    reason: str  # one of the NameSplit reasons

    @property
    def reason_text(self) -> str:
        """Why the name needs the organiser's eye, in the reader's language."""
        return _(UNSPLIT_REASONS.get(self.reason, self.reason))


UNSPLIT_REASONS = {
    NameSplit.NATIVE_SCRIPT: gettext_noop("written in its own script: give the Latin first and last name"),
    NameSplit.ONE_WORD: gettext_noop("one word: is it the first or the last name?"),
    NameSplit.ORDER_UNKNOWN: gettext_noop(
        "romanised beside a family-name-first native name: which is the family name?"
    ),
    NameSplit.PATRONYMIC: gettext_noop("a patronymic (bin, binti) and no family name: check the split"),
    NameSplit.MANY_WORDS: gettext_noop("more than two words: which are the last name?"),
}


@dataclass
class ImportPreview:
    rows: list[PlayerRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    # The header's columns the import reads (canonical keys, in the file's order) and those it ignores
    # (as the file writes them): the preview says both, so that a column under a name the import does
    # not know is never dropped without a word.
    columns_read: list[str] = field(default_factory=list)
    columns_ignored: list[str] = field(default_factory=list)
    # The names given in one column that could not be split for certain into Latin first and last names,
    # with the split the import will store unless the organiser corrects it (confirmed on import).
    unsplit: list[UnsplitName] = field(default_factory=list)

    @property
    def column_labels_read(self) -> list[str]:
        """The columns read, in the reader's language."""
        return [field_label(key) for key in self.columns_read]

    @property
    def ok(self) -> bool:
        return not self.errors


def read_table(data: bytes, filename: str) -> list[list[str]]:
    """The cells of a player file as text, the header first (``tournament.core.spreadsheets``, whose
    limits refuse it naming ``file`` and the rule), an XLSX file's EMA ids with their zeros back: a
    spreadsheet stores 04000001 typed into a number cell as 4000001."""
    table = spreadsheets.read_table(data, filename)
    if not filename.lower().endswith(".xlsx"):
        return table
    header = [COLUMN_ALIASES.get(_header_key(cell)) for cell in table[0]] if table else []
    for column, key in enumerate(header):
        if key == "ema_id":
            for row in table[1:]:
                if column < len(row) and row[column].isdigit() and len(row[column]) < 8:
                    row[column] = row[column].zfill(8)
    return table


def _header_key(cell: str) -> str:
    return re.sub(r"[\s_.-]+", " ", cell.strip().lower())


def header_columns(header: list[str]) -> tuple[list[str], list[str]]:
    """The columns of a header row the import reads (canonical keys, each once, in the file's order)
    and the non-blank ones it ignores (as written): not a column it knows, or a second column of the
    same field (the first one is read)."""
    read: list[str] = []
    ignored: list[str] = []
    for cell in header:
        key = COLUMN_ALIASES.get(_header_key(cell))
        if key is not None and key not in read:
            read.append(key)
        elif cell.strip():
            ignored.append(cell.strip())
    return read, ignored


def parse_rows(table: list[list[str]]) -> list[dict[str, str | int]]:
    """Rows as dicts keyed by canonical column names, each with its ``line``; blank rows skipped."""
    if not table:
        raise file_refusal(_("empty, no header row"))
    columns = [COLUMN_ALIASES.get(_header_key(cell)) for cell in table[0]]
    if "name" not in columns and not {"first_name", "last_name"} <= set(columns):
        raise file_refusal(_("the header has no 'name' column (nor 'first name' and 'last name')"))
    rows: list[dict[str, str | int]] = []
    for index, cells in enumerate(table[1:], start=2):
        if not any(cells):
            continue
        row: dict[str, str | int] = {"line": index}
        for column, cell in zip(columns, cells, strict=False):
            if column is not None and column not in row:  # a second column of a field: ignored
                row[column] = cell
        rows.append(row)
    return rows


def validate_rows(
    rows: Iterable[Mapping[str, str | int]],
    *,
    countries: Mapping[str, str],
    existing_ema_ids: Mapping[str, str] | None = None,
    existing_names: Iterable[str] = (),
    confirmed_names: Mapping[int, tuple[str, str]] | None = None,
    guesses: bool = True,
) -> ImportPreview:
    """Check every row; ``countries`` maps upper-cased codes and names to ISO 3166 alpha-2 codes.

    ``existing_ema_ids`` maps EMA ids already registered in the tournament to their players' names;
    ``confirmed_names`` the (first, last) names the organiser gave in the preview, by line. Without
    ``guesses`` (a player registered by hand, whom no preview shows) a name that cannot be split for
    certain keeps empty first and last names.
    """
    confirmed = confirmed_names or {}
    preview = ImportPreview()
    registered = dict(existing_ema_ids or {})
    seen_ema: dict[str, int] = {}
    names_taken = {name.casefold() for name in existing_names}
    seen_names: dict[str, int] = {}
    for row in rows:
        line = int(row["line"])
        if line in confirmed:
            row = {**row, "first_name": confirmed[line][0], "last_name": confirmed[line][1]}
        errors: list[RowError] = control_character_errors(row)
        if errors:
            preview.errors.extend(errors)
            continue
        parts = _parts_of(row, confirmed=line in confirmed)
        name = parts.name
        if not name:
            errors.append(RowError(line, "name", _("missing name")))
        elif len(name) > MAX_NAME_LENGTH:
            errors.append(RowError(line, "name", too_long("name")))
        elif name.casefold() in names_taken:
            message = _("{name} is already registered in this tournament").format(name=repr(name))
            errors.append(RowError(line, "name", message))
        elif name.casefold() in seen_names:
            message = _("{name} also on line {line}").format(
                name=repr(name), line=seen_names[name.casefold()]
            )
            errors.append(RowError(line, "name", message))
        country_text = str(row.get("country", "")).strip()
        country = countries.get(country_text.upper(), "") if country_text else ""
        if country_text and not country:
            message = _("{country} is not an ISO 3166 country code or name").format(
                country=repr(country_text)
            )
            errors.append(RowError(line, "country", message))
        ema_id = re.sub(r"\s+", "", str(row.get("ema_id", "")))
        if ema_id and not re.fullmatch(r"\d{8}", ema_id):
            message = _("EMA id {ema_id} is not 8 digits").format(ema_id=repr(ema_id))
            errors.append(RowError(line, "ema_id", message))
        elif ema_id in registered:
            message = _("duplicate EMA id {ema_id}: already {name}").format(
                ema_id=ema_id, name=registered[ema_id]
            )
            errors.append(RowError(line, "ema_id", message))
        elif ema_id in seen_ema:
            message = _("duplicate EMA id {ema_id}: also on line {line}").format(
                ema_id=ema_id, line=seen_ema[ema_id]
            )
            errors.append(RowError(line, "ema_id", message))
        first_name, last_name, native_name = parts.first, parts.last, parts.native
        for column, value in (
            ("first_name", first_name),
            ("last_name", last_name),
            ("native_name", native_name),
        ):
            if len(value) > MAX_NAME_LENGTH:
                errors.append(RowError(line, column, too_long(column)))
        for column in ("club", "team"):
            if len(str(row.get(column, "")).strip()) > MAX_NAME_LENGTH:
                errors.append(RowError(line, column, too_long(column)))
        substitute_text = str(row.get("substitute", "")).strip().lower()
        if substitute_text not in TRUE_WORDS | FALSE_WORDS:
            message = _("{value} is not yes or no").format(value=repr(substitute_text))
            errors.append(RowError(line, "substitute", message))
        if name:
            seen_names.setdefault(name.casefold(), line)
        if ema_id:
            seen_ema.setdefault(ema_id, line)
        if errors:
            preview.errors.extend(errors)
            continue
        if parts.reason:
            preview.unsplit.append(UnsplitName(line, name, first_name, last_name, parts.reason))
            if not guesses:
                first_name = last_name = ""
        preview.rows.append(
            PlayerRow(
                line=line,
                name=name,
                country=country,
                club=str(row.get("club", "")).strip(),
                ema_id=ema_id,
                team=str(row.get("team", "")).strip(),
                is_substitute=substitute_text in TRUE_WORDS,
                first_name=first_name,
                last_name=last_name,
                native_name=native_name,
            )
        )
    return preview


def too_long(key: str) -> str:
    return _("{field} longer than {limit} characters").format(field=field_label(key), limit=MAX_NAME_LENGTH)


def _cell(row: Mapping[str, str | int], key: str) -> str:
    return re.sub(r"\s+", " ", str(row.get(key, "")).strip())


@dataclass(frozen=True)
class NameParts:
    name: str  # as shown everywhere
    first: str  # the Latin first and last names ("" when not known)
    last: str
    native: str  # the name in its own script
    reason: str = ""  # why the first and last names are a guess ("" when certain: docs/tournament.md)


def _parts_of(row: Mapping[str, str | int], *, confirmed: bool = False) -> NameParts:
    """A row's names. First and last names given in their columns (or confirmed by the organiser) are
    taken as they are; when they are in a script other than Latin they make the native name (family name
    first for CJK scripts), and the Latin names are still wanted. A name given in one column is split by
    ``tournament.core.names.split_name``, which says when it is not certain. A name in its own script becomes
    the native name; the shown name is the Latin one when known."""
    name, native = _cell(row, "name"), _cell(row, "native_name")
    first, last = _cell(row, "first_name"), _cell(row, "last_name")
    reason = ""
    if first or last or confirmed:
        if is_native_script(first + last):
            if not native:
                order = (last, first) if scripts_of(first + last) & FAMILY_FIRST else (first, last)
                native = " ".join(part for part in order if part)
            first = last = ""
            reason = NameSplit.NATIVE_SCRIPT if not confirmed else ""
        elif not confirmed and not (first and last):
            reason = NameSplit.ONE_WORD
    elif name:
        split = split_name(name, native)
        first, last, reason = split.first, split.last, split.reason
        native = native or split.native
    if name and is_native_script(name) and not native:
        native = name
    latin = " ".join(part for part in (first, last) if part)
    if not name or (is_native_script(name) and first and last):
        name = latin or native
    return NameParts(name, first, last, native, reason)


def substitutes_needed(checked_in: int) -> int:
    """Substitutes that complete the last table: the field must be a multiple of four."""
    return -checked_in % 4


def sitting_out(checked_in: int) -> int:
    """Players who sit out instead, when the organiser prefers no substitutes."""
    return checked_in % 4
