"""Score-sheet actions: check, save, submit, sign, correct. Each is one transaction.

A sheet's entry is checked by the rules engine (``scoring.rules``) before anything is stored; an invalid
entry raises ``SheetInvalid`` with every error, each naming the hand and the rule, and nothing is saved.

Entry format (the engine's sheet format, players by name, without the ``players`` list, which the
table's seating gives):

* final points only: ``{"form": "final", "final_points": {name: points}, "riichi_sticks_left": n,
  "chombo": [name, ...]}``;
* hand by hand: ``{"form": "hands", "hands": [...], "final_points": {...} (optional, checked),
  "riichi_sticks_left": n (optional, checked), "ended_by_time": bool}``, each hand an outcome or the four
  point changes, as ``python -m scoring.rules sheet`` takes them.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from penalties.models import Penalty
from scoring.models import ScoreSheet, SeatResult, SheetVersion
from scoring.rules.replay import replay
from scoring.rules.scores import check_final_points, format_score, hanchan_scores
from tournament import access
from tournament.models import Seat, StaffRole, Table
from tournament.standings_db import forget_live, schedule_standings_refresh

Role = StaffRole.Role


class SheetError(Exception):
    """Base class: a sheet action that cannot be done; ``errors`` say why, in the engine's format."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(str(e["message"]) for e in errors))
        self.errors = errors


class SheetInvalid(SheetError):
    """The rules engine refuses the entry."""


class SheetConflict(SheetError):
    """Another submission got there first (a second referee, a double click, a retried request)."""


class SheetLocked(SheetError):
    """The sheet is signed: only a correction by a head referee or organiser changes it."""


def _error(field: str, rule: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": field, "rule": rule, "message": message}


def seated_players(table: Table) -> list[Seat]:
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.wind)
    if len(seats) != 4:
        raise SheetInvalid(
            [_error("table", "seating", f"table {table.number} has {len(seats)} players seated, not 4")]
        )
    return seats


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(table: Table, entry: dict[str, Any]) -> str:
    """SHA-256 of the sheet's canonical content: which table, who sat where, and what was entered."""
    seats = [(seat.wind, seat.player_id) for seat in seated_players(table)]
    content = {
        "tournament": table.round.tournament_id,
        "round": table.round.number,
        "table": table.number,
        "seats": seats,
        "entry": entry,
    }
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


def check_entry(table: Table, entry: dict[str, Any]) -> dict[str, Any]:
    """The rules engine's verdict on an entry for this table, without storing anything.

    Returns the replay (``valid`` true, with ``final_points``, ``ranks``, ``uma``, ``scores``, ``chombo``
    and, hand by hand, ``hands``) or ``{"valid": false, "errors": [...]}``.
    """
    if not isinstance(entry, dict):
        return {"valid": False, "errors": [_error("entry", "format", "the sheet must be a JSON object")]}
    ruleset = table.round.tournament.ruleset()
    names = [seat.player.name for seat in seated_players(table)]
    form = entry.get("form")
    if form == ScoreSheet.Form.FINAL:
        return _check_final(entry, names, ruleset)
    if form == ScoreSheet.Form.HANDS:
        sheet = {key: value for key, value in entry.items() if key != "form"}
        sheet["players"] = names
        sheet.pop("ruleset", None)
        return replay(sheet, ruleset)
    message = f"form must be 'final' (final points only) or 'hands' (hand by hand), not {form!r}"
    return {"valid": False, "errors": [_error("form", "format", message)]}


def _check_final(entry: dict[str, Any], names: list[str], ruleset: Any) -> dict[str, Any]:
    points = entry.get("final_points")
    sticks = entry.get("riichi_sticks_left", 0)
    chombo = entry.get("chombo", [])
    errors: list[dict[str, Any]] = []
    if not isinstance(points, dict):
        errors.append(_error("final_points", "format", "final_points must map each player's name to points"))
    else:
        unknown = sorted(set(points) - set(names))
        missing = [name for name in names if name not in points]
        for name in unknown:
            errors.append(_error("final_points", "players", f"{name} is not at this table"))
        for name in missing:
            errors.append(_error("final_points", "players", f"final points of {name} are missing"))
    if not isinstance(sticks, int) or isinstance(sticks, bool) or sticks < 0:
        errors.append(
            _error("riichi_sticks_left", "format", "riichi_sticks_left must be a whole number, 0 or more")
        )
    if not isinstance(chombo, list) or any(name not in names for name in chombo):
        errors.append(_error("chombo", "players", "chombo must list players of this table"))
    if errors:
        return {"valid": False, "errors": errors}
    assert isinstance(points, dict)
    ordered = {name: points[name] for name in names}
    problems = check_final_points(ordered, sticks, ruleset)
    if problems:
        return {"valid": False, "errors": [{**p, "field": "final_points"} for p in problems]}
    ranks, uma, scores = hanchan_scores(ordered, ruleset, sticks)
    return {
        "valid": True,
        "final_points": ordered,
        "riichi_sticks_left": sticks,
        "finished": True,
        "ranks": ranks,
        "uma": {name: format_score(value) for name, value in uma.items()},
        "scores": {name: format_score(value) for name, value in scores.items()},
        "chombo": [{"player": name, "hand": None, "points": -ruleset.chombo_penalty} for name in chombo],
    }


def _checked(table: Table, entry: dict[str, Any], *, complete: bool = True) -> dict[str, Any]:
    """The replay of a valid entry; a submitted or signed sheet must also be a whole hanchan."""
    result = check_entry(table, entry)
    if not result["valid"]:
        raise SheetInvalid(result["errors"])
    if complete and not result.get("finished", True) and entry.get("ended_by_time") is not True:
        raise SheetInvalid(
            [
                _error(
                    "hands",
                    "end-of-game (WRCR 2015 §5.9.1)",
                    "the hanchan is not over: more hands, or mark it ended by time",
                )
            ]
        )
    return result


def _record(sheet: ScoreSheet, action: str, user: AbstractBaseUser | None, reason: str = "") -> None:
    SheetVersion.objects.create(
        sheet=sheet,
        version=sheet.version,
        action=action,
        status=sheet.status,
        entry=sheet.entry,
        replay=sheet.replay,
        content_hash=content_hash(sheet.table, sheet.entry),
        author=user,
        reason=reason,
    )


def _lock_table(table: Table) -> Table:
    return Table.objects.select_related("round__tournament").select_for_update(of=("self",)).get(pk=table.pk)


@transaction.atomic
def save_sheet(
    table: Table,
    entry: dict[str, Any],
    user: AbstractBaseUser,
    *,
    submit: bool = False,
    expected_version: int | None = None,
) -> ScoreSheet:
    """Create the table's sheet (``expected_version`` None) or update the draft/submitted one.

    Creating a sheet for a table that has one, or updating a version other than the latest, is a
    ``SheetConflict``: of two simultaneous submissions, exactly one is stored.
    """
    access.require_role(user, table.round.tournament, Role.REFEREE)
    replayed = _checked(table, entry, complete=submit)
    form = entry["form"]
    status = ScoreSheet.Status.SUBMITTED if submit else ScoreSheet.Status.DRAFT
    now = timezone.now()
    if expected_version is None:
        try:
            with transaction.atomic():
                sheet = ScoreSheet.objects.create(
                    table=table,
                    status=status,
                    form=form,
                    entry=entry,
                    replay=replayed,
                    created_by=user,
                    submitted_by=user if submit else None,
                    submitted_at=now if submit else None,
                )
        except IntegrityError:
            existing = ScoreSheet.objects.get(table=table)
            raise SheetConflict(
                [
                    _error(
                        "table",
                        "one-sheet-per-table",
                        f"table {table.number} of hanchan {table.round.number} already has a score "
                        f"sheet (version {existing.version}, {existing.get_status_display().lower()}"
                        f"); reload it and edit that one",
                    )
                ]
            ) from None
        _record(sheet, SheetVersion.Action.SUBMITTED if submit else SheetVersion.Action.CREATED, user)
        transaction.on_commit(lambda: forget_live(table.round.tournament_id))  # a table is no longer empty
        return sheet
    _lock_table(table)
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is None:
        raise SheetConflict(
            [_error("version", "stale-version", f"table {table.number} has no sheet yet; create it instead")]
        )
    if sheet.is_signed:
        raise SheetLocked(
            [
                _error(
                    "status",
                    "signed-sheets-are-locked (WRCR 2015 §8.2)",
                    "the sheet is signed; a head referee or organiser can correct it",
                )
            ]
        )
    if sheet.version != expected_version:
        raise SheetConflict(
            [
                _error(
                    "version",
                    "stale-version",
                    f"the sheet changed (now version {sheet.version}, you edited version "
                    f"{expected_version}); reload it",
                )
            ]
        )
    sheet.entry, sheet.replay, sheet.form, sheet.status = entry, replayed, form, status
    sheet.version += 1
    if submit:
        sheet.submitted_by, sheet.submitted_at = user, now
    sheet.save()
    _record(sheet, SheetVersion.Action.SUBMITTED if submit else SheetVersion.Action.UPDATED, user)
    transaction.on_commit(lambda: forget_live(table.round.tournament_id))
    return sheet


@transaction.atomic
def sign_sheet(
    sheet: ScoreSheet, user: AbstractBaseUser, *, expected_version: int | None = None
) -> ScoreSheet:
    """A referee of the tournament signs: who, when and the content hash are recorded; the sheet locks."""
    access.require_role(user, sheet.table.round.tournament, Role.REFEREE)
    _lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if sheet.is_signed:
        raise SheetLocked([_error("status", "already-signed", f"already signed by {sheet.signed_by}")])
    if expected_version is not None and sheet.version != expected_version:
        raise SheetConflict(
            [
                _error(
                    "version",
                    "stale-version",
                    f"the sheet changed (now version {sheet.version}); check it again before signing",
                )
            ]
        )
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        raise SheetInvalid([_error("status", "submit-before-signing", "submit the sheet before signing it")])
    _checked(sheet.table, sheet.entry)  # the rules may not have changed, but a signature checks anyway
    sheet.status = ScoreSheet.Status.SIGNED
    sheet.signed_by, sheet.signed_at = user, timezone.now()
    sheet.content_hash = content_hash(sheet.table, sheet.entry)
    sheet.save()
    _write_results(sheet)
    _sync_chombo_penalties(sheet, user)
    _record(sheet, SheetVersion.Action.SIGNED, user)
    schedule_standings_refresh(sheet.table.round.tournament_id)
    return sheet


@transaction.atomic
def correct_sheet(
    sheet: ScoreSheet,
    entry: dict[str, Any],
    user: AbstractBaseUser,
    *,
    reason: str,
    expected_version: int | None = None,
) -> ScoreSheet:
    """A head referee or organiser changes a signed sheet; the old version stays in the history."""
    access.require_role(user, sheet.table.round.tournament, Role.HEAD_REFEREE)
    if not reason.strip():
        raise SheetInvalid([_error("reason", "corrections-give-a-reason", "a correction needs a reason")])
    _lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if not sheet.is_signed:
        raise SheetInvalid(
            [_error("status", "correct-signed-sheets", "only a signed sheet is corrected; edit it")]
        )
    if expected_version is not None and sheet.version != expected_version:
        raise SheetConflict(
            [_error("version", "stale-version", f"the sheet changed (now version {sheet.version})")]
        )
    replayed = _checked(sheet.table, entry)
    sheet.entry, sheet.replay, sheet.form = entry, replayed, entry["form"]
    sheet.version += 1
    sheet.content_hash = content_hash(sheet.table, entry)
    sheet.save()
    _write_results(sheet)
    _sync_chombo_penalties(sheet, user)
    _record(sheet, SheetVersion.Action.CORRECTED, user, reason.strip())
    schedule_standings_refresh(sheet.table.round.tournament_id)
    return sheet


def _write_results(sheet: ScoreSheet) -> None:
    replayed = sheet.replay
    sheet.results.all().delete()  # derived rows, rebuilt from the sheet; the sheet's history keeps the past
    SeatResult.objects.bulk_create(
        SeatResult(
            sheet=sheet,
            seat=seat,
            player=seat.player,
            points=replayed["final_points"][seat.player.name],
            rank=replayed["ranks"][seat.player.name],
            uma=Decimal(replayed["uma"][seat.player.name]),
            score=Decimal(replayed["scores"][seat.player.name]),
        )
        for seat in seated_players(sheet.table)
    )


def _sync_chombo_penalties(sheet: ScoreSheet, user: AbstractBaseUser) -> None:
    """WRCR 2015 §7.1: each chombo on the sheet is a point penalty, linked to the sheet and its hand."""
    tournament = sheet.table.round.tournament
    players = {seat.player.name: seat.player for seat in seated_players(sheet.table)}
    wanted = {(c["player"], c.get("hand")) for c in sheet.replay.get("chombo", [])}
    active = {
        (p.player.name, p.hand): p
        for p in Penalty.objects.filter(
            sheet=sheet, kind=Penalty.Kind.CHOMBO, revoked_at=None
        ).select_related("player")
    }
    for key, penalty in active.items():
        if key not in wanted:
            penalty.revoked_by, penalty.revoked_at = user, timezone.now()
            penalty.revoke_reason = f"no longer on the sheet (version {sheet.version})"
            penalty.save(update_fields=["revoked_by", "revoked_at", "revoke_reason"])
    for name, hand in sorted(wanted - set(active), key=lambda item: (item[1] or 0, item[0])):
        where = f"hand {hand}" if hand else "the sheet"
        Penalty.objects.create(
            tournament=tournament,
            player=players[name],
            round=sheet.table.round,
            kind=Penalty.Kind.CHOMBO,
            points=tournament.ruleset().chombo_penalty,
            sheet=sheet,
            hand=hand,
            given_by=user,
            reason=f"chombo on {where} of table {sheet.table.number}, hanchan {sheet.table.round.number}",
        )
