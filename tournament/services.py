"""Actions on tournaments, players and seating: one verb per change, each one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django_countries import countries

from tournament import access, registration
from tournament.models import Absence, Player, Round, Seat, StaffRole, Tournament


@cache
def country_lookup() -> dict[str, str]:
    """Upper-cased ISO 3166 alpha-2 codes, alpha-3 codes and English names, each to its alpha-2 code."""
    lookup: dict[str, str] = {}
    for code, name in countries:
        lookup[code.upper()] = code
        lookup[str(name).upper()] = code
        alpha3 = countries.alpha3(code)
        if alpha3:
            lookup[alpha3.upper()] = code
    return lookup


def preview_player_file(tournament: Tournament, data: bytes, filename: str) -> registration.ImportPreview:
    """Read and check a player list without storing anything."""
    rows = registration.parse_rows(registration.read_table(data, filename))
    existing = tournament.players.all()
    return registration.validate_rows(
        rows,
        countries=country_lookup(),
        existing_ema_ids={p.ema_id: p.name for p in existing if p.ema_id},
        existing_names=[p.name for p in existing],
    )


@transaction.atomic
def import_players(tournament: Tournament, data: bytes, filename: str) -> registration.ImportPreview:
    """Store every player of the file, or none: a file with one bad row imports nothing."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one import at a time per tournament
    preview = preview_player_file(tournament, data, filename)
    if preview.ok:
        Player.objects.bulk_create(
            Player(
                tournament=tournament,
                name=row.name,
                country=row.country,
                club=row.club,
                ema_id=row.ema_id,
                team=row.team,
                is_substitute=row.is_substitute,
            )
            for row in preview.rows
        )
    return preview


@transaction.atomic
def check_in(player: Player, *, checked_in: bool = True) -> Player:
    if player.status == Player.Status.WITHDRAWN:
        raise ValueError(f"status: {player.name} has withdrawn and cannot check in")
    player.status = Player.Status.CHECKED_IN if checked_in else Player.Status.REGISTERED
    player.checked_in_at = timezone.now() if checked_in else None
    player.save(update_fields=["status", "checked_in_at"])
    return player


@dataclass(frozen=True)
class CheckInPlan:
    """How the checked-in field becomes full tables (a multiple of four players)."""

    checked_in: int
    tables: int
    substitutes_needed: int
    substitutes_available: int
    # With prefer="sit_out": the players who sit out, the last to check in first.
    sitting_out: tuple[Player, ...]

    @property
    def short_of_substitutes(self) -> int:
        return max(0, self.substitutes_needed - self.substitutes_available)


def check_in_plan(tournament: Tournament, *, prefer: str = "substitutes") -> CheckInPlan:
    players = list(
        tournament.players.filter(status=Player.Status.CHECKED_IN, is_substitute=False).order_by(
            "checked_in_at", "pk"
        )
    )
    available = tournament.players.filter(is_substitute=True).exclude(status=Player.Status.WITHDRAWN).count()
    count = len(players)
    if prefer == "sit_out":
        out = registration.sitting_out(count)
        return CheckInPlan(count, count // 4, 0, available, tuple(players[count - out :]) if out else ())
    if prefer != "substitutes":
        raise ValueError(f"prefer: {prefer!r} is neither 'substitutes' nor 'sit_out'")
    needed = registration.substitutes_needed(count)
    return CheckInPlan(count, (count + needed) // 4, needed, available, ())


class SeatingError(ValueError):
    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.field, self.rule, self.message = field, rule, message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "rule": self.rule, "message": self.message}


def _seat_substitute(round_: Round, player: Player, substitute: Player) -> Seat:
    if round_.has_started or round_.status == Round.Status.FINISHED:
        sheet_signed = Seat.objects.filter(
            round=round_, player=player, table__sheet__status="signed"
        ).exists()
        if sheet_signed:
            raise SeatingError(
                "round", "signed-table", f"hanchan {round_.number}: the table's sheet is signed"
            )
    if not substitute.is_substitute or substitute.tournament_id != round_.tournament_id:
        raise SeatingError(
            "substitute",
            "substitute-pool (WRCR 2015 §7.2)",
            f"substitute: {substitute.name} is not a substitute of this tournament",
        )
    if Seat.objects.filter(round=round_, player=substitute).exists():
        raise SeatingError(
            "substitute",
            "one-seat-per-hanchan",
            f"substitute: {substitute.name} already plays hanchan {round_.number}",
        )
    try:
        seat = Seat.objects.select_for_update().get(round=round_, player=player)
    except Seat.DoesNotExist:
        raise SeatingError(
            "player", "seated-player", f"player: {player.name} is not seated in hanchan {round_.number}"
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
    score for that round and the missed-hanchan penalty (30 points), which replaces any lateness penalty.
    """
    from penalties.services import give_penalty

    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    if reason not in Absence.Reason.values:
        raise SeatingError(
            "reason", "absence-reason", f"reason: {reason!r} is not one of {Absence.Reason.values}"
        )
    _seat_substitute(round_, player, substitute)
    absence = Absence.objects.create(
        round=round_, player=player, reason=reason, substitute=substitute, recorded_by=user
    )
    give_penalty(
        player,
        "missed_hanchan",
        user,
        round=round_,
        reason=f"{absence.get_reason_display()}: replaced by {substitute.name} in hanchan {round_.number}",
    )
    return absence


@transaction.atomic
def withdraw_player(
    player: Player, user: AbstractBaseUser, *, from_round: int, substitute: Player | None = None
) -> list[Absence]:
    """The player leaves the tournament from ``from_round`` on.

    With a ``substitute``, the substitute takes the player's seat in every seated hanchan not yet started
    (each a missed hanchan for the player, WRCR 2015 §7.2). Without one, the organiser re-seats the rounds
    not yet started with ``generate_seating`` (``from_round``), which seats only the remaining field.
    """
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    player.status = Player.Status.WITHDRAWN
    player.save(update_fields=["status"])
    if substitute is None:
        return []
    rounds = Round.objects.filter(
        tournament=player.tournament, number__gte=from_round, seats__player=player
    ).exclude(status__in=[Round.Status.STARTED, Round.Status.FINISHED])
    return [
        replace_with_substitute(round_, player, substitute, user, reason=Absence.Reason.WITHDRAWN)
        for round_ in rounds.order_by("number")
    ]
