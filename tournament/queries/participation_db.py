"""The facts of ``tournament.core.participation`` read from the database: two queries for a whole
tournament."""

from __future__ import annotations

from django.db.models import Q

from tournament.core import club, participation
from tournament.core.participation import Facts
from tournament.models import Absence, Player, Round, Seat, Tournament
from tournament.queries import phases_db


def facts_of(
    player: Player,
    seated: frozenset[int],
    scheduled: frozenset[int],
    excused: frozenset[int] = frozenset(),
    out_from: int | None = None,
) -> Facts:
    withdrawn = player.status == Player.Status.WITHDRAWN
    return Facts(
        is_substitute=player.is_substitute,
        checked_in=player.status == Player.Status.CHECKED_IN
        or (withdrawn and player.checked_in_at is not None),
        disqualified=player.disqualified,
        withdrawn_from=(player.withdrawn_from or 1) if withdrawn else None,
        seated=seated,
        scheduled=scheduled,
        excused=excused,
        out_from=out_from,
    )


Hanchan = dict[int, frozenset[int]]


def seated_hanchan(tournament_id: int, player_ids: list[int] | None = None) -> tuple[Hanchan, Hanchan]:
    """Each player's hanchan with a seat they play, and those the seating placed them in (a substitute
    playing some of them for the player)."""
    seats = Seat.objects.filter(round__tournament_id=tournament_id).order_by()  # no join for the ordering
    if player_ids is not None:
        seats = seats.filter(Q(player_id__in=player_ids) | Q(replaces_id__in=player_ids))
    seated: dict[int, set[int]] = {}
    scheduled: dict[int, set[int]] = {}
    rows = seats.values_list("player_id", "replaces_id", "round__number").iterator(chunk_size=5000)
    for player_id, replaces_id, number in rows:
        seated.setdefault(player_id, set()).add(number)
        scheduled.setdefault(replaces_id or player_id, set()).add(number)
    return (
        {pk: frozenset(numbers) for pk, numbers in seated.items()},
        {pk: frozenset(numbers) for pk, numbers in scheduled.items()},
    )


def sitting_out(tournament_id: int, player_ids: list[int] | None = None) -> Hanchan:
    """Each player's hanchan sat out by the organiser's choice."""
    absences = Absence.objects.filter(round__tournament_id=tournament_id, reason=Absence.Reason.SITS_OUT)
    if player_ids is not None:
        absences = absences.filter(player_id__in=player_ids)
    found: dict[int, set[int]] = {}
    for player_id, number in absences.values_list("player_id", "round__number"):
        found.setdefault(player_id, set()).add(number)
    return {pk: frozenset(numbers) for pk, numbers in found.items()}


def tournament_facts(tournament_id: int) -> dict[int, Facts]:
    """Every player's facts, by primary key."""
    seated, scheduled = seated_hanchan(tournament_id)
    excused = sitting_out(tournament_id)
    players = Player.objects.filter(tournament_id=tournament_id).only(
        "pk", "status", "is_substitute", "disqualified", "withdrawn_from", "checked_in_at"
    )
    players = list(players)
    out = phases_db.out_from(tournament_id, [player.pk for player in players])
    none: frozenset[int] = frozenset()
    return {
        player.pk: facts_of(
            player,
            seated.get(player.pk, none),
            scheduled.get(player.pk, none),
            excused.get(player.pk, none),
            out.get(player.pk),
        )
        for player in players
    }


def player_facts(player: Player) -> Facts:
    seated, scheduled = seated_hanchan(player.tournament_id, [player.pk])
    excused = sitting_out(player.tournament_id, [player.pk])
    out = phases_db.out_from(player.tournament_id, [player.pk])
    none: frozenset[int] = frozenset()
    return facts_of(
        player,
        seated.get(player.pk, none),
        scheduled.get(player.pk, none),
        excused.get(player.pk, none),
        out.get(player.pk),
    )


def tournament_states(tournament: Tournament) -> dict[int, participation.State]:
    """Every player's state now (``tournament.core.participation.state``): registered, checked in, playing,
    absent, withdrawn, disqualified, did not start, substitute."""
    facts = tournament_facts(tournament.pk)
    rounds = tournament.rounds.order_by("number")
    if tournament.is_club_session:
        open_hanchan = set(rounds.exclude(status=Round.Status.FINISHED).values_list("number", flat=True))
        return {pk: club.session_state(known, open_hanchan) for pk, known in facts.items()}
    current = rounds.exclude(status=Round.Status.FINISHED).first()
    started = rounds.filter(status__in=[Round.Status.STARTED, Round.Status.FINISHED]).exists()
    current_seated = current is not None and current.tables.exists()
    number = current.number if current is not None else None
    return {
        pk: participation.state(known, current=number, started=started, current_seated=current_seated)
        for pk, known in facts.items()
    }
