"""The tournament archive, read back: the archived tournament created in one transaction, all of it or
nothing, in a database that does not have its slug. Exporting it again gives the same bytes as the
archive it came from (see ``dump``).

Users are referenced by username, never with a password: importing creates the users it does not find,
with unusable passwords (they sign in after a password reset), and leaves existing users as they are.
A bad archive is refused with ``Refusal``: field ``archive`` when the file is not an archive (not JSON,
too big, nested too deep, another format), otherwise the path of the value at fault
(``players.3.country``), checked as the product's own doors check it (``checks``). No database error
and no recursion gets through as anything but a refusal.

Each row is read, checked and written by ``rows``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction

from exports.archive.checks import (
    MAX_ARCHIVE_BYTES,
    MAX_ARCHIVE_DEPTH,
    check_names,
    check_sheet,
    check_tournament,
    field_refusal,
    seated_names,
)
from exports.archive.fields import (
    ABSENCE_FIELDS,
    AUDIT_FIELDS,
    CONFIRMATION_FIELDS,
    DISQUALIFICATION_FIELDS,
    FORMAT,
    JOB_FIELDS,
    PENALTY_FIELDS,
    PHASE_ENTRY_FIELDS,
    PHASE_FIELDS,
    PLAYER_FIELDS,
    RESULT_FIELDS,
    ROUND_FIELDS,
    SEAT_FIELDS,
    SHEET_FIELDS,
    SHEET_USERS,
    STAFF_FIELDS,
    TABLE_FIELDS,
    TOURNAMENT_FIELDS,
    USER_FIELDS,
    VERSION,
    VERSION_FIELDS,
)
from exports.archive.rows import insert, loaded, rows_of, timestamps_as_given
from penalties.models import Disqualification, Penalty
from scoring.models import ScoreSheet, SeatResult, SheetConfirmation, SheetVersion, current_signatures
from tournament.core.inputs import RULE_SYNTAX, read_json, require_plain_json
from tournament.core.phases import PhasePlan, plan_problem
from tournament.core.refusal import Refusal
from tournament.core.standings import tie_breaks_problem
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


def archive_refusal(message: str) -> Refusal:
    return Refusal("archive", "tournament-archive", message)


def parse(data: bytes | str | dict[str, Any], what: str = "a tournament archive") -> Any:
    """The archive's JSON, read within bounds (``checks.MAX_ARCHIVE_BYTES``, ``MAX_ARCHIVE_DEPTH``, no NUL
    character nor lone surrogate: ``tournament.core.inputs.read_json``), refused when the file is not JSON
    (``what`` names the kind of archive). Data already parsed is checked the same way."""
    if isinstance(data, dict):
        require_plain_json(data, field="archive", max_depth=MAX_ARCHIVE_DEPTH)
        return data
    try:
        return read_json(data, max_bytes=MAX_ARCHIVE_BYTES, max_depth=MAX_ARCHIVE_DEPTH, field="archive")
    except Refusal as refusal:
        if refusal.rule != RULE_SYNTAX:
            raise
        raise Refusal(
            "archive", RULE_SYNTAX, f"not {what}: the file is not JSON ({refusal.message})"
        ) from None


def decode(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    archive = parse(data)
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise archive_refusal(f'not a tournament archive: "format" is not "{FORMAT}"')
    if archive.get("version") != VERSION:
        raise archive_refusal(
            f"archive version {archive.get('version')!r} is not supported (this version reads {VERSION})"
        )
    return archive


# What a malformed archive raises before a check names the value: a missing key, a value of another
# type, a database's refusal (a unique name twice), nesting no check foresaw.
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, ArithmeticError, DatabaseError, RecursionError)


def malformed(exc: BaseException) -> str:
    """What a malformed archive raised, in one short line (a database's error runs over several)."""
    if isinstance(exc, KeyError):
        return f"missing field {exc}"
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


def import_archive(data: bytes | str | dict[str, Any], *, slug: str | None = None) -> Tournament:
    """Create the archived tournament (under ``slug`` when given), all of it or nothing."""
    archive = decode(data)
    try:
        with transaction.atomic():
            return _import(archive, slug)
    except MALFORMED as exc:
        raise archive_refusal(f"the archive could not be imported: {malformed(exc)}") from exc


def find_users(archive: dict[str, Any]) -> dict[str, Any]:
    """username -> user: existing users by username, the others created with unusable passwords."""
    user_model = get_user_model()
    listed = {}
    for index, row in enumerate(rows_of(archive, "users")):
        values = loaded(user_model, row, USER_FIELDS, f"users.{index}", index + 1)
        listed[values["username"]] = values
    existing = {u.get_username(): u for u in user_model.objects.filter(username__in=listed)}
    missing = [row for username, row in sorted(listed.items()) if username not in existing]
    if missing:
        user_model.objects.bulk_create(
            user_model(
                username=row["username"],
                first_name=row["first_name"],
                last_name=row["last_name"],
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


def tournament_settings(data: Any) -> dict[str, Any]:
    """The archive's tournament row with its tie-breaks and awards checked; an archive written before the
    ordered list has the single ``tie_break`` ("none" or one identifier), which becomes a list of none or
    one."""
    if not isinstance(data, dict):
        raise field_refusal("tournament", "archive-row", "not an object")
    if "tie_breaks" not in data:
        old = data.get("tie_break", "none")
        data = {**data, "tie_breaks": [] if old in (None, "none") else [old]}
    problem = tie_breaks_problem(data["tie_breaks"])
    if problem is not None:
        raise field_refusal("tournament.tie_breaks", "tie-breaks", problem)
    try:
        validate_awards(data.get("awards", []))
    except ValidationError as error:
        raise field_refusal("tournament.awards", "awards", error.messages[0]) from error
    return data


def _check_phases(phases: Any, hanchan_count: int) -> None:
    """An archive's phases as the organiser could have set them (``tournament.core.phases.plan_problem``)."""
    if not phases:
        return
    try:
        plans = [
            PhasePlan(row["name"], row["hanchan"], row["seating"], row["carry_over"], row["advance"])
            for row in phases
        ]
    except (KeyError, TypeError) as exc:
        raise field_refusal(
            "phases", "phases", f"each phase has name, hanchan, seating, carry_over and advance ({exc})"
        ) from None
    problem = plan_problem(plans)
    if problem is None and sum(plan.hanchan for plan in plans) != hanchan_count:
        raise field_refusal(
            "phases",
            "phases",
            f"{sum(p.hanchan for p in plans)} hanchan in all, the tournament {hanchan_count}",
        )
    if problem is not None:
        raise field_refusal("phases", "phases", problem.message)
    if [row.get("number") for row in phases] != list(range(1, len(phases) + 1)):
        raise field_refusal("phases", "phases", "numbered 1, 2, 3... in order")


def _import(archive: dict[str, Any], slug: str | None) -> Tournament:
    data = tournament_settings(archive["tournament"])
    if slug:
        data = {**data, "slug": slug}
    settings = loaded(Tournament, data, TOURNAMENT_FIELDS, "tournament")
    slug = settings["slug"]
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
        tournament = Tournament(**settings, created_by_id=user_id(data["created_by"]))
        check_tournament(tournament)
        tournament.save()
        insert(
            StaffRole,
            [
                {
                    "tournament_id": tournament.pk,
                    "user_id": user_id(row["user"]),
                    "granted_by_id": user_id(row["granted_by"]),
                    **loaded(StaffRole, row, STAFF_FIELDS, f"staff.{index}", index + 1),
                }
                for index, row in enumerate(rows_of(archive, "staff"))
            ],
        )
        players = rows_of(archive, "players")
        player_rows = []
        for index, row in enumerate(players):
            values = loaded(Player, row, PLAYER_FIELDS, f"players.{index}", index + 1)
            check_names(values, f"players.{index}", index + 1)
            player_rows.append({"tournament_id": tournament.pk, "user_id": user_id(row["user"]), **values})
        ids = insert(Player, player_rows)
        player_id = {row["name"]: pk for row, pk in zip(player_rows, ids, strict=True)}

        def player(name: str | None) -> int | None:
            if name is None:
                return None
            if name not in player_id:
                raise archive_refusal(
                    f"player {name!r} is referenced but not listed in the archive's players"
                )
            return player_id[name]

        rounds = rows_of(archive, "rounds")
        round_rows = [
            {"tournament_id": tournament.pk, **loaded(Round, row, ROUND_FIELDS, f"rounds.{index}", index + 1)}
            for index, row in enumerate(rounds)
        ]
        round_ids = insert(Round, round_rows)
        round_id = {row["number"]: pk for row, pk in zip(round_rows, round_ids, strict=True)}
        # Each table with its round's key, its place in the archive and its row.
        tables = [
            (pk, f"rounds.{r_index}.tables.{t_index}", t_index + 1, r, table)
            for r_index, (pk, r) in enumerate(zip(round_ids, rounds, strict=True))
            for t_index, table in enumerate(rows_of(r, "tables"))
        ]
        table_ids = insert(
            Table,
            [
                {"round_id": rpk, **loaded(Table, t, TABLE_FIELDS, where, line)}
                for rpk, where, line, _, t in tables
            ],
        )
        tables_by_pk = {tpk: table for tpk, (_, _, _, _, table) in zip(table_ids, tables, strict=True)}
        seat_rows = [
            {
                "table_id": tpk,
                "round_id": rpk,
                **loaded(Seat, seat, SEAT_FIELDS, f"{where}.seats.{s_index}", s_index + 1),
                "player_id": player(seat["player"]),
                "replaces_id": player(seat["replaces"]),
            }
            for tpk, (rpk, where, _, _, table) in zip(table_ids, tables, strict=True)
            for s_index, seat in enumerate(rows_of(table, "seats"))
        ]
        seat_id = {
            (row["table_id"], row["wind"]): pk
            for row, pk in zip(seat_rows, insert(Seat, seat_rows), strict=True)
        }
        sheets = [
            (tpk, f"{where}.score_sheet", (r["number"], table["number"]), table["score_sheet"])
            for tpk, (_, where, _, r, table) in zip(table_ids, tables, strict=True)
            if table["score_sheet"] is not None
        ]
        sheet_ids = insert(
            ScoreSheet,
            [
                {
                    "table_id": tpk,
                    **loaded(ScoreSheet, sheet, SHEET_FIELDS, where),
                    **{f"{name}_id": user_id(sheet[name]) for name in SHEET_USERS},
                    "submitted_by_player_id": player(sheet.get("submitted_by_player")),
                }
                for tpk, where, _, sheet in sheets
            ],
        )
        insert(
            SeatResult,
            [
                {
                    "sheet_id": spk,
                    "seat_id": seat_id[(tpk, result["wind"])],
                    "player_id": player(result["player"]),
                    **loaded(SeatResult, result, RESULT_FIELDS, f"{where}.results.{index}", index + 1),
                }
                for spk, (tpk, where, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for index, result in enumerate(rows_of(sheet, "results"))
            ],
        )
        # Each sheet as the sheet editor takes it, once its every value has passed its field's check.
        ruleset = tournament.ruleset()
        for tpk, where, _, sheet in sheets:
            check_sheet(sheet, ruleset, seated_names(tables_by_pk[tpk]), where)
        insert(
            SheetVersion,
            [
                {
                    "sheet_id": spk,
                    "author_id": user_id(version["author"]),
                    "player_id": player(version.get("player")),
                    **loaded(SheetVersion, version, VERSION_FIELDS, f"{where}.versions.{index}", index + 1),
                }
                for spk, (_, where, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for index, version in enumerate(rows_of(sheet, "versions"))
            ],
        )
        insert(
            SheetConfirmation,
            [
                {
                    "sheet_id": spk,
                    "player_id": player(answer["player"]),
                    **loaded(
                        SheetConfirmation,
                        answer,
                        CONFIRMATION_FIELDS,
                        f"{where}.confirmations.{index}",
                        index + 1,
                    ),
                }
                for spk, (_, where, _, sheet) in zip(sheet_ids, sheets, strict=True)
                for index, answer in enumerate(rows_of(sheet, "confirmations", default=[]))
            ],
        )
        mend_signers(sheet_ids)
        sheet_id = {key: spk for spk, (_, _, key, _) in zip(sheet_ids, sheets, strict=True)}
        insert(
            Absence,
            [
                {
                    "round_id": round_id[row["round"]],
                    "player_id": player(row["player"]),
                    "substitute_id": player(row["substitute"]),
                    "recorded_by_id": user_id(row["recorded_by"]),
                    **loaded(Absence, row, ABSENCE_FIELDS, f"absences.{index}", index + 1),
                }
                for index, row in enumerate(rows_of(archive, "absences"))
            ],
        )
        insert(
            SeatingJob,
            [
                {
                    "tournament_id": tournament.pk,
                    "requested_by_id": user_id(row["requested_by"]),
                    **loaded(SeatingJob, row, JOB_FIELDS, f"seating_jobs.{index}", index + 1),
                }
                for index, row in enumerate(rows_of(archive, "seating_jobs"))
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
                    **loaded(Penalty, row, PENALTY_FIELDS, f"penalties.{index}", index + 1),
                }
                for index, row in enumerate(rows_of(archive, "penalties"))
            ],
        )
        insert(
            Disqualification,
            [
                {
                    "player_id": player(row["player"]),
                    "given_by_id": user_id(row["given_by"]),
                    **loaded(
                        Disqualification,
                        row,
                        DISQUALIFICATION_FIELDS,
                        f"disqualifications.{index}",
                        index + 1,
                    ),
                }
                for index, row in enumerate(rows_of(archive, "disqualifications"))
            ],
        )
        # Archives written before phases have none (a tournament in one phase).
        phases = rows_of(archive, "phases", default=[])
        _check_phases(phases, tournament.hanchan_count)
        for p_index, phase_row in enumerate(phases):
            phase = Phase.objects.create(
                tournament=tournament,
                **loaded(Phase, phase_row, PHASE_FIELDS, f"phases.{p_index}", p_index + 1),
            )
            insert(
                PhaseEntry,
                [
                    {
                        "phase_id": phase.pk,
                        "player_id": player(row["player"]),
                        "replaces_id": player(row["replaces"]),
                        **loaded(
                            PhaseEntry,
                            row,
                            PHASE_ENTRY_FIELDS,
                            f"phases.{p_index}.entries.{index}",
                            index + 1,
                        ),
                    }
                    for index, row in enumerate(rows_of(phase_row, "entries"))
                ],
            )
        insert(
            AuditEntry,
            [
                {
                    "tournament_id": tournament.pk,
                    "actor_id": user_id(row["actor"]),
                    **loaded(AuditEntry, row, AUDIT_FIELDS, f"audit.{index}", index + 1),
                }
                for index, row in enumerate(rows_of(archive, "audit", default=[]))  # none before the audit
            ],
        )
    return tournament


def mend_signers(sheet_ids: list[int]) -> None:
    """A loaded signed sheet's own ``signed_by`` and ``signed_at`` are its history's signer and time (an
    archive written before a correction signed its version names the first signer there)."""
    signed = list(ScoreSheet.objects.filter(pk__in=sheet_ids, status=ScoreSheet.Status.SIGNED))
    signatures = current_signatures(signed)  # one query
    mended = []
    for sheet in signed:
        signature = signatures[sheet.pk]
        author_id = signature.author.pk if signature.author is not None else None
        if (sheet.signed_by_id, sheet.signed_at) != (author_id, signature.at):
            sheet.signed_by_id, sheet.signed_at = author_id, signature.at
            mended.append(sheet)
    ScoreSheet.objects.bulk_update(mended, ["signed_by", "signed_at"], batch_size=1000)
