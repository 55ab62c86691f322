"""Actions on tournaments, players and seating: one verb per change, each one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db import transaction
from django.utils import timezone
from django_countries import countries

from tournament import registration
from tournament.models import Player, Tournament


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
