"""A sheet's entry checked by the rules engine, before anything is stored: the table's four seats, the
verdict on an entry (``check_entry``, also what the sheet editor's check answers; ``check_entry_of`` for
an archive's sheets), what a submitted or a draft entry must be, and the refusal of a sheet action with
its problems, each naming its hand (or null). The content hash a version is stored with is here too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import ScoreSheet
from scoring.rules.replay import Error, Verdict, check_final, replay
from scoring.rules.ruleset import Ruleset
from tournament.core.inputs import RULE_PRINTABLE, json_control_problem
from tournament.core.refusal import INVALID, Problem, Refusal
from tournament.models import Seat, StaffRole, Table

Role = StaffRole.Role

# Score-sheet problems always carry ``hand`` (null when not about one hand), as the API has always
# answered them: an extra key ``Problem.as_dict`` keeps even when it is null.
_HAND_KEY: dict[str, Any] = {"hand": None}


def refusal(field: str, rule: str, message: str, *, status: int = INVALID) -> Refusal:
    """A refusal of a sheet action that is about no hand."""
    return Refusal.of([Problem(field, rule, message, extra=_HAND_KEY)], status=status)


def _problem(error: Error) -> Problem:
    """An error of the rules engine as a refusal's problem: a named hand is about the field ``hands``."""
    field = error.field or ("hands" if error.hand is not None else None)
    return Problem(field, error.rule, error.message, hand=error.hand, extra=_HAND_KEY)


def seated_players(table: Table) -> list[Seat]:
    """The four seats of the table, East first, with their players: one query, once per action."""
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.wind)
    if len(seats) != 4:
        message = _("table {table} has {count} players seated, not 4").format(
            table=table.number, count=len(seats)
        )
        raise refusal("table", "seating", message)
    return seats


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(table: Table, entry: dict[str, Any], seats: Sequence[Seat] | None = None) -> str:
    """SHA-256 of the sheet's canonical content: which table, who sat where, and what was entered."""
    seated = seats if seats is not None else seated_players(table)
    content = {
        "tournament": table.round.tournament_id,
        "round": table.round.number,
        "table": table.number,
        "seats": [(seat.wind, seat.player_id) for seat in seated],
        "entry": entry,
    }
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


def check_entry(table: Table, entry: dict[str, Any], seats: Sequence[Seat] | None = None) -> Verdict:
    """The rules engine's verdict on an entry for this table, without storing anything.

    A valid verdict holds ``final_points``, ``ranks``, ``uma``, ``scores`` (``Decimal``), ``chombo`` and,
    hand by hand, ``hands``; an invalid one every error. ``Verdict.as_json()`` is what the check
    endpoints answer. ``seats``: the table's seats when the caller has them already.
    """
    names = [seat.player.name for seat in (seats if seats is not None else seated_players(table))]
    return check_entry_of(entry, table.round.tournament.ruleset(), names)


def _not_a_sheet(entry: Any) -> Error | None:
    """What makes an entry no score sheet at all (not a JSON object, a control character in it, no known
    form), or None: such an entry is refused even as a draft; any other problem is a draft's to keep."""
    if not isinstance(entry, dict):
        return Error(None, "format", _("the sheet must be a JSON object"), "entry")
    unprintable = json_control_problem(entry)
    if unprintable is not None:
        return Error(None, RULE_PRINTABLE, f"entry: {unprintable}", "entry")
    form = entry.get("form")
    if form not in (ScoreSheet.Form.FINAL, ScoreSheet.Form.HANDS):
        message = _("form must be 'final' (final points only) or 'hands' (hand by hand), not {form}").format(
            form=repr(form)
        )
        return Error(None, "format", message, "form")
    return None


def check_entry_of(entry: Any, ruleset: Ruleset, names: Sequence[str]) -> Verdict:
    """``check_entry`` given the tournament's ruleset and the four seated names, East first (an archive's
    sheets are checked so before anything of them is stored)."""
    not_a_sheet = _not_a_sheet(entry)
    if not_a_sheet is not None:
        return Verdict.refused([not_a_sheet])
    sheet = {key: value for key, value in entry.items() if key != "form"}
    sheet["players"] = names
    sheet.pop("ruleset", None)
    if entry["form"] == ScoreSheet.Form.FINAL:
        return check_final(sheet, ruleset)
    return replay(sheet, ruleset)


def checked(table: Table, entry: dict[str, Any], seats: Sequence[Seat], *, complete: bool = True) -> Verdict:
    """The verdict on a valid entry; a submitted or signed sheet must also be a whole hanchan."""
    verdict = check_entry(table, entry, seats)
    if not verdict.valid:
        raise Refusal.of([_problem(error) for error in verdict.errors])
    if complete and verdict.finished is False and entry.get("ended_by_time") is not True:
        raise refusal(
            "hands",
            "end-of-game (WRCR 2015 §5.9.1)",
            _("the hanchan is not over: more hands, or mark it ended by time"),
        )
    return verdict


def entered(table: Table, entry: dict[str, Any], seats: Sequence[Seat], *, submit: bool) -> Verdict:
    """The verdict on an entry a referee or a seated player saves. Submitted, it must be valid and a whole
    hanchan (``checked``). A draft is stored with its problems, which its stored verdict (``replay``:
    ``valid`` false, ``errors``) and the sheet editor name, and submitting it is refused until they are
    fixed; only an entry that is no sheet at all (``_not_a_sheet``) is refused as a draft."""
    if submit:
        return checked(table, entry, seats)
    not_a_sheet = _not_a_sheet(entry)
    if not_a_sheet is not None:
        raise Refusal.of([_problem(not_a_sheet)])
    return check_entry(table, entry, seats)
