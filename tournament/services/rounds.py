"""Hanchan in play: the clock (WRCR 2015 §8.2), a table's extra minutes, finishing a hanchan, and which
hanchan is current."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.refusal import Refusal
from tournament.core.table_progress import disputed_first
from tournament.models import Round, StaffRole, Table, Tournament
from tournament.queries import access, live
from tournament.queries.live_standings import current_round  # and its receiver of live_changed, connected
from tournament.queries.standings_db import forget_live
from tournament.services import audit, club, participation
from tournament.services.ratings import ratings_changed_on_commit

MAX_CLOCK_MINUTES = 24 * 60
MAX_TABLE_EXTRA_MINUTES = 120
CLOCK_ACTIONS = ("start", "pause", "extend")


def follow_play(round_: Round, *, submitted: bool = False, signed: bool = False) -> Round:
    """The hanchan's status follows its score sheets, whether or not anyone ran its clock: a sheet
    submitted means the hanchan is being played (it was seated or planned); every table signed means it
    is finished, and the next one becomes current. Called inside the transaction that submitted or
    signed the sheet. Signing takes the hanchan's row lock before it counts the signed tables, so of two
    last tables signed at once, the second to commit sees the first and finishes the hanchan."""
    if submitted:
        waiting = [Round.Status.PLANNED, Round.Status.SEATED]
        if Round.objects.filter(pk=round_.pk, status__in=waiting).update(status=Round.Status.STARTED):
            round_.status = Round.Status.STARTED
            live.announce_on_commit(round_.tournament_id, "clock")
    if signed:
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        if locked.status != Round.Status.FINISHED and participation.is_complete(locked):
            locked.status = round_.status = Round.Status.FINISHED
            locked.save(update_fields=["status"])
            live.announce_on_commit(round_.tournament_id, "clock")  # the next hanchan's clock
            transaction.on_commit(lambda: forget_live(round_.tournament_id))  # the next one is current
    return round_


def sheet_status(table: Table) -> str | None:
    """The status of the table's score sheet, None before it has one."""
    sheet = getattr(table, "sheet", None)  # a table without a sheet raises an AttributeError's kin
    return sheet.status if sheet is not None else None


def tables_of_referee(user: AbstractBaseUser, tournament: Tournament) -> list[Table]:
    """The tables of the current hanchan for a referee's "my tables"; in a club session, every open
    table (each is a hanchan of its own). Disputed sheets first (only a referee settles them), then the
    others in table order (a club session's: hanchan order)."""
    access.require_role(user, tournament, StaffRole.Role.REFEREE)
    if tournament.is_club_session:
        tables = club.open_tables(tournament)
    else:
        current = current_round(tournament)
        if current is None:
            return []
        tables = list(
            Table.objects.filter(round=current)
            .select_related("round", "sheet")
            .prefetch_related("seats__player")
            .order_by("number")
        )
    return disputed_first(tables, sheet_status)


@transaction.atomic
def operate_clock(round_: Round, user: AbstractBaseUser, action: str, *, minutes: int = 0) -> Round:
    """Start, pause or extend the hanchan clock (WRCR 2015 §8.2). Starting it starts the hanchan."""
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    if action not in CLOCK_ACTIONS:
        raise Refusal(
            "action",
            "clock-action",
            _("action: {value} is not start, pause or extend").format(value=repr(action)),
        )
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    clock, now = round_.clock(), timezone.now()
    if action == "start":
        clock = clock.start(now)
        if round_.status in {Round.Status.PLANNED, Round.Status.SEATED}:
            playing = (
                round_.tournament.rounds.filter(status=Round.Status.STARTED).exclude(pk=round_.pk).first()
            )
            if playing is not None:
                raise Refusal(
                    "round",
                    "one-hanchan-at-a-time",
                    _("hanchan {number} is in play: finish it first").format(number=playing.number),
                )
            round_.status = Round.Status.STARTED
    elif action == "pause":
        clock = clock.pause(now)
    else:
        if not -MAX_CLOCK_MINUTES <= minutes <= MAX_CLOCK_MINUTES:
            raise Refusal(
                "minutes",
                "clock-range",
                _("minutes: between -{most} and {most}").format(most=MAX_CLOCK_MINUTES),
            )
        clock = clock.extend(minutes)
    round_.set_clock(clock)
    round_.save(update_fields=["clock_state", "clock_ends_at", "clock_remaining", "status"])
    live.announce_on_commit(round_.tournament_id, "clock")
    if action == "start":
        transaction.on_commit(lambda: forget_live(round_.tournament_id))  # the hanchan is in play
    return round_


@transaction.atomic
def give_table_extra_time(table: Table, user: AbstractBaseUser, minutes: int) -> Table:
    access.require_role(user, table.round.tournament, StaffRole.Role.HEAD_REFEREE)
    if not 0 <= minutes <= MAX_TABLE_EXTRA_MINUTES:
        raise Refusal(
            "minutes", "clock-range", _("minutes: between 0 and {most}").format(most=MAX_TABLE_EXTRA_MINUTES)
        )
    table.extra_minutes = minutes
    table.save(update_fields=["extra_minutes"])
    live.announce_on_commit(table.round.tournament_id, "clock")
    return table


@transaction.atomic
def finish_round(round_: Round, user: AbstractBaseUser) -> Round:
    """The organiser closes a hanchan once every table's sheet is signed (it was seated, or started with
    its clock); the next one becomes current. Signing the last table does it by itself (``follow_play``):
    this is for a hanchan whose sheets were all signed before that was so."""
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status not in {Round.Status.SEATED, Round.Status.STARTED}:
        raise Refusal(
            "round",
            "finish-started-hanchan",
            _("hanchan {number} is {status}").format(
                number=round_.number, status=str(round_.get_status_display()).lower()
            ),
        )
    pending = list(
        round_.tables.exclude(sheet__status="signed").order_by("number").values_list("number", flat=True)
    )
    if pending:
        raise Refusal(
            "round",
            "signed-sheets-first",
            ngettext(
                "hanchan {number}: table {tables} has no signed sheet yet",
                "hanchan {number}: tables {tables} have no signed sheet yet",
                len(pending),
            ).format(number=round_.number, tables=", ".join(map(str, pending))),
        )
    round_.status = Round.Status.FINISHED
    round_.save(update_fields=["status"])
    participation.book_missed(round_, user)
    live.announce_on_commit(round_.tournament_id, "clock")  # the next hanchan's clock
    transaction.on_commit(lambda: forget_live(round_.tournament_id))  # the next hanchan is current
    ratings_changed_on_commit()  # a tournament published as of its last finished hanchan counts this one
    return round_


@transaction.atomic
def publish_seating(round_: Round, user: AbstractBaseUser, *, published: bool = True) -> Round:
    """Show a hanchan's seating to the public (tournaments that publish hanchan by hanchan), or take it
    back before the hanchan starts; audited."""
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if not round_.tables.exists():
        raise Refusal(
            "round",
            "seated-hanchan",
            _("hanchan {number} has no seating to publish yet").format(number=round_.number),
        )
    if not published and round_.has_started:
        raise Refusal(
            "round",
            "published-seating-stays",
            _("hanchan {number} has started: its seating stays public").format(number=round_.number),
        )
    if (round_.published_at is not None) == published:
        return round_
    round_.published_at = timezone.now() if published else None
    round_.save(update_fields=["published_at"])
    action = "seating.publish" if published else "seating.unpublish"
    audit.record(round_.tournament, user, action, f"hanchan {round_.number}")
    live.announce_on_commit(round_.tournament_id, "seating")
    return round_
