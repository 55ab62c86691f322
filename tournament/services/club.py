"""Club sessions: a table formed at the venue from four players present (the rules are in
``tournament.club``).

Each table formed is a hanchan of its own: a ``Round`` with the session's next number, started at once,
with one ``Table`` (number 1) and its four seats. Its sheet is then entered, signed or confirmed as any
tournament's (``scoring.services``); signing it finishes the hanchan (``rounds.follow_play``) and frees
its players.

Two tables formed at once with a player in common end with one: forming a table first locks the
session's row (``SELECT ... FOR NO KEY UPDATE``), so formations in one session take turns and the second
sees the first's seats; and the database refuses one player seated twice in one hanchan
(``one_seat_per_round``) and two hanchan with one number (``unique_round_number``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import access, club, live
from tournament.live_tables import tables_changed_on_commit
from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament
from tournament.refusal import CONFLICT, FORBIDDEN, Problem, Refusal
from tournament.services import audit
from tournament.standings_db import forget_live

RULE_CLUB_SESSION = "club-session"
RULE_PLAYERS_FORM = "players-form-tables"
RULE_OWN_TABLE = "own-table"


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
        .select_related("round", "sheet")
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
    table = Table.objects.create(round=round_, number=1)
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
