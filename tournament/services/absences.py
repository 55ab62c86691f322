"""Absences: a substitute in an absent player's seat, and withdrawals from the tournament (WRCR 2015 §7.2)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.refusal import Refusal
from tournament.models import Absence, Player, Round, Seat, StaffRole
from tournament.queries import access
from tournament.services import participation


def _seat_substitute(round_: Round, player: Player, substitute: Player) -> Seat:
    if round_.has_started or round_.status == Round.Status.FINISHED:
        sheet_signed = Seat.objects.filter(
            round=round_, player=player, table__sheet__status="signed"
        ).exists()
        if sheet_signed:
            raise Refusal(
                "round",
                "signed-table",
                _("hanchan {number}: the table's sheet is signed").format(number=round_.number),
            )
    if not substitute.is_substitute or substitute.tournament_id != round_.tournament_id:
        raise Refusal(
            "substitute",
            "substitute-pool (WRCR 2015 §7.2)",
            _("substitute: {name} is not a substitute of this tournament").format(name=substitute.name),
        )
    if Seat.objects.filter(round=round_, player=substitute).exists():
        raise Refusal(
            "substitute",
            "one-seat-per-hanchan",
            _("substitute: {name} already plays hanchan {number}").format(
                name=substitute.name, number=round_.number
            ),
        )
    try:
        seat = Seat.objects.select_for_update().get(round=round_, player=player)
    except Seat.DoesNotExist:
        raise Refusal(
            "player",
            "seated-player",
            _("player: {name} is not seated in hanchan {number}").format(
                name=player.name, number=round_.number
            ),
        ) from None
    seat.player, seat.replaces = substitute, player
    seat.save(update_fields=["player", "replaces"])
    return seat


@transaction.atomic
def replace_with_substitute(
    round_: Round,
    player: Player,
    substitute: Player,
    user: AbstractBaseUser,
    *,
    reason: str = Absence.Reason.ABSENT,
) -> Absence:
    """Seat a substitute in an absent player's seat for one hanchan (WRCR 2015 §7.2).

    The substitute is scored normally at the table and never ranked; the absent player gets no hanchan
    score for that round and the missed-hanchan penalty (30 points, replacing any lateness penalty),
    booked when the hanchan is complete (``tournament.services.participation``), at once if it is.
    """
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    if reason not in Absence.Reason.values:
        raise Refusal(
            "reason",
            "absence-reason",
            _("reason: {value} is not one of {choices}").format(
                value=repr(reason), choices=", ".join(Absence.Reason.values)
            ),
        )
    _seat_substitute(round_, player, substitute)
    absence = Absence.objects.create(
        round=round_, player=player, reason=reason, substitute=substitute, recorded_by=user
    )
    participation.book_missed(round_, user)
    return absence


@dataclass(frozen=True)
class WithdrawalPlan:
    """What a withdrawal will do, shown for confirmation before anything is stored."""

    player: Player
    from_round: int
    substitute: Player | None
    substituted: tuple[int, ...]  # seated hanchan not started: the substitute takes the seat
    to_reseat: tuple[int, ...]  # seated hanchan not started, without a substitute: re-seat them
    playing: tuple[int, ...]  # hanchan from ``from_round`` on that have started: their seats stay
    ranked: bool  # the tournament's choice for withdrawn players


def plan_withdrawal(
    player: Player, user: AbstractBaseUser, *, from_round: int, substitute: Player | None = None
) -> WithdrawalPlan:
    """The withdrawal ``withdraw_player`` would make, refused for the same reasons; nothing stored."""
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    _check_withdrawal(player, from_round)
    rounds = list(
        Round.objects.filter(tournament=player.tournament, number__gte=from_round, seats__player=player)
        .order_by("number")
        .values_list("number", "status")
    )
    started = {Round.Status.STARTED, Round.Status.FINISHED}
    open_rounds = tuple(number for number, status in rounds if status not in started)
    return WithdrawalPlan(
        player=player,
        from_round=from_round,
        substitute=substitute,
        substituted=open_rounds if substitute is not None else (),
        to_reseat=() if substitute is not None else open_rounds,
        playing=tuple(number for number, status in rounds if status in started),
        ranked=player.tournament.withdrawn_ranking == player.tournament.WithdrawnRanking.RANKED,
    )


def _check_withdrawal(player: Player, from_round: int) -> None:
    tournament = player.tournament
    if not 1 <= from_round <= tournament.hanchan_count:
        raise Refusal(
            "from_round", "hanchan-range", _("from_round: 1 to {last}").format(last=tournament.hanchan_count)
        )
    if player.status == Player.Status.WITHDRAWN:
        raise Refusal(
            "player", "withdrawal", _("player: {name} has withdrawn already").format(name=player.name)
        )


@transaction.atomic
def withdraw_player(
    player: Player, user: AbstractBaseUser, *, from_round: int, substitute: Player | None = None
) -> list[Absence]:
    """The player leaves the tournament from hanchan ``from_round`` on.

    With a ``substitute``, the substitute takes the player's seat in every seated hanchan not yet started.
    Without one, the organiser re-seats the hanchan not yet started with ``request_seating``
    (``from_round``), which seats only the remaining field. Either way each hanchan played without them
    is a missed hanchan (WRCR 2015 §7.2), its penalty booked as that hanchan is completed, never in
    advance; their ranking follows the tournament's ``withdrawn_ranking``.
    """
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    _check_withdrawal(player, from_round)
    player.status = Player.Status.WITHDRAWN
    player.withdrawn_from = from_round
    player.save(update_fields=["status", "withdrawn_from"])
    if substitute is None:
        return []
    rounds = Round.objects.filter(
        tournament=player.tournament, number__gte=from_round, seats__player=player
    ).exclude(status__in=[Round.Status.STARTED, Round.Status.FINISHED])
    return [
        replace_with_substitute(round_, player, substitute, user, reason=Absence.Reason.WITHDRAWN)
        for round_ in rounds.order_by("number")
    ]
