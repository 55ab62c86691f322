"""Club sessions: a table formed at the venue from four players present (the rules are in
``tournament.core.club``).

Each table formed is a hanchan of its own: a ``Round`` with the session's next number, started at once,
with one ``Table`` (number 1) and its four seats. Its sheet is then entered, signed or confirmed as any
tournament's (``scoring.services``); signing it finishes the hanchan (``rounds.follow_play``) and frees
its players.

Two tables formed at once with a player in common end with one: forming a table first locks the
session's row (``SELECT ... FOR NO KEY UPDATE``), so formations in one session take turns and the second
sees the first's seats; and the database refuses one player seated twice in one hanchan
(``one_seat_per_round``) and two hanchan with one number (``unique_round_number``).

A table formed by mistake is taken back (``take_back_table``) while nothing is saved for it: its
hanchan, table and seats are deleted, its four players are free again, and the audit keeps who took back
which table with which players. It locks the table's row first, as the first save of its sheet does
(``scoring.services``): of a sheet saved and the table taken back at once, whichever locks first wins,
and the other is refused. The next table formed takes the next number after the session's last hanchan,
so the number of the last hanchan, taken back, is used again, and an earlier one stays unused.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from penalties.models import Penalty
from scoring.models import ScoreSheet
from tournament.core import club
from tournament.core.refusal import CONFLICT, FORBIDDEN, Problem, Refusal
from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament
from tournament.queries import access, live
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import forget_live
from tournament.services import audit

RULE_CLUB_SESSION = "club-session"
RULE_PLAYERS_FORM = "players-form-tables"
RULE_OWN_TABLE = "own-table"
RULE_TAKEN_BACK = "table-taken-back"


class TakenBack(NamedTuple):
    """A table taken back: its hanchan's number and its four players' names, East to North."""

    hanchan: int
    players: list[str]


def require_club_session(tournament: Tournament, field: str = "tournament") -> None:
    if not tournament.is_club_session:
        message = _("{name} is a tournament with a seating: only a club session forms tables at the venue")
        raise Refusal(field, RULE_CLUB_SESSION, message.format(name=tournament.name), status=CONFLICT)


def refuse_seating(tournament: Tournament) -> None:
    """A club session computes no seating: its tables form at the venue (``form_table``)."""
    if tournament.is_club_session:
        message = _("{name} is a club session: its tables form at the venue, with no seating computed")
        raise Refusal("tournament", RULE_CLUB_SESSION, message.format(name=tournament.name), status=CONFLICT)


def may_form_tables(
    user: AbstractBaseUser | AnonymousUser, player: Player | None, tournament: Tournament
) -> bool:
    """Whether this person may form a table in the session: its organisers, and a checked-in player
    signed in when the session lets its players form tables (a table they sit at)."""
    if access.has_role(user, tournament, StaffRole.Role.ORGANISER):
        return True
    return (
        tournament.players_form_tables
        and player is not None
        and player.tournament_id == tournament.pk
        and player.status == Player.Status.CHECKED_IN
    )


def candidates(tournament: Tournament) -> dict[int, club.Candidate]:
    """Every player of the session as a table's rules see them: present or not, and the open table's
    hanchan they sit at."""
    open_seats = (
        Seat.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.FINISHED)
        .values_list("player_id", "round__number")
    )
    sitting = dict(open_seats)
    players = tournament.players.values_list("pk", "name", "status", "disqualified")
    return {
        pk: club.Candidate(
            name=name,
            present=status == Player.Status.CHECKED_IN and not disqualified,
            open_hanchan=sitting.get(pk),
        )
        for pk, name, status, disqualified in players
    }


def open_tables(tournament: Tournament) -> list[Table]:
    """The session's tables whose hanchan is not finished, oldest first, with their seats and sheet."""
    return list(
        Table.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.FINISHED)
        .select_related("round__tournament", "sheet")
        .prefetch_related("seats__player")
        .order_by("round__number")
    )


@transaction.atomic
def form_table(
    tournament: Tournament,
    user: AbstractBaseUser | AnonymousUser,
    seats: Sequence[int | None],
    *,
    draw_winds: bool = False,
    player: Player | None = None,
    rng: random.Random | None = None,
) -> Table:
    """A table of four players present and free (``seats``: their ids, East to North; with
    ``draw_winds`` the winds are drawn instead), as the session's next hanchan, started at once.

    The organisers form any table; a player signed in (``player``) forms one they sit at, when the
    session allows its players to. Refused (``Refusal``, each problem naming the seat's wind) for a seat
    left empty, a player twice, a player not of the session, not present, or still at an open table."""
    if not access.has_role(user, tournament, StaffRole.Role.ORGANISER):
        if player is None:
            access.require_role(user, tournament, StaffRole.Role.ORGANISER)  # 403, or the login page
        elif not may_form_tables(user, player, tournament):
            message = _("in {name} the organisers form the tables").format(name=tournament.name)
            raise Refusal(club.FIELD, RULE_PLAYERS_FORM, message, status=FORBIDDEN)
    else:
        player = None
    require_club_session(tournament)
    # Formations in one session take turns from here: the second sees the first's seats.
    tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
    known = candidates(tournament)
    problems = club.table_problems(seats, known)
    if player is not None and player.pk not in seats and not problems:
        message = _("players: {name}, you form a table you sit at").format(name=player.name)
        problems.append(Problem(club.FIELD, RULE_OWN_TABLE, message))
    if problems:
        raise Refusal.of(problems)
    chosen = [pk for pk in seats if pk is not None]  # four, none empty: the rules refused otherwise
    order = club.draw_winds(chosen, rng or random.SystemRandom()) if draw_winds else chosen
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    now = timezone.now()
    round_ = Round.objects.create(
        tournament=tournament,
        number=last + 1,
        starts_at=now,
        status=Round.Status.STARTED,
        mode=Round.Mode.CLUB,
        published_at=now,
    )
    table = Table.objects.create(round=round_, number=1, formed_by=player)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, wind=wind, player_id=player_id)
        for wind, player_id in enumerate(order)
    )
    audit.record(
        tournament,
        user,
        "club.form_table",
        f"hanchan {round_.number}",
        {"players": [known[pk].name for pk in order]},
    )
    live.announce_on_commit(tournament.pk, "seating")
    transaction.on_commit(lambda: forget_live(tournament.pk))
    tables_changed_on_commit(tournament.pk)
    return table


def table_facts(table: Table, *, sheet_saved: bool, penalty_given: bool = False) -> club.FormedTable:
    """A club table as the rules of taking it back see it (``table.round`` read)."""
    round_ = table.round
    return club.FormedTable(
        hanchan=round_.number,
        formed_at=round_.starts_at or timezone.now(),
        formed_by=table.formed_by_id,
        sheet_saved=sheet_saved,
        penalty_given=penalty_given,
    )


def may_take_back(
    user: AbstractBaseUser | AnonymousUser,
    player: Player | None,
    table: Table,
    *,
    sheet_saved: bool,
    now: datetime | None = None,
) -> bool:
    """Whether this person sees the table's "take back": what ``take_back_table`` would allow, but for
    a penalty given at it (the service looks that up under the lock)."""
    tournament = table.round.tournament
    facts = table_facts(table, sheet_saved=sheet_saved)
    if club.take_back_problems(facts):
        return False
    if access.has_role(user, tournament, StaffRole.Role.HEAD_REFEREE):
        return True
    return (
        player is not None
        and may_form_tables(user, player, tournament)
        and club.take_back_refused_to(facts, player.pk, now or timezone.now()) is None
    )


@transaction.atomic
def take_back_table(
    table: Table,
    user: AbstractBaseUser | AnonymousUser,
    *,
    player: Player | None = None,
    now: datetime | None = None,
) -> TakenBack:
    """Take back a club session's table formed by mistake: its hanchan, table and seats deleted, its
    four players free again, audited. The organisers and head referees take back any table; a player
    signed in (``player``), where the session lets its players form tables, the one they formed, within
    ``club.TAKE_BACK_MINUTES``. Refused (field ``table``) once a score sheet (a draft included) is saved
    for it or a penalty given at it, and when someone else took it back first."""
    tournament = table.round.tournament
    if not access.has_role(user, tournament, StaffRole.Role.HEAD_REFEREE):
        if player is None:
            access.require_role(user, tournament, StaffRole.Role.HEAD_REFEREE)  # 403, or the login page
        elif not may_form_tables(user, player, tournament):
            message = _("table: in {name} the organisers and head referees take tables back").format(
                name=tournament.name
            )
            raise Refusal(club.TABLE, RULE_PLAYERS_FORM, message, status=FORBIDDEN)
    else:
        player = None
    require_club_session(tournament, club.TABLE)
    hanchan = table.round.number
    # The sheet's first save locks this row too (scoring.services): one of the two waits for the other.
    locked = Table.objects.select_for_update(of=("self",)).select_related("round").filter(pk=table.pk).first()
    if locked is None:
        message = _("table: the table of hanchan {number} has been taken back already").format(number=hanchan)
        raise Refusal(club.TABLE, RULE_TAKEN_BACK, message, status=CONFLICT)
    round_ = locked.round
    if round_.mode != Round.Mode.CLUB:  # a hanchan of a schedule, from before the event became a session
        message = _("table: hanchan {number} was seated by a schedule, not formed at the venue").format(
            number=hanchan
        )
        raise Refusal(club.TABLE, RULE_CLUB_SESSION, message, status=CONFLICT)
    facts = table_facts(
        locked,
        sheet_saved=ScoreSheet.objects.filter(table=locked).exists(),
        penalty_given=Penalty.objects.filter(round=round_).exists(),
    )
    if player is not None:
        refused = club.take_back_refused_to(facts, player.pk, now or timezone.now())
        if refused is not None:
            raise Refusal.of([refused], status=FORBIDDEN)
    problems = club.take_back_problems(facts)
    if problems:
        raise Refusal.of(problems, status=CONFLICT)
    names = [seat.player.name for seat in locked.seats.select_related("player").order_by("wind")]
    locked.delete()  # and its seats
    round_.delete()
    audit.record(
        tournament,
        user,
        "club.take_back_table",
        f"hanchan {facts.hanchan}",
        {
            "players": names,
            "formed_at": facts.formed_at.isoformat(),
            "taken_back_by_player": player.name if player is not None else None,
        },
    )
    live.announce_on_commit(tournament.pk, "seating")
    transaction.on_commit(lambda: forget_live(tournament.pk))
    tables_changed_on_commit(tournament.pk)
    return TakenBack(facts.hanchan, names)
