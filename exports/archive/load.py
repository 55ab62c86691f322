"""The tournament archive, read back: the archived tournament created in one transaction, all of it or
nothing, in a database that does not have its slug. Exporting it again gives the same bytes as the
archive it came from (see ``dump``).

Users are referenced by username, never with a password: importing creates the users it does not find,
with unusable passwords (they sign in after a password reset), and leaves existing users as they are.
A bad archive is refused with ``Refusal`` (field ``archive``), naming what is wrong.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, models, transaction

from exports.archive.fields import (
    ADDED_FIELDS,
    BATCH,
    CONFIRMATION_FIELDS,
    FORMAT,
    JOB_FIELDS,
    PENALTY_FIELDS,
    PHASE_ENTRY_FIELDS,
    PHASE_FIELDS,
    PLAYER_FIELDS,
    RESULT_FIELDS,
    ROUND_FIELDS,
    SHEET_FIELDS,
    SHEET_USERS,
    TOURNAMENT_FIELDS,
    VERSION,
    VERSION_FIELDS,
)
from penalties.models import Disqualification, Penalty
from scoring.models import ScoreSheet, SeatResult, SheetConfirmation, SheetVersion
from tournament.models import (
    Absence,
    AuditEntry,
    Phase,
    PhaseEntry,
    Player,
    Round,
    Seat,
    SeatingJob,
    StaffRole,
    Table,
    Tournament,
    validate_awards,
)
from tournament.phases import PhasePlan, plan_problem
from tournament.refusal import Refusal
from tournament.standings import tie_breaks_problem


def archive_refusal(message: str) -> Refusal:
    return Refusal("archive", "tournament-archive", message)


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


def loaded(model: type[models.Model], data: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    values = {}
    for name, parse in parsers(model, fields):
        value = data[name] if name not in ADDED_FIELDS else data.get(name, ADDED_FIELDS[name])
        values[name] = parse(value) if parse is not None and value is not None else value
    return values


def load(model: type[models.Model], name: str, value: Any) -> Any:
    ((_, parse),) = parsers(model, (name,))
    return parse(value) if parse is not None and value is not None else value


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


def parse(data: bytes | str | dict[str, Any], what: str = "a tournament archive") -> Any:
    """The archive's JSON, refused when the file is not JSON (``what`` names the kind of archive)."""
    if isinstance(data, dict):
        return data
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise archive_refusal(f"not {what}: the file is not JSON ({exc})") from None


def decode(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    archive = parse(data)
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise archive_refusal(f'not a tournament archive: "format" is not "{FORMAT}"')
    if archive.get("version") != VERSION:
        raise archive_refusal(
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
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise archive_refusal(f"the archive could not be imported: {what}") from exc


def find_users(archive: dict[str, Any]) -> dict[str, Any]:
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


def tournament_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The archive's tournament row with its tie-breaks and awards checked; an archive written before the
    ordered list has the single ``tie_break`` ("none" or one identifier), which becomes a list of none or
    one."""
    if "tie_breaks" not in data:
        old = data.get("tie_break", "none")
        data = {**data, "tie_breaks": [] if old in (None, "none") else [old]}
    problem = tie_breaks_problem(data["tie_breaks"])
    if problem is not None:
        raise archive_refusal(f"tournament.tie_breaks: {problem}")
    try:
        validate_awards(data.get("awards", []))
    except ValidationError as error:
        raise archive_refusal(f"tournament.awards: {error.messages[0]}") from error
    return data


def _check_phases(phases: Any, hanchan_count: int) -> None:
    """An archive's phases as the organiser could have set them (``tournament.phases.plan_problem``)."""
    if not phases:
        return
    try:
        plans = [
            PhasePlan(row["name"], row["hanchan"], row["seating"], row["carry_over"], row["advance"])
            for row in phases
        ]
    except (KeyError, TypeError) as exc:
        raise archive_refusal(
            f"phases: each phase has name, hanchan, seating, carry_over and advance ({exc})"
        ) from None
    problem = plan_problem(plans)
    if problem is None and sum(plan.hanchan for plan in plans) != hanchan_count:
        raise archive_refusal(
            f"phases: {sum(p.hanchan for p in plans)} hanchan in all, the tournament {hanchan_count}"
        )
    if problem is not None:
        raise archive_refusal(problem.message)
    if [row.get("number") for row in phases] != list(range(1, len(phases) + 1)):
        raise archive_refusal("phases: numbered 1, 2, 3... in order")


def _import(archive: dict[str, Any], slug: str | None) -> Tournament:
    data = tournament_settings(archive["tournament"])
    slug = slug or data["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise archive_refusal(
            f"a tournament with the slug {slug!r} exists already; import into a database without it "
            "(or under another slug)"
        )
    users = find_users(archive)

    def user_id(username: str | None) -> int | None:
        if username is None:
            return None
        if username not in users:
            raise archive_refusal(f"user {username!r} is referenced but not listed in the archive's users")
        return users[username].pk

    with timestamps_as_given(
        Tournament,
        Player,
        StaffRole,
        Absence,
        SeatingJob,
        ScoreSheet,
        SheetVersion,
        SheetConfirmation,
        Penalty,
        Disqualification,
        AuditEntry,
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
                raise archive_refusal(
                    f"player {name!r} is referenced but not listed in the archive's players"
                )
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
                    "submitted_by_player_id": player(sheet.get("submitted_by_player")),
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
                    "player_id": player(version.get("player")),
                    **loaded(SheetVersion, version, VERSION_FIELDS),
                }
                for spk, (_, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for version in sheet["versions"]
            ],
        )
        insert(
            SheetConfirmation,
            [
                {
                    "sheet_id": spk,
                    "player_id": player(answer["player"]),
                    **loaded(SheetConfirmation, answer, CONFIRMATION_FIELDS),
                }
                for spk, (_, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for answer in sheet.get("confirmations", [])
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
        # Archives written before phases have none (a tournament in one phase).
        phases = archive.get("phases", [])
        _check_phases(phases, tournament.hanchan_count)
        for phase_row in phases:
            phase = Phase.objects.create(tournament=tournament, **loaded(Phase, phase_row, PHASE_FIELDS))
            insert(
                PhaseEntry,
                [
                    {
                        "phase_id": phase.pk,
                        "player_id": player(row["player"]),
                        "replaces_id": player(row["replaces"]),
                        **loaded(PhaseEntry, row, PHASE_ENTRY_FIELDS),
                    }
                    for row in phase_row["entries"]
                ],
            )
        insert(
            AuditEntry,
            [
                {
                    "tournament_id": tournament.pk,
                    "actor_id": user_id(row["actor"]),
                    "at": load(AuditEntry, "at", row["at"]),
                    "action": row["action"],
                    "subject": row["subject"],
                    "changes": row["changes"],
                }
                for row in archive.get("audit", [])  # archives written before the audit have none
            ],
        )
    return tournament
