"""Players enter, the table confirms (the tournament's entry mode ``players``).

A seated player saves and submits the sheet (the same rules engine, the same refusals); submitting counts
as agreeing. The other three agree with, or dispute, that version on their own phones; a new version
leaves the earlier answers behind. All four agreeing on the current version signs the sheet for the
table (no referee: ``signed_by`` is empty and the history says "confirmed by the table"). A dispute
hands the sheet to the referees: from then on, as once it is signed, the players change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from penalties import services as penalties
from scoring.models import ScoreSheet, SheetConfirmation, SheetVersion
from scoring.services.checks import checked, entered, refusal, seated_players
from scoring.services.versions import (
    lock_table,
    players_may_change,
    record,
    sign,
    stale,
    write_entry,
    write_results,
)
from tournament.core.inputs import require_printable
from tournament.core.refusal import CONFLICT
from tournament.models import Player, Seat, Table
from tournament.queries import access
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import forget_live, schedule_standings_refresh
from tournament.services import participation, rounds

MAX_DISPUTE_REASON = 500


def _player_table(table: Table, player: Player) -> tuple[Table, list[Seat]]:
    """The table, locked, and its seats, once the player is known to be one of them."""
    table = lock_table(table)
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
    replayed = entered(table, entry, seats, submit=submit).as_json()
    sheet = write_entry(
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
        raise refusal("table", "no-sheet", message, status=CONFLICT)
    sheet.table = table
    players_may_change(sheet)
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        raise refusal("status", "submit-before-confirming", _("the sheet is a draft: it is submitted first"))
    if sheet.version != version:
        raise stale(
            _("the sheet changed (now version {version}, you read version {read}); read it again").format(
                version=sheet.version, read=version
            )
        )
    if SheetConfirmation.objects.filter(sheet=sheet, player=player, version=version).exists():
        message = _("{player} has answered version {version} already").format(
            player=player.name, version=version
        )
        raise refusal("version", "one-answer-per-version", message, status=CONFLICT)
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
    verdict = checked(sheet.table, sheet.entry, seats)
    # Written in the tournament's language, as every text the product writes into the record.
    east, south, west, north = (seat.player.name for seat in seats)
    with translation.override(sheet.table.round.tournament.record_language()):
        agreed = _("agreed by {east}, {south}, {west} and {north}").format(
            east=east, south=south, west=west, north=north
        )
    sign(sheet, SheetVersion.Action.CONFIRMED, None, seats, agreed)
    write_results(sheet, verdict, seats)
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
        raise refusal("reason", "disputes-give-a-reason", _("say what is wrong with the sheet"))
    if len(reason) > MAX_DISPUTE_REASON:
        message = _("the reason is {length} characters long; at most {limit}").format(
            length=len(reason), limit=MAX_DISPUTE_REASON
        )
        raise refusal("reason", "length", message)
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
    record(sheet, SheetVersion.Action.DISPUTED, None, seats, reason, player=player)
    transaction.on_commit(lambda: forget_live(table.round.tournament_id))
    tables_changed_on_commit(table.round.tournament_id)
    return sheet


def confirmations(sheet: ScoreSheet) -> dict[int, SheetConfirmation]:
    """The answers to the sheet's current version, by player pk."""
    return {
        answer.player_id: answer
        for answer in SheetConfirmation.objects.filter(sheet=sheet, version=sheet.version)
    }
