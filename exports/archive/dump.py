"""The tournament archive, written: everything about one tournament in one JSON file (``load`` reads it back).

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
from collections.abc import Iterable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model

from exports.archive.fields import (
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
    USER_FIELDS,
    VERSION,
    VERSION_FIELDS,
)
from exports.progress import Progress, no_progress
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
)


def dump(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def dumped(row: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    return {name: dump(row[name]) for name in fields}


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
        "phases": _phases(tournament, name_of),
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
        "audit": [
            {
                "actor": username(row["actor_id"]),
                "at": dump(row["at"]),
                "action": row["action"],
                "subject": row["subject"],
                "changes": row["changes"],
            }
            for row in AuditEntry.objects.filter(tournament=tournament).order_by("pk").values()
        ],
    }
    archive["users"] = username.listed()  # last: every user named above
    return archive


def _phases(tournament: Tournament, name_of: dict[int, str]) -> list[dict[str, Any]]:
    """The phases in order, each with its players after the cut in the order they entered it."""
    entries: dict[int, list[dict[str, Any]]] = {}
    for row in PhaseEntry.objects.filter(phase__tournament=tournament).order_by("pk").values():
        entries.setdefault(row["phase_id"], []).append(
            {
                **dumped(row, PHASE_ENTRY_FIELDS),
                "player": name_of[row["player_id"]],
                "replaces": name_of.get(row["replaces_id"]),
            }
        )
    return [
        {**dumped(row, PHASE_FIELDS), "entries": entries.get(row["id"], [])}
        for row in Phase.objects.filter(tournament=tournament).order_by("number").values()
    ]


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
        "id",
        "table_id",
        "table__round_id",
        "table__number",
        "submitted_by_player_id",
        *SHEET_FIELDS,
        *(f"{n}_id" for n in SHEET_USERS),
    )
    for row in rows.iterator(chunk_size=2000):
        sheet = {
            **dumped(row, SHEET_FIELDS),
            **{name: username(row[f"{name}_id"]) for name in SHEET_USERS},
            "submitted_by_player": name_of.get(row["submitted_by_player_id"]),
            "results": [],
            "versions": [],
            "confirmations": [],
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
        .values("sheet_id", "author_id", "player_id", *VERSION_FIELDS)
    )
    for row in versions.iterator(chunk_size=2000):
        sheets[row["sheet_id"]]["versions"].append(
            {
                **dumped(row, VERSION_FIELDS),
                "author": username(row["author_id"]),
                "player": name_of.get(row["player_id"]),
            }
        )
    answers = (
        SheetConfirmation.objects.filter(sheet__table__round__tournament=tournament)
        .order_by("pk")
        .values("sheet_id", "player_id", *CONFIRMATION_FIELDS)
    )
    for row in answers.iterator(chunk_size=2000):
        sheets[row["sheet_id"]]["confirmations"].append(
            {**dumped(row, CONFIRMATION_FIELDS), "player": name_of[row["player_id"]]}
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
