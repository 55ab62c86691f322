"""The tournament archive: everything about one tournament in one JSON file, and back.

The backup of a tournament, and the way to move one to another installation. ``export_archive`` writes
it, ``import_archive`` loads it into a database that does not have the tournament's slug, in one
transaction; exporting the imported tournament again gives the same bytes. The format is documented
field by field in docs/exports.md.

How the bytes stay the same across databases: the archive holds no primary key. Rows refer to each other by
natural keys (users by username, players by name, which is unique in a tournament, hanchan by number,
tables by number within their hanchan, seats by wind within their table). Lists whose order carries
meaning (players: registration order; penalties, sheet versions, seating runs, absences,
disqualifications: the order they happened in) are written in primary key order and created in list
order, so the new primary keys keep that order. Keys are sorted, timestamps are ISO 8601 in UTC with
microseconds, decimals are strings, and the JSON is compact (one line; ``python -m json.tool`` shows it
indented).

Users are referenced by username, never with a password: importing creates the users it does not find,
with unusable passwords (they sign in after a password reset), and leaves existing users as they are.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, models, transaction

from penalties.models import Disqualification, Penalty
from scoring.models import ScoreSheet, SeatResult, SheetVersion
from tournament import services
from tournament.exports.base import JSON, Exporter, ExportFile, Progress, no_progress, register
from tournament.models import (
    Absence,
    Player,
    Round,
    Seat,
    SeatingJob,
    StaffRole,
    Table,
    Tournament,
)

FORMAT = "riichi-tournament-archive"
VERSION = 1
BATCH = 2000

# The fields of each row, in the archive's words. "user" fields hold a username (or null); "player" fields
# a player's name; everything else is the model field of that name.
TOURNAMENT_FIELDS = (*services.TOURNAMENT_FIELDS, "created_at")
PLAYER_FIELDS = (
    "name",
    "country",
    "club",
    "ema_id",
    "team",
    "status",
    "is_substitute",
    "disqualified",
    "checked_in_at",
    "registered_at",
)
ROUND_FIELDS = ("number", "starts_at", "status", "mode", "clock_state", "clock_ends_at", "clock_remaining")
SHEET_FIELDS = (
    "status",
    "form",
    "entry",
    "replay",
    "version",
    "content_hash",
    "created_at",
    "updated_at",
    "submitted_at",
    "signed_at",
)
SHEET_USERS = ("created_by", "submitted_by", "signed_by")
VERSION_FIELDS = ("version", "action", "status", "entry", "replay", "content_hash", "at", "reason")
RESULT_FIELDS = ("points", "rank", "uma", "score")
JOB_FIELDS = ("requested_at", "from_round", "seed", "state", "progress", "report", "error", "finished_at")
PENALTY_FIELDS = (
    "kind",
    "points",
    "minutes_late",
    "reason",
    "hand",
    "given_at",
    "revoked_at",
    "revoke_reason",
)


class ArchiveError(ValueError):
    """The archive cannot be imported; the message says why."""


# ---------------------------------------------------------------------------------------------------
# Values


def dump(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _parse_datetime(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _parse_date(value: str) -> date:
    return date.fromisoformat(value)


def parser_of(field: models.Field[Any, Any]) -> Any:
    """How the archive's value of a field becomes the model's value (None when it stays as it is)."""
    if isinstance(field, models.DateTimeField):
        return _parse_datetime
    if isinstance(field, models.DateField):
        return _parse_date
    if isinstance(field, models.DecimalField):
        return Decimal
    return None


@cache
def parsers(model: type[models.Model], fields: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    return tuple((name, parser_of(model._meta.get_field(name))) for name in fields)


def dumped(row: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    return {name: dump(row[name]) for name in fields}


def loaded(model: type[models.Model], data: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    values = {}
    for name, parse in parsers(model, fields):
        value = data[name]
        values[name] = parse(value) if parse is not None and value is not None else value
    return values


def load(model: type[models.Model], name: str, value: Any) -> Any:
    ((_, parse),) = parsers(model, (name,))
    return parse(value) if parse is not None and value is not None else value


# ---------------------------------------------------------------------------------------------------
# Export


class Usernames:
    """User primary key -> username, each user looked up once; remembers the users it named."""

    def __init__(self) -> None:
        self.users: dict[int, dict[str, str]] = {}

    def prefetch(self, pks: Iterable[int | None]) -> None:
        wanted = {pk for pk in pks if pk is not None} - set(self.users)
        rows = get_user_model().objects.filter(pk__in=wanted).values("pk", *USER_FIELDS)
        self.users.update({row.pop("pk"): row for row in rows})

    def __call__(self, pk: int | None) -> str | None:
        if pk is None:
            return None
        if pk not in self.users:
            self.prefetch([pk])
        return self.users[pk]["username"]

    def listed(self) -> list[dict[str, str]]:
        return sorted(self.users.values(), key=lambda user: user["username"])


USER_FIELDS = ("username", "first_name", "last_name")


def build_archive(tournament: Tournament, progress: Progress = no_progress) -> dict[str, Any]:
    """The archive of a tournament as plain JSON-ready data (see docs/exports.md for every field)."""
    username = Usernames()
    data = Tournament.objects.filter(pk=tournament.pk).values().get()
    staff = list(StaffRole.objects.filter(tournament=tournament).values())
    username.prefetch(row["user_id"] for row in staff)
    players = list(Player.objects.filter(tournament=tournament).order_by("pk").values())
    name_of = {row["id"]: row["name"] for row in players}
    progress(0.1)
    rounds, sheet_key = _rounds(tournament, name_of, username, progress)
    round_number = {
        r["id"]: r["number"] for r in Round.objects.filter(tournament=tournament).values("id", "number")
    }
    penalties = []
    for row in Penalty.objects.filter(tournament=tournament).order_by("pk").values():
        penalty = dumped(row, PENALTY_FIELDS)
        penalty["player"] = name_of[row["player_id"]]
        penalty["round"] = round_number.get(row["round_id"])
        penalty["sheet"] = list(sheet_key[row["sheet_id"]]) if row["sheet_id"] else None
        penalty["given_by"] = username(row["given_by_id"])
        penalty["revoked_by"] = username(row["revoked_by_id"])
        penalties.append(penalty)
    archive = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {**dumped(data, TOURNAMENT_FIELDS), "created_by": username(data["created_by_id"])},
        "staff": sorted(
            (
                {
                    "user": username(row["user_id"]),
                    "role": row["role"],
                    "granted_by": username(row["granted_by_id"]),
                    "granted_at": dump(row["granted_at"]),
                }
                for row in staff
            ),
            key=lambda row: row["user"],
        ),
        "players": [{**dumped(row, PLAYER_FIELDS), "user": username(row["user_id"])} for row in players],
        "rounds": rounds,
        "absences": [
            {
                "round": round_number[row["round_id"]],
                "player": name_of[row["player_id"]],
                "reason": row["reason"],
                "substitute": name_of.get(row["substitute_id"]),
                "recorded_by": username(row["recorded_by_id"]),
                "recorded_at": dump(row["recorded_at"]),
            }
            for row in Absence.objects.filter(round__tournament=tournament).order_by("pk").values()
        ],
        "seating_jobs": [
            {**dumped(row, JOB_FIELDS), "requested_by": username(row["requested_by_id"])}
            for row in SeatingJob.objects.filter(tournament=tournament).order_by("pk").values()
        ],
        "penalties": penalties,
        "disqualifications": [
            {
                "player": name_of[row["player_id"]],
                "reason": row["reason"],
                "given_by": username(row["given_by_id"]),
                "given_at": dump(row["given_at"]),
            }
            for row in Disqualification.objects.filter(player__tournament=tournament).order_by("pk").values()
        ],
    }
    archive["users"] = username.listed()  # last: every user named above
    return archive


def _rounds(
    tournament: Tournament, name_of: dict[int, str], username: Usernames, progress: Progress
) -> tuple[list[dict[str, Any]], dict[int, tuple[int, int]]]:
    """The hanchan with their tables, seats and score sheets (results and history); and each sheet's
    natural key, (hanchan, table), by primary key."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number").values("id", *ROUND_FIELDS))
    number_of = {row["id"]: row["number"] for row in rounds}
    tables: dict[int, dict[str, Any]] = {}
    tables_of: dict[int, list[dict[str, Any]]] = {}
    for row in (
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .values("id", "round_id", "number", "extra_minutes")
    ):
        table = {
            "number": row["number"],
            "extra_minutes": row["extra_minutes"],
            "seats": [],
            "score_sheet": None,
        }
        tables[row["id"]] = table
        tables_of.setdefault(row["round_id"], []).append(table)
    wind_of: dict[int, int] = {}
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "wind")
        .values_list("id", "table_id", "wind", "player_id", "replaces_id")
    )
    for pk, table_id, wind, player_id, replaces_id in seats.iterator(chunk_size=5000):
        wind_of[pk] = wind
        tables[table_id]["seats"].append(
            {"wind": wind, "player": name_of[player_id], "replaces": name_of.get(replaces_id)}
        )
    progress(0.3)
    sheets: dict[int, dict[str, Any]] = {}
    sheet_key: dict[int, tuple[int, int]] = {}
    rows = ScoreSheet.objects.filter(table__round__tournament=tournament).values(
        "id", "table_id", "table__round_id", "table__number", *SHEET_FIELDS, *(f"{n}_id" for n in SHEET_USERS)
    )
    for row in rows.iterator(chunk_size=2000):
        sheet = {
            **dumped(row, SHEET_FIELDS),
            **{name: username(row[f"{name}_id"]) for name in SHEET_USERS},
            "results": [],
            "versions": [],
        }
        sheets[row["id"]] = tables[row["table_id"]]["score_sheet"] = sheet
        sheet_key[row["id"]] = (number_of[row["table__round_id"]], row["table__number"])
    results = (
        SeatResult.objects.filter(sheet__table__round__tournament=tournament)
        .order_by("sheet_id", "seat__wind")
        .values("sheet_id", "seat_id", "player_id", *RESULT_FIELDS)
    )
    for row in results.iterator(chunk_size=5000):
        result = {
            **dumped(row, RESULT_FIELDS),
            "wind": wind_of[row["seat_id"]],
            "player": name_of[row["player_id"]],
        }
        sheets[row["sheet_id"]]["results"].append(result)
    progress(0.5)
    versions = (
        SheetVersion.objects.filter(sheet__table__round__tournament=tournament)
        .order_by("pk")
        .values("sheet_id", "author_id", *VERSION_FIELDS)
    )
    for row in versions.iterator(chunk_size=2000):
        sheets[row["sheet_id"]]["versions"].append(
            {**dumped(row, VERSION_FIELDS), "author": username(row["author_id"])}
        )
    progress(0.8)
    return [
        {**dumped(row, ROUND_FIELDS), "tables": tables_of.get(row["id"], [])} for row in rounds
    ], sheet_key


def encode(archive: dict[str, Any]) -> bytes:
    """The archive's bytes: sorted keys, compact, UTF-8, a final newline."""
    text = json.dumps(archive, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text + "\n").encode("utf-8")


def export_archive(tournament: Tournament, progress: Progress = no_progress) -> bytes:
    data = encode(build_archive(tournament, progress))
    progress(1.0)
    return data


@register
class ArchiveExporter(Exporter):
    identifier = "archive_json"
    position = 90
    verbose_name = "Tournament archive (JSON)"
    description = "Everything about the tournament, to back it up or move it; import_archive loads it."
    permission = StaffRole.Role.ORGANISER

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        return ExportFile(f"{tournament.slug}-archive.json", JSON, export_archive(tournament, progress))


# ---------------------------------------------------------------------------------------------------
# Import

_timestamps_lock = threading.Lock()


@contextmanager
def timestamps_as_given(*model_classes: type[models.Model]) -> Iterator[None]:
    """Within the block, ``auto_now`` and ``auto_now_add`` fields keep the values they are given.

    The archive restores the times things happened; Django would otherwise stamp them with the time of the
    import. The switch is process-wide, so imports in one process take turns.
    """
    switched = [
        (field, field.auto_now, field.auto_now_add)
        for model in model_classes
        for field in model._meta.concrete_fields
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    ]
    with _timestamps_lock:
        for field, _, _ in switched:
            field.auto_now = field.auto_now_add = False
        try:
            yield
        finally:
            for field, auto_now, auto_now_add in switched:
                field.auto_now, field.auto_now_add = auto_now, auto_now_add


def decode(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(data, dict):
        archive = data
    else:
        try:
            archive = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ArchiveError(f"not a tournament archive: the file is not JSON ({exc})") from None
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveError(f'not a tournament archive: "format" is not "{FORMAT}"')
    if archive.get("version") != VERSION:
        raise ArchiveError(
            f"archive version {archive.get('version')!r} is not supported (this version reads {VERSION})"
        )
    return archive


def import_archive(data: bytes | str | dict[str, Any], *, slug: str | None = None) -> Tournament:
    """Create the archived tournament (under ``slug`` when given), all of it or nothing."""
    archive = decode(data)
    try:
        with transaction.atomic():
            return _import(archive, slug)
    except (KeyError, TypeError, ValueError, IntegrityError) as exc:
        if isinstance(exc, ArchiveError):
            raise
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ArchiveError(f"the archive could not be imported: {what}") from exc


def _users(archive: dict[str, Any]) -> dict[str, Any]:
    """username -> user: existing users by username, the others created with unusable passwords."""
    user_model = get_user_model()
    listed = {row["username"]: row for row in archive["users"]}
    existing = {u.get_username(): u for u in user_model.objects.filter(username__in=listed)}
    missing = [row for username, row in sorted(listed.items()) if username not in existing]
    if missing:
        user_model.objects.bulk_create(
            user_model(
                username=row["username"],
                first_name=row.get("first_name", ""),
                last_name=row.get("last_name", ""),
                password=make_password(None),
            )
            for row in missing
        )
        existing.update(
            {
                u.get_username(): u
                for u in user_model.objects.filter(username__in=[r["username"] for r in missing])
            }
        )
    return existing


def insert(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    """Create rows (field attname -> value, every row the same fields), in order; their new primary keys.

    On PostgreSQL the keys come from the table's sequence and the rows go in with COPY (about five times
    faster than ``bulk_create``, whose array parameters are slow to build for JSON); elsewhere with
    ``bulk_create``.
    """
    if not rows:
        return []
    if connection.vendor == "postgresql" and COPY_ON_POSTGRESQL:
        return _copy(model, rows)
    created = model._default_manager.bulk_create([model(**row) for row in rows], batch_size=BATCH)
    return [obj.pk for obj in created]


def _copy(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    meta = model._meta
    names = list(rows[0])
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for column in [meta.pk.column, *(f.column for f in fields)])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(rows)],
        )
        ids = [row[0] for row in cursor.fetchall()]
        prepare = [(name, copy_value(field)) for name, field in zip(names, fields, strict=True)]
        with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for pk, row in zip(ids, rows, strict=True):
                copy.write_row(
                    [pk, *(row[name] if prep is None else prep(row[name]) for name, prep in prepare)]
                )
    return ids


# Fields whose Python values COPY takes as they are (psycopg adapts them).
PLAIN_FIELDS = (
    models.IntegerField,
    models.FloatField,
    models.DecimalField,
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.DateField,  # DateTimeField too
    models.ForeignKey,
)


def copy_value(field: Any) -> Any:
    """How a field's value goes into COPY: None when as it is, else a function of the value."""
    if isinstance(field, models.JSONField):
        return lambda value: None if value is None else json.dumps(value, cls=field.encoder)
    if isinstance(field, PLAIN_FIELDS):
        return None
    real = connections[DEFAULT_DB_ALIAS]
    return lambda value: field.get_db_prep_save(value, real)


# Whether imports into PostgreSQL use COPY (tests turn it off to check the portable path there too).
COPY_ON_POSTGRESQL = True


def _import(archive: dict[str, Any], slug: str | None) -> Tournament:
    data = archive["tournament"]
    slug = slug or data["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise ArchiveError(
            f"a tournament with the slug {slug!r} exists already; import into a database without it "
            "(or under another slug)"
        )
    users = _users(archive)

    def user_id(username: str | None) -> int | None:
        if username is None:
            return None
        if username not in users:
            raise ArchiveError(f"user {username!r} is referenced but not listed in the archive's users")
        return users[username].pk

    with timestamps_as_given(
        Tournament,
        Player,
        StaffRole,
        Absence,
        SeatingJob,
        ScoreSheet,
        SheetVersion,
        Penalty,
        Disqualification,
    ):
        tournament = Tournament.objects.create(
            **{**loaded(Tournament, data, TOURNAMENT_FIELDS), "slug": slug},
            created_by_id=user_id(data["created_by"]),
        )
        insert(
            StaffRole,
            [
                {
                    "tournament_id": tournament.pk,
                    "user_id": user_id(row["user"]),
                    "role": row["role"],
                    "granted_by_id": user_id(row["granted_by"]),
                    "granted_at": load(StaffRole, "granted_at", row["granted_at"]),
                }
                for row in archive["staff"]
            ],
        )
        ids = insert(
            Player,
            [
                {
                    "tournament_id": tournament.pk,
                    "user_id": user_id(row["user"]),
                    **loaded(Player, row, PLAYER_FIELDS),
                }
                for row in archive["players"]
            ],
        )
        player_id = {row["name"]: pk for row, pk in zip(archive["players"], ids, strict=True)}

        def player(name: str | None) -> int | None:
            if name is None:
                return None
            if name not in player_id:
                raise ArchiveError(f"player {name!r} is referenced but not listed in the archive's players")
            return player_id[name]

        rounds = archive["rounds"]
        round_ids = insert(
            Round, [{"tournament_id": tournament.pk, **loaded(Round, row, ROUND_FIELDS)} for row in rounds]
        )
        round_id = {row["number"]: pk for row, pk in zip(rounds, round_ids, strict=True)}
        tables = [(pk, r, table) for pk, r in zip(round_ids, rounds, strict=True) for table in r["tables"]]
        table_ids = insert(
            Table,
            [
                {"round_id": rpk, "number": t["number"], "extra_minutes": t["extra_minutes"]}
                for rpk, _, t in tables
            ],
        )
        seat_rows = [
            {
                "table_id": tpk,
                "round_id": rpk,
                "wind": seat["wind"],
                "player_id": player(seat["player"]),
                "replaces_id": player(seat["replaces"]),
            }
            for tpk, (rpk, _, table) in zip(table_ids, tables, strict=True)
            for seat in table["seats"]
        ]
        seat_id = {
            (row["table_id"], row["wind"]): pk
            for row, pk in zip(seat_rows, insert(Seat, seat_rows), strict=True)
        }
        sheets = [
            (tpk, (r["number"], table["number"]), table["score_sheet"])
            for tpk, (_, r, table) in zip(table_ids, tables, strict=True)
            if table["score_sheet"] is not None
        ]
        sheet_ids = insert(
            ScoreSheet,
            [
                {
                    "table_id": tpk,
                    **loaded(ScoreSheet, sheet, SHEET_FIELDS),
                    **{f"{name}_id": user_id(sheet[name]) for name in SHEET_USERS},
                }
                for tpk, _, sheet in sheets
            ],
        )
        insert(
            SeatResult,
            [
                {
                    "sheet_id": spk,
                    "seat_id": seat_id[(tpk, result["wind"])],
                    "player_id": player(result["player"]),
                    **loaded(SeatResult, result, RESULT_FIELDS),
                }
                for spk, (tpk, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for result in sheet["results"]
            ],
        )
        insert(
            SheetVersion,
            [
                {
                    "sheet_id": spk,
                    "author_id": user_id(version["author"]),
                    **loaded(SheetVersion, version, VERSION_FIELDS),
                }
                for spk, (_, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for version in sheet["versions"]
            ],
        )
        sheet_id = {key: spk for spk, (_, key, _) in zip(sheet_ids, sheets, strict=True)}
        insert(
            Absence,
            [
                {
                    "round_id": round_id[row["round"]],
                    "player_id": player(row["player"]),
                    "reason": row["reason"],
                    "substitute_id": player(row["substitute"]),
                    "recorded_by_id": user_id(row["recorded_by"]),
                    "recorded_at": load(Absence, "recorded_at", row["recorded_at"]),
                }
                for row in archive["absences"]
            ],
        )
        insert(
            SeatingJob,
            [
                {
                    "tournament_id": tournament.pk,
                    "requested_by_id": user_id(row["requested_by"]),
                    **loaded(SeatingJob, row, JOB_FIELDS),
                }
                for row in archive["seating_jobs"]
            ],
        )
        insert(
            Penalty,
            [
                {
                    "tournament_id": tournament.pk,
                    "player_id": player(row["player"]),
                    "round_id": round_id[row["round"]] if row["round"] is not None else None,
                    "sheet_id": sheet_id[tuple(row["sheet"])] if row["sheet"] else None,
                    "given_by_id": user_id(row["given_by"]),
                    "revoked_by_id": user_id(row["revoked_by"]),
                    **loaded(Penalty, row, PENALTY_FIELDS),
                }
                for row in archive["penalties"]
            ],
        )
        insert(
            Disqualification,
            [
                {
                    "player_id": player(row["player"]),
                    "reason": row["reason"],
                    "given_by_id": user_id(row["given_by"]),
                    "given_at": load(Disqualification, "given_at", row["given_at"]),
                }
                for row in archive["disqualifications"]
            ],
        )
    return tournament
