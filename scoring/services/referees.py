"""The referees' sheet actions: saving and submitting a table's sheet, signing it (the standings count
it from then on), and a head referee's or organiser's correction of a signed sheet, whose old version
stays in the history.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, SheetVersion
from scoring.services.checks import Role, checked, entered, refusal, seated_players
from scoring.services.versions import (
    lock_table,
    sign,
    stale,
    sync_chombo_penalties,
    write_entry,
    write_results,
)
from tournament.core.inputs import require_printable
from tournament.core.refusal import CONFLICT
from tournament.models import Table
from tournament.queries import access
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import schedule_standings_refresh
from tournament.services import participation, rounds


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
    stored with the problems the rules engine finds in it; submitting refuses them (``entered``).

    Creating a sheet for a table that has one, or updating a version other than the latest, is a
    refusal with status 409: of two simultaneous submissions, exactly one is stored.
    """
    access.require_role(user, table.round.tournament, Role.REFEREE)
    table = lock_table(table)  # one save of the table at a time, and never of a table taken back
    seats = seated_players(table)
    replayed = entered(table, entry, seats, submit=submit).as_json()
    return write_entry(
        table, entry, replayed, seats, submit=submit, expected_version=expected_version, user=user
    )


@transaction.atomic
def sign_sheet(
    sheet: ScoreSheet, user: AbstractBaseUser, *, expected_version: int | None = None
) -> ScoreSheet:
    """A referee of the tournament signs: who, when and the content hash are recorded; the sheet locks."""
    access.require_role(user, sheet.table.round.tournament, Role.REFEREE)
    lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if sheet.is_signed:
        if sheet.signed_by_table:
            message = _("already signed: the four players agreed")
        else:
            message = _("already signed by {user}").format(user=sheet.signed_by)
        raise refusal("status", "already-signed", message, status=CONFLICT)
    if expected_version is not None and sheet.version != expected_version:
        raise stale(
            _("the sheet changed (now version {version}); check it again before signing").format(
                version=sheet.version
            )
        )
    if sheet.status not in (ScoreSheet.Status.SUBMITTED, ScoreSheet.Status.DISPUTED):
        raise refusal("status", "submit-before-signing", _("submit the sheet before signing it"))
    seats = seated_players(sheet.table)
    # The rules may not have changed, but a signature checks anyway; the results come from this check.
    verdict = checked(sheet.table, sheet.entry, seats)
    sign(sheet, SheetVersion.Action.SIGNED, user, seats)
    write_results(sheet, verdict, seats)
    sync_chombo_penalties(sheet, verdict, seats, user)
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
        raise refusal("reason", "corrections-give-a-reason", _("a correction needs a reason"))
    require_printable("reason", reason, multiline=True)
    lock_table(sheet.table)
    sheet = ScoreSheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    if not sheet.is_signed:
        raise refusal("status", "correct-signed-sheets", _("only a signed sheet is corrected; edit it"))
    if expected_version is not None and sheet.version != expected_version:
        raise stale(_("the sheet changed (now version {version})").format(version=sheet.version))
    seats = seated_players(sheet.table)
    verdict = checked(sheet.table, entry, seats)
    sheet.entry, sheet.replay, sheet.form = entry, verdict.as_json(), entry["form"]
    sheet.version += 1
    # The correction's author signs the new version: the sheet's signer and time are this version's,
    # never those of the version it replaces.
    sign(sheet, SheetVersion.Action.CORRECTED, user, seats, reason.strip())
    write_results(sheet, verdict, seats)
    sync_chombo_penalties(sheet, verdict, seats, user)
    schedule_standings_refresh(sheet.table.round.tournament_id)
    tables_changed_on_commit(sheet.table.round.tournament_id)
    return sheet
