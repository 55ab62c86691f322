"""Score-sheet actions: check, save, submit, sign, correct. Each is one transaction.

A sheet's entry is checked by the rules engine (``scoring.rules``) before anything is stored; an invalid
entry raises ``tournament.core.refusal.Refusal`` with every error as a ``Problem``, each naming its hand (or
null)
and its rule, and nothing is saved. A conflict (a second sheet for a table, a stale version) and a signed,
locked sheet are refusals with status 409 (``CONFLICT``).

Entry format (the engine's sheet format, players by name, without the ``players`` list, which the
table's seating gives):

* final points only: ``{"form": "final", "final_points": {name: points}, "riichi_sticks_left": n,
  "chombo": [name, ...]}``;
* hand by hand: ``{"form": "hands", "hands": [...], "final_points": {...} (optional, checked),
  "riichi_sticks_left": n (optional, checked), "ended_by_time": bool}``, each hand an outcome (an
  abortive draw and a nagashi mangan too where the tournament's ruleset allows them) or the four point
  changes, as ``python -m scoring.rules sheet`` takes them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from penalties import services as penalties
from scoring import tenhou_links
from scoring.models import ScoreSheet, SeatResult, SheetConfirmation, SheetVersion, SubmissionKey
from scoring.rules import tenhou
from scoring.rules.replay import Error, Verdict, check_final, replay
from scoring.rules.ruleset import Ruleset
from tournament.core.inputs import RULE_PRINTABLE, json_control_problem, require_printable
from tournament.core.refusal import CONFLICT, INVALID, Problem, Refusal
from tournament.models import Player, Round, Seat, StaffRole, Table
from tournament.queries import access, live
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import forget_live, schedule_standings_refresh
from tournament.services import audit, participation, rounds

Role = StaffRole.Role

# Score-sheet problems always carry ``hand`` (null when not about one hand), as the API has always
# answered them: an extra key ``Problem.as_dict`` keeps even when it is null.
_HAND_KEY: dict[str, Any] = {"hand": None}


def _refusal(field: str, rule: str, message: str, *, status: int = INVALID) -> Refusal:
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
        raise _refusal("table", "seating", message)
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


def _checked(table: Table, entry: dict[str, Any], seats: Sequence[Seat], *, complete: bool = True) -> Verdict:
    """The verdict on a valid entry; a submitted or signed sheet must also be a whole hanchan."""
    verdict = check_entry(table, entry, seats)
    if not verdict.valid:
        raise Refusal.of([_problem(error) for error in verdict.errors])
    if complete and verdict.finished is False and entry.get("ended_by_time") is not True:
        raise _refusal(
            "hands",
            "end-of-game (WRCR 2015 §5.9.1)",
            _("the hanchan is not over: more hands, or mark it ended by time"),
        )
    return verdict


def _entered(table: Table, entry: dict[str, Any], seats: Sequence[Seat], *, submit: bool) -> Verdict:
    """The verdict on an entry a referee or a seated player saves. Submitted, it must be valid and a whole
    hanchan (``_checked``). A draft is stored with its problems, which its stored verdict (``replay``:
    ``valid`` false, ``errors``) and the sheet editor name, and submitting it is refused until they are
    fixed; only an entry that is no sheet at all (``_not_a_sheet``) is refused as a draft."""
    if submit:
        return _checked(table, entry, seats)
    not_a_sheet = _not_a_sheet(entry)
    if not_a_sheet is not None:
        raise Refusal.of([_problem(not_a_sheet)])
    return check_entry(table, entry, seats)


def _record(
    sheet: ScoreSheet,
    action: str,
    user: AbstractBaseUser | None,
    seats: Sequence[Seat],
    reason: str = "",
    *,
    player: Player | None = None,
    findings: list[dict[str, Any]] | None = None,
) -> SheetVersion:
    """The sheet's state as one more entry of its history: by a user (staff), or by a seated ``player``
    (``user`` None), or by the table as a whole (both None); ``findings``, a new version's game-log
    findings."""
    return SheetVersion.objects.create(
        sheet=sheet,
        version=sheet.version,
        action=action,
        status=sheet.status,
        entry=sheet.entry,
        replay=sheet.replay,
        content_hash=content_hash(sheet.table, sheet.entry, seats),
        author=user,
        player=player,
        reason=reason,
        findings=findings,
    )


def _sign(
    sheet: ScoreSheet, action: str, user: AbstractBaseUser | None, seats: Sequence[Seat], reason: str = ""
) -> None:
    """Signs the sheet's current version (a referee's signature, a correction, the table's agreement):
    its history entry is written first and the sheet's own ``signed_by`` and ``signed_at`` are that
    entry's author and time, so that the sheet and its history never tell two stories."""
    sheet.status = ScoreSheet.Status.SIGNED
    sheet.content_hash = content_hash(sheet.table, sheet.entry, seats)
    signed = _record(sheet, action, user, seats, reason)
    sheet.signed_by, sheet.signed_at = user, signed.at
    sheet.save()


def log_findings(sheet: ScoreSheet) -> list[dict[str, Any]] | None:
    """The findings of the game log the sheet's current version was read from (``Finding.as_json``
    each; empty when the log's game was scored as the tournament scores it), or None when that version
    was entered by hand. They belong to the entry that began the version: signing or disputing it keeps
    them, a new version leaves them in the history."""
    findings: list[dict[str, Any]] | None = (
        SheetVersion.objects.filter(sheet=sheet, version=sheet.version)
        .order_by("pk")
        .values_list("findings", flat=True)
        .first()
    )
    return findings


def _lock_table(table: Table) -> Table:
    """The table's row, locked for this transaction: saves of one table queue on it, and so does taking
    back a club session's table (``tournament.services.club``), refused here once it is gone."""
    locked = (
        Table.objects.select_related("round__tournament")
        .select_for_update(of=("self",))
        .filter(pk=table.pk)
        .first()
    )
    if locked is None:
        hanchan = table.round.number if Table.round.is_cached(table) else "?"
        raise _refusal(
            "table",
            "table-taken-back",
            _("table: the table of hanchan {number} was taken back; it has no sheet to enter").format(
                number=hanchan
            ),
            status=CONFLICT,
        )
    return locked


def _stale(message: str) -> Refusal:
    return _refusal("version", "stale-version", message, status=CONFLICT)


@transaction.atomic
def save_sheet(
    table: Table,
    entry: dict[str, Any],
    user: AbstractBaseUser,
    *,
    submit: bool = False,
    expected_version: int | None = None,
) -> ScoreSheet:
    """Create the table's sheet (``expected_version`` None) or update the draft/submitted one. A draft is
    stored with the problems the rules engine finds in it; submitting refuses them (``_entered``).

    Creating a sheet for a table that has one, or updating a version other than the latest, is a
    refusal with status 409: of two simultaneous submissions, exactly one is stored.
    """
    access.require_role(user, table.round.tournament, Role.REFEREE)
    table = _lock_table(table)  # one save of the table at a time, and never of a table taken back
    seats = seated_players(table)
    replayed = _entered(table, entry, seats, submit=submit).as_json()
    return _write_entry(
        table, entry, replayed, seats, submit=submit, expected_version=expected_version, user=user
    )


def _referee_may_change(sheet: ScoreSheet) -> None:
    if sheet.is_signed:
        raise _refusal(
            "status",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("the sheet is signed; a head referee or organiser can correct it"),
            status=CONFLICT,
        )


def _write_entry(
    table: Table,
    entry: dict[str, Any],
    replayed: dict[str, Any],
    seats: Sequence[Seat],
    *,
    submit: bool,
    expected_version: int | None,
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
    findings: list[dict[str, Any]] | None = None,
) -> ScoreSheet:
    """Store a checked entry: a new sheet (``expected_version`` None) or the next version of the draft or
    submitted one, by a referee (``user``) or a seated ``player``, with its line in the history.

    ``findings``: those of the game log the entry was read from. A next version that scores every hand
    as the previous one did (the same replay: a draft read from a log, submitted as read, whatever the
    sheet editor rewrote of the entry's form, such as a default it leaves out) keeps that version's
    findings: they are still about this sheet.

    A second sheet for a table, or a version other than the latest, is refused with 409: of two
    simultaneous submissions, exactly one is stored."""
    status = ScoreSheet.Status.SUBMITTED if submit else ScoreSheet.Status.DRAFT
    if expected_version is None:
        try:
            with transaction.atomic():
                sheet = ScoreSheet.objects.create(
                    table=table,
                    status=status,
                    form=entry["form"],
                    entry=entry,
                    replay=replayed,
                    created_by=user,
                )
        except IntegrityError:
            existing = ScoreSheet.objects.get(table=table)
            raise _refusal(
                "table",
                "one-sheet-per-table",
                _(
                    "table {table} of hanchan {hanchan} already has a score sheet (version {version}, "
                    "{status}); reload it and edit that one"
                ).format(
                    table=table.number,
                    hanchan=table.round.number,
                    version=existing.version,
                    status=existing.get_status_display().lower(),
                ),
                status=CONFLICT,
            ) from None
        action = SheetVersion.Action.SUBMITTED if submit else SheetVersion.Action.CREATED
    else:
        _lock_table(table)
        sheet = ScoreSheet.objects.filter(table=table).first()
        if sheet is None:
            raise _stale(_("table {table} has no sheet yet; create it instead").format(table=table.number))
        (_referee_may_change if player is None else _players_may_change)(sheet)
        if sheet.version != expected_version:
            raise _stale(
                _("the sheet changed (now version {version}, you edited version {edited}); reload it").format(
                    version=sheet.version, edited=expected_version
                )
            )
        if findings is None and replayed == sheet.replay:
            findings = log_findings(sheet)
        sheet.entry, sheet.replay, sheet.form, sheet.status = entry, replayed, entry["form"], status
        sheet.version += 1
        action = SheetVersion.Action.SUBMITTED if submit else SheetVersion.Action.UPDATED
    if submit:
        sheet.submitted_by, sheet.submitted_by_player, sheet.submitted_at = user, player, timezone.now()
        rounds.follow_play(table.round, submitted=True)  # a table finished playing: the hanchan is on
    sheet.save()
    _record(sheet, action, user, seats, player=player, findings=findings)
    transaction.on_commit(lambda: forget_live(table.round.tournament_id))  # a table is no longer empty
    tables_changed_on_commit(table.round.tournament_id)  # the live tables: a hand entered, or the sheet
    return sheet


@transaction.atomic
def sheet_from_log(
    table: Table,
    log: bytes | str,
    user: AbstractBaseUser,
    *,
    mapping: dict[str, str] | None = None,
    expected_version: int | None = None,
    reseat_winds: bool = False,
) -> tuple[ScoreSheet, tuple[tenhou.Finding, ...]]:
    """A draft sheet read from an online game's log (tenhou.net/6 JSON or Tenhou's mjlog XML,
    ``scoring.rules.tenhou.read_game_log``): the
    log's players mapped to the seated four (``mapping``: log name -> player name, where the names
    differ), checked by the rules engine as any sheet and saved as a draft (nothing is signed), with the
    findings where the online game's rules differ from the tournament's, stored with the version.

    The log's seats must be the table's winds, unless ``reseat_winds``: the table sat as in the log (an
    online client draws the seats), and a head referee re-seats its four players' winds as the log's, in
    this transaction (``_reseat_as_log``)."""
    access.require_role(user, table.round.tournament, Role.HEAD_REFEREE if reseat_winds else Role.REFEREE)
    table = _lock_table(table)
    seats = seated_players(table)
    read = tenhou.read_game_log(log)
    seated = [seat.player.name for seat in seats]
    players = tenhou.match_players(read.names, seated, mapping, reseat=reseat_winds)
    if reseat_winds and list(players) != seated:
        seats = _reseat_as_log(table, seats, players, user)
    converted = tenhou.log_sheet(read, players, table.round.tournament.ruleset())
    replayed = _checked(table, converted.entry, seats, complete=False).as_json()
    sheet = _write_entry(
        table,
        converted.entry,
        replayed,
        seats,
        submit=False,
        expected_version=expected_version,
        user=user,
        findings=[finding.as_json() for finding in converted.findings],
    )
    return sheet, converted.findings


MAX_LINKS = 64  # the games of one hanchan pasted at once: a table each


def fetch_log(link: str, field: str = "link") -> bytes:
    """The mjlog XML of the Tenhou game of a replay link or id (``scoring.tenhou_links``), fetched before
    any transaction; a ``Refusal`` naming ``field`` otherwise."""
    return tenhou_links.fetch(tenhou_links.game_id(link, field), field)


def sheets_from_links(round_: Round, links: Sequence[str], user: AbstractBaseUser) -> dict[str, Any]:
    """Several Tenhou games of one hanchan by their replay links (a head referee): each game is fetched and
    read, and goes to the table of ``round_`` its four nicknames are seated at (names compared without
    case and accents), as a draft read from its log with the log's winds (``sheet_from_log`` with
    ``reseat_winds``, one transaction per table). The answer: ``placed`` (link, game, table, version,
    findings) and ``unplaced`` (link, game or None, the reason: not a link, Tenhou's answer, a log that
    cannot be read, nicknames seated at no table, a second game for one table, a refused sheet)."""
    access.require_role(user, round_.tournament, Role.HEAD_REFEREE)
    if not isinstance(links, (list, tuple)) or not 0 < len(links) <= MAX_LINKS:
        raise _refusal(
            "links", "game-log-link", _("links: 1 to {limit} Tenhou links or ids").format(limit=MAX_LINKS)
        )
    tables: dict[frozenset[str], Table] = {}
    for table in Table.objects.filter(round=round_).prefetch_related("seats__player"):
        names = frozenset(tenhou.fold(seat.player.name) for seat in table.seats.all())
        if len(names) == 4:
            tables[names] = table
    placed: list[dict[str, Any]] = []
    unplaced: list[dict[str, Any]] = []
    taken: set[int] = set()
    for index, link in enumerate(links):
        field = f"links[{index}]"
        game: str | None = None
        try:
            game = tenhou_links.game_id(str(link), field)
            raw = tenhou_links.fetch(game, field)
            read = tenhou.read_game_log(raw)
        except Refusal as refused:
            unplaced.append({"link": str(link)[:200], "game": game, "reason": refused.message})
            continue
        table = tables.get(frozenset(tenhou.fold(name) for name in read.names))
        if table is None or table.pk in taken:
            reason = (
                _("its players {names} sit together at no table of hanchan {round}")
                if table is None
                else _("a second game of {names} in hanchan {round}; the first was taken")
            ).format(names=", ".join(read.names), round=round_.number)
            unplaced.append({"link": str(link)[:200], "game": game, "reason": reason})
            continue
        current = ScoreSheet.objects.filter(table=table).values_list("version", flat=True).first()
        try:
            sheet, findings = sheet_from_log(table, raw, user, expected_version=current, reseat_winds=True)
        except Refusal as refused:
            unplaced.append({"link": str(link)[:200], "game": game, "reason": refused.message})
            continue
        taken.add(table.pk)
        placed.append(
            {
                "link": str(link)[:200],
                "game": game,
                "table": table.number,
                "version": sheet.version,
                "findings": [finding.as_json() for finding in findings],
            }
        )
    return {"placed": placed, "unplaced": unplaced}


def _reseat_as_log(
    table: Table, seats: Sequence[Seat], players: Sequence[str], user: AbstractBaseUser
) -> list[Seat]:
    """The table's four seats given the winds of the log (``players``: East, South, West, North by name;
    the same four players, only their winds change, each keeping whom they replace), with an audit
    entry naming each moved player's old and new wind. Refused once the table's sheet is signed: its
    results belong to the seats it was signed with (a correction changes it). The new seats, East
    first."""
    sheet = ScoreSheet.objects.filter(table=table).only("status").first()
    if sheet is not None and sheet.is_signed:
        raise _refusal(
            "reseat_winds",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("table {table}'s sheet is signed with its seats; it is not re-seated").format(
                table=table.number
            ),
            status=CONFLICT,
        )
    by_name = {seat.player.name: seat for seat in seats}  # the log's four are these (match_players)
    # The audit keeps the winds in English whatever the language of the request (the labels are lazy).
    winds = {wind.value: wind.name.title() for wind in Seat.Wind}
    before = {name: winds[seat.wind] for name, seat in by_name.items()}
    moved = [by_name[name] for name in players]
    # Out of the way first: the database holds one seat per wind at a table at every moment.
    Seat.objects.filter(pk__in=[seat.pk for seat in moved]).update(wind=F("wind") + len(moved))
    for wind, seat in enumerate(moved):
        seat.wind = wind
    Seat.objects.bulk_update(moved, ["wind"])
    audit.record(
        table.round.tournament,
        user,
        "seating.reseat_winds",
        f"hanchan {table.round.number}, table {table.number}, as the game log sat",
        {
            name: [before[name], winds[seat.wind]]
            for name, seat in zip(players, moved, strict=True)
            if before[name] != winds[seat.wind]
        },
    )
    live.announce_on_commit(table.round.tournament_id, "seating")  # seating pages and projectors reload
    return moved


# An ``Idempotency-Key``: 16 to 64 letters, digits, ``-`` or ``_`` (a UUID fits).
IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
# A key used again for another request: the request is understood, and refused (HTTP 422).
KEY_REUSED = 422
# A saved key answers retries for a week, then the beat forgets it (``forget_old_submission_keys``). A
# retry after that cannot save twice either: its expected version is no longer the sheet's (409).
SUBMISSION_KEY_DAYS = 7


@dataclass(frozen=True)
class SaveAnswer:
    """The answer to a keyed save: its HTTP status and JSON body, and whether it is the stored answer
    of an earlier request with the same key (``replayed``) rather than a save made now."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def _request_hash(entry: dict[str, Any], submit: bool, expected_version: int | None) -> str:
    request = {
        "entry": entry,
        "action": "submit" if submit else "draft",
        "expected_version": expected_version,
    }
    return hashlib.sha256(canonical_json(request).encode()).hexdigest()


@transaction.atomic
def save_sheet_once(
    table: Table,
    entry: dict[str, Any],
    user: AbstractBaseUser | None,
    *,
    key: str,
    submit: bool = False,
    expected_version: int | None = None,
    player: Player | None = None,
) -> SaveAnswer:
    """``save_sheet`` (a referee, ``user``) or ``player_save_sheet`` (a seated ``player`` when the players
    enter the results) under an idempotency key: the first request with ``key`` saves (or is refused)
    and its answer is stored with the key in the same transaction; a retry with the same key and the
    same request gets that answer again and saves nothing; the same key with another request, or from
    someone else, is refused (422). Saves of one table queue on the table's row, so two copies of one
    request sent at once save once. A rules refusal or a conflict is an answer too: it is stored and
    replayed the same way.
    """
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise _refusal(
            "Idempotency-Key",
            "idempotency-key-format",
            _("the Idempotency-Key header must be 16 to 64 letters, digits, '-' or '_'"),
        )
    if (user is None) == (player is None):
        raise ValueError("a keyed save is made by a referee or by a player, not both")
    if user is not None:
        access.require_role(user, table.round.tournament, Role.REFEREE)
    request_hash = _request_hash(entry, submit, expected_version)
    _lock_table(table)
    stored = SubmissionKey.objects.filter(key=key).first()
    if stored is not None:
        same_author = (
            stored.user_id == user.pk if user is not None else stored.player_id == player.pk  # type: ignore[union-attr]
        )
        if stored.table_id != table.pk or not same_author or stored.request_hash != request_hash:
            raise _refusal(
                "Idempotency-Key",
                "idempotency-key-reuse",
                _("this Idempotency-Key was used for another request; a new save needs a new key"),
                status=KEY_REUSED,
            )
        return SaveAnswer(stored.status, stored.response, replayed=True)
    try:
        if player is not None:
            sheet = player_save_sheet(table, entry, player, submit=submit, expected_version=expected_version)
        else:
            assert user is not None
            sheet = save_sheet(table, entry, user, submit=submit, expected_version=expected_version)
    except Refusal as refused:
        body: dict[str, Any] = {"errors": refused.as_dicts()}
        if refused.status == CONFLICT:
            current = ScoreSheet.objects.filter(table=table).values_list("version", flat=True).first()
            body["current_version"] = current
        answer = SaveAnswer(refused.status, body)
    else:
        answer = SaveAnswer(200, {"version": sheet.version, "status": sheet.status})
    try:
        with transaction.atomic():
            SubmissionKey.objects.create(
                key=key,
                table=table,
                user=user,
                player=player,
                request_hash=request_hash,
                status=answer.status,
                response=answer.body,
            )
    except IntegrityError:  # the same key, at the same moment, for another table: neither is trusted
        raise _refusal(
            "Idempotency-Key",
            "idempotency-key-reuse",
            _("this Idempotency-Key was used for another request; a new save needs a new key"),
            status=KEY_REUSED,
        ) from None
    return answer


@transaction.atomic
def sign_sheet(
    sheet: ScoreSheet, user: AbstractBaseUser, *, expected_version: int | None = None
) -> ScoreSheet:
    """A referee of the tournament signs: who, when and the content hash are recorded; the sheet locks."""
    access.require_role(user, sheet.table.round.tournament, Role.REFEREE)
    _lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if sheet.is_signed:
        if sheet.signed_by_table:
            message = _("already signed: the four players agreed")
        else:
            message = _("already signed by {user}").format(user=sheet.signed_by)
        raise _refusal("status", "already-signed", message, status=CONFLICT)
    if expected_version is not None and sheet.version != expected_version:
        raise _stale(
            _("the sheet changed (now version {version}); check it again before signing").format(
                version=sheet.version
            )
        )
    if sheet.status not in (ScoreSheet.Status.SUBMITTED, ScoreSheet.Status.DISPUTED):
        raise _refusal("status", "submit-before-signing", _("submit the sheet before signing it"))
    seats = seated_players(sheet.table)
    # The rules may not have changed, but a signature checks anyway; the results come from this check.
    verdict = _checked(sheet.table, sheet.entry, seats)
    _sign(sheet, SheetVersion.Action.SIGNED, user, seats)
    _write_results(sheet, verdict, seats)
    _sync_chombo_penalties(sheet, verdict, seats, user)
    rounds.follow_play(sheet.table.round, signed=True)  # the last table signed finishes the hanchan
    participation.book_missed(sheet.table.round, user)  # and books its missed-hanchan penalties
    schedule_standings_refresh(sheet.table.round.tournament_id)
    tables_changed_on_commit(sheet.table.round.tournament_id)
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
        raise _refusal("reason", "corrections-give-a-reason", _("a correction needs a reason"))
    require_printable("reason", reason, multiline=True)
    _lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if not sheet.is_signed:
        raise _refusal("status", "correct-signed-sheets", _("only a signed sheet is corrected; edit it"))
    if expected_version is not None and sheet.version != expected_version:
        raise _stale(_("the sheet changed (now version {version})").format(version=sheet.version))
    seats = seated_players(sheet.table)
    verdict = _checked(sheet.table, entry, seats)
    sheet.entry, sheet.replay, sheet.form = entry, verdict.as_json(), entry["form"]
    sheet.version += 1
    # The correction's author signs the new version: the sheet's signer and time are this version's,
    # never those of the version it replaces.
    _sign(sheet, SheetVersion.Action.CORRECTED, user, seats, reason.strip())
    _write_results(sheet, verdict, seats)
    _sync_chombo_penalties(sheet, verdict, seats, user)
    schedule_standings_refresh(sheet.table.round.tournament_id)
    tables_changed_on_commit(sheet.table.round.tournament_id)
    return sheet


def _write_results(sheet: ScoreSheet, verdict: Verdict, seats: Sequence[Seat]) -> None:
    """Each seat's points, rank, uma and score, straight from the verdict's integers and Decimals."""
    assert verdict.final_points is not None and verdict.ranks is not None
    assert verdict.uma is not None and verdict.scores is not None
    sheet.results.all().delete()  # derived rows, rebuilt from the sheet; the sheet's history keeps the past
    SeatResult.objects.bulk_create(
        SeatResult(
            sheet=sheet,
            seat=seat,
            player=seat.player,
            points=verdict.final_points[seat.player.name],
            rank=verdict.ranks[seat.player.name],
            uma=verdict.uma[seat.player.name],
            score=verdict.scores[seat.player.name],
        )
        for seat in seats
    )


def _sync_chombo_penalties(
    sheet: ScoreSheet, verdict: Verdict, seats: Sequence[Seat], user: AbstractBaseUser
) -> None:
    """WRCR 2015 §7.1: each chombo on the sheet is a point penalty, linked to the sheet and its hand; the
    penalties app gives and revokes them."""
    players = {seat.player.name: seat.player for seat in seats}
    wanted = [(players[chombo.player], chombo.hand) for chombo in verdict.chombo or ()]
    penalties.sync_sheet_chombo(sheet, wanted, user)


# ---------------------------------------------------------------------------------------------------
# Players enter, the table confirms (the tournament's entry mode ``players``)
#
# A seated player saves and submits the sheet (the same rules engine, the same refusals); submitting counts
# as agreeing. The other three agree with, or dispute, that version on their own phones; a new version
# leaves the earlier answers behind. All four agreeing on the current version signs the sheet for the
# table (no referee: ``signed_by`` is empty and the history says "confirmed by the table"). A dispute
# hands the sheet to the referees: from then on, as once it is signed, the players change nothing.

MAX_DISPUTE_REASON = 500
RULE_DISPUTED = "disputed-sheets-go-to-a-referee"


def _players_may_change(sheet: ScoreSheet) -> None:
    """Refused once a referee has the last word: the sheet is signed, or a player disputed it."""
    if sheet.is_signed:
        raise _refusal(
            "status",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("the sheet is signed; only a head referee or organiser can correct it"),
            status=CONFLICT,
        )
    if sheet.disputed_at is not None:
        raise _refusal(
            "status",
            RULE_DISPUTED,
            _("a player of the table disputed the sheet: a referee decides and signs it"),
            status=CONFLICT,
        )


def _player_table(table: Table, player: Player) -> tuple[Table, list[Seat]]:
    """The table, locked, and its seats, once the player is known to be one of them."""
    table = _lock_table(table)
    seats = seated_players(table)
    access.require_table_player(player, table, seats)
    return table, seats


@transaction.atomic
def player_save_sheet(
    table: Table,
    entry: dict[str, Any],
    player: Player,
    *,
    submit: bool = False,
    expected_version: int | None = None,
) -> ScoreSheet:
    """A seated player creates (``expected_version`` None) or changes the table's sheet, as a draft or
    submitted; a submission is the player's agreement with that version."""
    table, seats = _player_table(table, player)
    replayed = _entered(table, entry, seats, submit=submit).as_json()
    sheet = _write_entry(
        table, entry, replayed, seats, submit=submit, expected_version=expected_version, player=player
    )
    if submit:
        SheetConfirmation.objects.create(
            sheet=sheet, player=player, version=sheet.version, decision=SheetConfirmation.Decision.AGREE
        )
    return sheet


def _sheet_to_answer(table: Table, player: Player, version: int) -> ScoreSheet:
    """The submitted sheet of the table at ``version``, which this player has not answered yet."""
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is None:
        message = _("table {table} has no sheet yet").format(table=table.number)
        raise _refusal("table", "no-sheet", message, status=CONFLICT)
    sheet.table = table
    _players_may_change(sheet)
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        raise _refusal("status", "submit-before-confirming", _("the sheet is a draft: it is submitted first"))
    if sheet.version != version:
        raise _stale(
            _("the sheet changed (now version {version}, you read version {read}); read it again").format(
                version=sheet.version, read=version
            )
        )
    if SheetConfirmation.objects.filter(sheet=sheet, player=player, version=version).exists():
        message = _("{player} has answered version {version} already").format(
            player=player.name, version=version
        )
        raise _refusal("version", "one-answer-per-version", message, status=CONFLICT)
    return sheet


@transaction.atomic
def confirm_sheet(table: Table, player: Player, *, version: int) -> ScoreSheet:
    """A seated player agrees with ``version`` of the submitted sheet; the fourth agreement signs it."""
    table, seats = _player_table(table, player)
    sheet = _sheet_to_answer(table, player, version)
    SheetConfirmation.objects.create(
        sheet=sheet, player=player, version=version, decision=SheetConfirmation.Decision.AGREE
    )
    agreed = set(
        SheetConfirmation.objects.filter(
            sheet=sheet, version=version, decision=SheetConfirmation.Decision.AGREE
        ).values_list("player_id", flat=True)
    )
    if all(seat.player_id in agreed for seat in seats):
        _sign_by_table(sheet, seats)
    return sheet


def _sign_by_table(sheet: ScoreSheet, seats: Sequence[Seat]) -> None:
    """The four players agreed: the same effects as a referee's signature (``sign_sheet``), signed by
    nobody, the history naming the four."""
    verdict = _checked(sheet.table, sheet.entry, seats)
    # Written in the tournament's language, as every text the product writes into the record.
    east, south, west, north = (seat.player.name for seat in seats)
    with translation.override(sheet.table.round.tournament.record_language()):
        agreed = _("agreed by {east}, {south}, {west} and {north}").format(
            east=east, south=south, west=west, north=north
        )
    _sign(sheet, SheetVersion.Action.CONFIRMED, None, seats, agreed)
    _write_results(sheet, verdict, seats)
    players = {seat.player.name: seat.player for seat in seats}
    penalties.sync_sheet_chombo(sheet, [(players[c.player], c.hand) for c in verdict.chombo or ()], None)
    rounds.follow_play(sheet.table.round, signed=True)  # the last table signed finishes the hanchan
    participation.book_missed(sheet.table.round, None)  # and books its missed-hanchan penalties
    schedule_standings_refresh(sheet.table.round.tournament_id)
    tables_changed_on_commit(sheet.table.round.tournament_id)


@transaction.atomic
def dispute_sheet(table: Table, player: Player, *, version: int, reason: str) -> ScoreSheet:
    """A seated player disputes ``version`` of the submitted sheet, with a reason: the sheet goes to the
    referees (status ``disputed``), who edit and sign it."""
    reason = reason.strip()
    if not reason:
        raise _refusal("reason", "disputes-give-a-reason", _("say what is wrong with the sheet"))
    if len(reason) > MAX_DISPUTE_REASON:
        message = _("the reason is {length} characters long; at most {limit}").format(
            length=len(reason), limit=MAX_DISPUTE_REASON
        )
        raise _refusal("reason", "length", message)
    require_printable("reason", reason, multiline=True)
    table, seats = _player_table(table, player)
    sheet = _sheet_to_answer(table, player, version)
    SheetConfirmation.objects.create(
        sheet=sheet,
        player=player,
        version=version,
        decision=SheetConfirmation.Decision.DISPUTE,
        reason=reason,
    )
    sheet.status, sheet.disputed_at = ScoreSheet.Status.DISPUTED, timezone.now()
    sheet.save(update_fields=["status", "disputed_at", "updated_at"])
    _record(sheet, SheetVersion.Action.DISPUTED, None, seats, reason, player=player)
    transaction.on_commit(lambda: forget_live(table.round.tournament_id))
    tables_changed_on_commit(table.round.tournament_id)
    return sheet


def confirmations(sheet: ScoreSheet) -> dict[int, SheetConfirmation]:
    """The answers to the sheet's current version, by player pk."""
    return {
        answer.player_id: answer
        for answer in SheetConfirmation.objects.filter(sheet=sheet, version=sheet.version)
    }


@shared_task(name="scoring.forget_old_submission_keys", ignore_result=True)
def forget_old_submission_keys(days: int = SUBMISSION_KEY_DAYS) -> int:
    """Delete the idempotency keys older than ``days`` (sent daily by the beat); how many went."""
    deleted, _ = SubmissionKey.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
