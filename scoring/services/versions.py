"""A sheet's versions, written: the table's row locked (saves of one table queue on it), an entry stored
as a new sheet or the next version with its line in the history, who may still change it (a referee
until it is signed; the players until it is signed or disputed), a signature, and what a signed version
derives: each seat's results and the chombo penalties (WRCR 2015 §7.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from penalties import services as penalties
from scoring.models import ScoreSheet, SeatResult, SheetVersion
from scoring.rules.replay import Verdict
from scoring.services.checks import content_hash, refusal
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Player, Seat, Table
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import forget_live
from tournament.services import rounds


def record(
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


def sign(
    sheet: ScoreSheet, action: str, user: AbstractBaseUser | None, seats: Sequence[Seat], reason: str = ""
) -> None:
    """Signs the sheet's current version (a referee's signature, a correction, the table's agreement):
    its history entry is written first and the sheet's own ``signed_by`` and ``signed_at`` are that
    entry's author and time, so that the sheet and its history never tell two stories."""
    sheet.status = ScoreSheet.Status.SIGNED
    sheet.content_hash = content_hash(sheet.table, sheet.entry, seats)
    signed = record(sheet, action, user, seats, reason)
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


def lock_table(table: Table) -> Table:
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
        raise refusal(
            "table",
            "table-taken-back",
            _("table: the table of hanchan {number} was taken back; it has no sheet to enter").format(
                number=hanchan
            ),
            status=CONFLICT,
        )
    return locked


def stale(message: str) -> Refusal:
    return refusal("version", "stale-version", message, status=CONFLICT)


def _referee_may_change(sheet: ScoreSheet) -> None:
    if sheet.is_signed:
        raise refusal(
            "status",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("the sheet is signed; a head referee or organiser can correct it"),
            status=CONFLICT,
        )


def write_entry(
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
            raise refusal(
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
        lock_table(table)
        sheet = ScoreSheet.objects.filter(table=table).first()
        if sheet is None:
            raise stale(_("table {table} has no sheet yet; create it instead").format(table=table.number))
        (_referee_may_change if player is None else players_may_change)(sheet)
        if sheet.version != expected_version:
            raise stale(
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
    record(sheet, action, user, seats, player=player, findings=findings)
    transaction.on_commit(lambda: forget_live(table.round.tournament_id))  # a table is no longer empty
    tables_changed_on_commit(table.round.tournament_id)  # the live tables: a hand entered, or the sheet
    return sheet


def write_results(sheet: ScoreSheet, verdict: Verdict, seats: Sequence[Seat]) -> None:
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


def sync_chombo_penalties(
    sheet: ScoreSheet, verdict: Verdict, seats: Sequence[Seat], user: AbstractBaseUser
) -> None:
    """WRCR 2015 §7.1: each chombo on the sheet is a point penalty, linked to the sheet and its hand; the
    penalties app gives and revokes them."""
    players = {seat.player.name: seat.player for seat in seats}
    wanted = [(players[chombo.player], chombo.hand) for chombo in verdict.chombo or ()]
    penalties.sync_sheet_chombo(sheet, wanted, user)


RULE_DISPUTED = "disputed-sheets-go-to-a-referee"


def players_may_change(sheet: ScoreSheet) -> None:
    """Refused once a referee has the last word: the sheet is signed, or a player disputed it."""
    if sheet.is_signed:
        raise refusal(
            "status",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("the sheet is signed; only a head referee or organiser can correct it"),
            status=CONFLICT,
        )
    if sheet.disputed_at is not None:
        raise refusal(
            "status",
            RULE_DISPUTED,
            _("a player of the table disputed the sheet: a referee decides and signs it"),
            status=CONFLICT,
        )
