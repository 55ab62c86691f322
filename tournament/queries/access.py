"""Who may do what in a tournament, decided in one place.

Roles are per tournament (``StaffRole``): referee < head referee < organiser, each able to do what the
roles before it can. A site admin (superuser) is an organiser of every tournament.

Within one request (``request_scope``, opened by ``tournament.middleware.RoleLookupMiddleware``) a
user's role in a tournament is looked up once: the page's access check, the service it calls and the
template's staff links share the answer. Outside a request (tasks, commands, tests) every call asks the
database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from tournament.core.refusal import FORBIDDEN, Refusal
from tournament.models import Player, Seat, Series, StaffRole, Table, Tournament

Role = StaffRole.Role
AnyUser = AbstractBaseUser | AnonymousUser


_roles: ContextVar[dict[tuple[int, int], str | None] | None] = ContextVar("tournament_roles", default=None)


@contextmanager
def request_scope() -> Iterator[None]:
    """Within the block, each user's role in each tournament is looked up at most once."""
    token = _roles.set({})
    try:
        yield
    finally:
        _roles.reset(token)


def in_request() -> bool:
    """Whether this code runs for a web request (inside ``request_scope``)."""
    return _roles.get() is not None


def role_of(user: AnyUser | None, tournament: Tournament) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return Role.ORGANISER
    known = _roles.get()
    key = (user.pk, tournament.pk)
    if known is not None and key in known:
        return known[key]
    role = StaffRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()
    if known is not None:
        known[key] = role
    return role


def forget_role(user: AnyUser, tournament: Tournament) -> None:
    """A role was granted, changed or removed: the next look-up in this request asks the database."""
    known = _roles.get()
    if known is not None:
        known.pop((user.pk, tournament.pk), None)  # type: ignore[arg-type]


def has_role(user: AnyUser | None, tournament: Tournament, minimum: str) -> bool:
    role = role_of(user, tournament)
    return role is not None and StaffRole.RANK[Role(role)] >= StaffRole.RANK[Role(minimum)]


def require_role(user: AnyUser | None, tournament: Tournament, minimum: str) -> None:
    if not has_role(user, tournament, minimum):
        raise PermissionDenied(f"this needs the role {Role(minimum).label.lower()} of {tournament.name}")


def can_view(user: AnyUser | None, tournament: Tournament) -> bool:
    return tournament.is_public or role_of(user, tournament) is not None


def can_create_tournament(user: AnyUser | None) -> bool:
    """Site admins, users given Django's ``tournament.add_tournament`` permission, and organisers of a
    tournament may create a tournament (and become its organiser)."""
    if user is None or not user.is_authenticated:
        return False
    if user.has_perm("tournament.add_tournament"):  # type: ignore[union-attr]
        return True
    return StaffRole.objects.filter(user=user, role=Role.ORGANISER).exists()


def require_create_tournament(user: AnyUser | None) -> None:
    """The one check before a tournament is created, by a page or the API (``can_create_tournament``)."""
    if not can_create_tournament(user):
        raise PermissionDenied("Creating a tournament needs a site admin's permission or an organiser role.")


def can_create_series(user: AnyUser | None) -> bool:
    """Whoever may create a tournament may create a series (``can_create_tournament``)."""
    return can_create_tournament(user)


def can_edit_series(user: AnyUser | None, series: Series) -> bool:
    """A series' creator, site admins and accounts given Django's ``tournament.change_series``."""
    if user is None or not user.is_authenticated:
        return False
    if series.created_by_id is not None and series.created_by_id == user.pk:
        return True
    return bool(user.has_perm("tournament.change_series"))  # type: ignore[union-attr]


def require_edit_series(user: AnyUser | None, series: Series | None) -> None:
    """The one check before a series is created (``series`` None) or changed."""
    allowed = can_create_series(user) if series is None else can_edit_series(user, series)
    if not allowed:
        raise PermissionDenied("Series are created and changed by organisers (a series by its creator).")


def can_archive_series(user: AnyUser | None, series: Series) -> bool:
    """Whoever may change the series and is an organiser of every one of its tournaments (site admins
    are): a series' archive holds each tournament's whole archive, which is its organisers', and the
    persons its players link to, EMA ids included."""
    if not can_edit_series(user, series):
        return False
    return all(has_role(user, tournament, Role.ORGANISER) for tournament in series.tournaments.all())


def can_invite_organisers(user: AnyUser | None) -> bool:
    """Site admins invite organisers (``services.invite_organiser``): superusers, and staff members of the
    Django admin allowed to add and change accounts there."""
    if user is None or not user.is_authenticated or not getattr(user, "is_active", False):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return bool(getattr(user, "is_staff", False)) and user.has_perms(  # type: ignore[union-attr]
        ["auth.add_user", "auth.change_user"]
    )


def require_invite_organisers(user: AnyUser | None) -> None:
    """The one check before an organiser is invited (``can_invite_organisers``)."""
    if not can_invite_organisers(user):
        raise PermissionDenied("Inviting organisers is for site admins.")


def visible_tournaments(user: AnyUser | None) -> QuerySet[Tournament]:
    """The tournaments ``can_view`` lets this user see: the public ones, and those where they have a role."""
    tournaments = Tournament.objects.all()
    if user is not None and getattr(user, "is_superuser", False):
        return tournaments
    if user is None or not user.is_authenticated:
        return tournaments.filter(is_public=True)
    with_role = StaffRole.objects.filter(user=user).values("tournament")
    return tournaments.filter(Q(is_public=True) | Q(pk__in=with_role))


def public_rounds(user: AnyUser | None, tournament: Tournament) -> set[int] | None:
    """The hanchan whose seating this user may see: None for all of them (the tournament's staff, or a
    tournament that shows every seated hanchan), else the numbers of the published ones."""
    if has_role(user, tournament, Role.REFEREE):
        return None
    if tournament.seating_publication == Tournament.SeatingPublication.ALL:
        return None
    return set(tournament.rounds.exclude(published_at=None).values_list("number", flat=True))


def client_address(request: HttpRequest) -> str:
    """The caller's address: ``REMOTE_ADDR``, or the one ``TRUSTED_PROXY_COUNT`` proxies vouch for."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    trusted = settings.TRUSTED_PROXY_COUNT
    forwarded = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [part for part in forwarded if part]
    if trusted <= 0 or not forwarded:
        return remote
    return forwarded[-min(trusted, len(forwarded))]


# ---------------------------------------------------------------------------------------------------
# Players signed in without an account (a PIN or a one-time link: tournament.services.player_login)

# The session holds, per tournament, the player its browser signed in as: {tournament pk: player pk}.
PLAYER_SESSION_KEY = "tournament_players"
RULE_PLAYERS_ENTER = "players-enter-results"
RULE_SEATING_PUBLIC = "seating-public-to-players"
RULE_SEATED_ONLY = "seated-players-only"


def player_of(request: HttpRequest, tournament: Tournament) -> Player | None:
    """The player this browser signed in as for this tournament, or None: who is asking, for a player."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    signed_in = session.get(PLAYER_SESSION_KEY) or {}
    player_pk = signed_in.get(str(tournament.pk)) if isinstance(signed_in, dict) else None
    if not isinstance(player_pk, int):
        return None
    cache = request.__dict__.setdefault("_players_signed_in", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = Player.objects.filter(tournament=tournament, pk=player_pk).first()
    player: Player | None = cache[tournament.pk]
    return player


def require_table_player(player: Player, table: Table, seats: list[Seat]) -> None:
    """A player may enter or confirm a table's sheet only when the tournament's players enter the
    results, the hanchan's seating is public, and they sit at that table (``seats``, its four seats)."""
    round_ = table.round
    tournament = round_.tournament
    if tournament.entry_mode != Tournament.EntryMode.PLAYERS:
        message = f"in {tournament.name} the referees enter the score sheets, not the players"
        raise Refusal("table", RULE_PLAYERS_ENTER, message, status=FORBIDDEN)
    if not round_.seating_is_public:
        message = f"the seating of hanchan {round_.number} is not published yet"
        raise Refusal("table", RULE_SEATING_PUBLIC, message, status=FORBIDDEN)
    if player.tournament_id != tournament.pk or all(seat.player_id != player.pk for seat in seats):
        message = f"{player.name} is not seated at table {table.number} of hanchan {round_.number}"
        raise Refusal("table", RULE_SEATED_ONLY, message, status=FORBIDDEN)
