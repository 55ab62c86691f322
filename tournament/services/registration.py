"""Registration and check-in: players by hand or from a file, and who is present on the day."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_countries import countries

from tournament.core import player_files
from tournament.core.refusal import Refusal
from tournament.models import Player, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.standings_db import schedule_standings_refresh
from tournament.services import audit, participation, persons


@cache
def country_lookup() -> dict[str, str]:
    """Upper-cased ISO 3166 alpha-2 codes, alpha-3 codes and English names, each to its alpha-2 code.

    The names are read in English whatever the language of the request that first asks (django_countries
    translates them, and the lookup is kept for the process's life)."""
    lookup: dict[str, str] = {}
    with translation.override("en"):
        for code, name in countries:
            lookup[code.upper()] = code
            lookup[str(name).upper()] = code
            alpha3 = countries.alpha3(code)
            if alpha3:
                lookup[alpha3.upper()] = code
    return lookup


def _validate(
    tournament: Tournament,
    rows: list[dict[str, str | int]],
    *,
    besides: Player | None = None,
    confirmed_names: Mapping[int, tuple[str, str]] | None = None,
    guesses: bool = True,
) -> player_files.ImportPreview:
    existing = list(tournament.players.exclude(pk=besides.pk if besides else None))
    return player_files.validate_rows(
        rows,
        countries=country_lookup(),
        existing_ema_ids={p.ema_id: p.name for p in existing if p.ema_id},
        existing_names=[p.name for p in existing],
        confirmed_names=confirmed_names,
        guesses=guesses,
    )


def preview_player_file(
    tournament: Tournament,
    data: bytes,
    filename: str,
    *,
    user: AbstractBaseUser,
    confirmed_names: Mapping[int, tuple[str, str]] | None = None,
) -> player_files.ImportPreview:
    """Read and check a player list without storing anything (organisers only). ``confirmed_names``: the
    (first, last) names the organiser confirmed or corrected in the preview, by line of the file."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    table = player_files.read_table(data, filename)
    preview = _validate(tournament, player_files.parse_rows(table), confirmed_names=confirmed_names)
    preview.columns_read, preview.columns_ignored = player_files.header_columns(table[0])
    return preview


def _new_player(tournament: Tournament, row: player_files.PlayerRow) -> Player:
    return Player(
        tournament=tournament,
        name=row.name,
        country=row.country,
        club=row.club,
        ema_id=row.ema_id,
        team=row.team,
        is_substitute=row.is_substitute,
        first_name=row.first_name,
        last_name=row.last_name,
        native_name=row.native_name,
    )


@transaction.atomic
def import_players(
    tournament: Tournament,
    data: bytes,
    filename: str,
    *,
    user: AbstractBaseUser,
    confirmed_names: Mapping[int, tuple[str, str]] | None = None,
) -> player_files.ImportPreview:
    """Store every player of the file, or none: a file with one bad row imports nothing. The names the
    preview could not split are stored as ``confirmed_names`` gives them, else as the preview showed."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one import at a time per tournament
    preview = preview_player_file(tournament, data, filename, user=user, confirmed_names=confirmed_names)
    if preview.ok:
        created = Player.objects.bulk_create(_new_player(tournament, row) for row in preview.rows)
        persons.link_by_ema(created)
        schedule_standings_refresh(tournament.pk)
    return preview


@transaction.atomic
def register_player(tournament: Tournament, user: AbstractBaseUser, **fields: Any) -> Player:
    """Register one player by hand (the same checks as a file import)."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    row: dict[str, str | int] = {"line": 1, **{k: str(v) for k, v in fields.items() if k != "is_substitute"}}
    row["substitute"] = "yes" if fields.get("is_substitute") else "no"
    preview = _validate(tournament, [row], guesses=False)
    if not preview.ok:
        error = preview.errors[0]
        raise Refusal(error.field, error.rule, error.message)
    player = _new_player(tournament, preview.rows[0])
    player.save()
    # The standings version first: it locks the tournament before link_by_ema locks a person, the order
    # every change of persons takes (tournament.services.persons).
    schedule_standings_refresh(tournament.pk)
    persons.link_by_ema([player])
    return player


EDITABLE_FIELDS = (
    "name",
    "first_name",
    "last_name",
    "native_name",
    "country",
    "club",
    "ema_id",
    "team",
    "is_substitute",
)


def has_played(player: Player) -> bool:
    """Whether the player has a place in the tournament's record: a seat (their own, or one a substitute
    took for them), a result, a penalty or an absence."""
    return (
        player.seats.exists()
        or player.replaced_in_seats.exists()
        or player.results.exists()
        or player.penalties.exists()
        or player.absences.exists()
        or player.substitutions.exists()
    )


@transaction.atomic
def update_player(player: Player, user: AbstractBaseUser, **fields: Any) -> Player:
    """Correct a player's registration (a misspelt name, a club, an EMA id), with the same checks as a
    registration; audited. A player who has played stays what they were: player or substitute."""
    tournament = player.tournament
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    player = Player.objects.select_for_update().get(pk=player.pk)
    unknown = sorted(set(fields) - set(EDITABLE_FIELDS))
    if unknown:
        message = _("{field}: not a field an organiser changes").format(field=unknown[0])
        raise Refusal(unknown[0], "player-fields", message)
    current = {name: str(getattr(player, name)) for name in EDITABLE_FIELDS if name != "is_substitute"}
    current["country"] = player.country.code or ""
    wanted = {**current, **{k: str(v) for k, v in fields.items() if k != "is_substitute"}}
    is_substitute = bool(fields.get("is_substitute", player.is_substitute))
    row: dict[str, str | int] = {"line": 1, **wanted, "substitute": "yes" if is_substitute else "no"}
    preview = _validate(tournament, [row], besides=player, guesses=False)
    if not preview.ok:
        error = preview.errors[0]
        raise Refusal(error.field, "registration", error.message)
    if is_substitute != player.is_substitute and has_played(player):
        raise Refusal(
            "is_substitute",
            "played-players-stay",
            _("is_substitute: {name} has played; a player stays a player, a substitute a substitute").format(
                name=player.name
            ),
        )
    checked = preview.rows[0]
    after = {
        "name": checked.name,
        "first_name": checked.first_name,
        "last_name": checked.last_name,
        "native_name": checked.native_name,
        "country": checked.country,
        "club": checked.club,
        "ema_id": checked.ema_id,
        "team": checked.team,
        "is_substitute": checked.is_substitute,
    }
    before = {**current, "is_substitute": player.is_substitute}
    changes = {name: [before[name], value] for name, value in after.items() if before[name] != value}
    if not changes:
        return player
    for name, value in after.items():
        setattr(player, name, value)
    player.save(update_fields=list(changes))
    audit.record(tournament, user, "player.update", f"player {player.name}", changes)
    # The registration, then its tournament (the standings version), then (following its EMA id) a
    # person: the order of every change of persons (tournament.services.persons).
    schedule_standings_refresh(tournament.pk)
    persons.follow_ema_id(player)
    return player


@transaction.atomic
def remove_player(player: Player, user: AbstractBaseUser) -> None:
    """Remove a registration made in error; refused once the player has played (withdraw them instead:
    the record of the tournament keeps every hanchan played)."""
    tournament = player.tournament
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if has_played(player):
        raise Refusal(
            "player",
            "played-players-stay",
            _(
                "player: {name} is in the record of the tournament (seated, scored, penalised or replaced); "
                "withdraw them instead"
            ).format(name=player.name),
        )
    removed = {
        "name": player.name,
        "native_name": player.native_name,
        "country": player.country.code or "",
        "club": player.club,
        "ema_id": player.ema_id,
        "team": player.team,
        "is_substitute": player.is_substitute,
        "status": player.status,
    }
    player.delete()
    audit.record(tournament, user, "player.remove", f"player {removed['name']}", {"removed": removed})
    schedule_standings_refresh(tournament.pk)


@transaction.atomic
def check_in(player: Player, *, user: AbstractBaseUser, checked_in: bool = True) -> Player:
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    if player.status == Player.Status.WITHDRAWN:
        message = _("{name} has withdrawn and cannot check in").format(name=player.name)
        raise Refusal("status", "check-in", message)
    player.status = Player.Status.CHECKED_IN if checked_in else Player.Status.REGISTERED
    player.checked_in_at = timezone.now() if checked_in else None
    player.save(update_fields=["status", "checked_in_at"])
    if not player.is_substitute:
        if checked_in:
            participation.book_late_arrival(player, user)  # WRCR 2015 §7.2: the hanchan already played
        else:
            participation.forget_late_arrival(player, user)
    return player


@transaction.atomic
def check_in_many(players: list[Player], *, user: AbstractBaseUser) -> list[Player]:
    """Check in every player of the list present at the door, all or none (a withdrawn one refuses)."""
    return [check_in(player, user=user) for player in players if player.status != Player.Status.CHECKED_IN]


@dataclass(frozen=True)
class CheckInPlan:
    """How the checked-in field becomes full tables (a multiple of four players)."""

    checked_in: int
    tables: int
    substitutes_needed: int
    substitutes_available: int
    # With prefer="sit_out": the players who sit out, the last to check in first.
    sitting_out: tuple[Player, ...]
    # Substitutes registered but not checked in yet, while check-in is in use: they are there to be
    # checked in before anyone needs to register more.
    substitutes_not_checked_in: int = 0

    @property
    def short_of_substitutes(self) -> int:
        return max(0, self.substitutes_needed - self.substitutes_available)

    @property
    def substitutes_to_check_in(self) -> int:
        """How many of the shortfall the registered substitutes not yet checked in cover."""
        return min(self.short_of_substitutes, self.substitutes_not_checked_in)

    @property
    def substitutes_to_register(self) -> int:
        """The shortfall left once every registered substitute is checked in."""
        return self.short_of_substitutes - self.substitutes_to_check_in


PREFERENCES = ("substitutes", "sit_out")


def check_in_plan(tournament: Tournament, *, prefer: str = "substitutes") -> CheckInPlan:
    if prefer not in PREFERENCES:
        message = _("prefer: {value} is neither 'substitutes' nor 'sit_out'").format(value=repr(prefer))
        raise Refusal("prefer", "check-in-plan", message)
    # Only who the seating accepts (``tournament.services.field.seating_field``): a disqualified player
    # plays no more (WRCR 2015 §7.1), checked in or not.
    players = list(
        tournament.players.filter(
            status=Player.Status.CHECKED_IN, is_substitute=False, disqualified=False
        ).order_by("checked_in_at", "pk")
    )
    pool = tournament.players.filter(is_substitute=True, disqualified=False).exclude(
        status=Player.Status.WITHDRAWN
    )
    registered = pool.count()
    if players:  # check-in is in use: only the substitutes present are available
        pool = pool.filter(status=Player.Status.CHECKED_IN)
    available = pool.count()
    waiting = registered - available
    count = len(players)
    if prefer == "sit_out":
        out = player_files.sitting_out(count)
        sitting_out = tuple(players[count - out :]) if out else ()
        return CheckInPlan(count, count // 4, 0, available, sitting_out, waiting)
    needed = player_files.substitutes_needed(count)
    return CheckInPlan(count, (count + needed) // 4, needed, available, (), waiting)
