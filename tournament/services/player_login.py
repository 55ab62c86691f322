"""Players sign in without an account: a 6-digit PIN, or a one-time link (a QR code on the seating card).

Only hashes are stored: the PIN through one of Django's password hashers (PBKDF2-SHA256, with fewer
iterations than an account's password: a PIN has only a million values, so its protection is the login
limit of ``config.player_login``, not the hash's cost, and a hanchan's cards are printed at once), the link
as the SHA-256 of its random token. Issuing new credentials replaces the PIN and deletes the player's
unused links; browsers already signed in stay signed in.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.refusal import GONE, NOT_FOUND, Refusal
from tournament.models import Player, PlayerLoginLink, Round, StaffRole, Tournament
from tournament.queries import access
from tournament.services import audit

Role = StaffRole.Role
PIN_DIGITS = 6
LINK_HOURS = 24
TOKEN_BYTES = 32  # secrets.token_urlsafe: 43 characters
MAX_TOKEN_LENGTH = 100


class PinHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 for PINs: a cost that prints a hanchan's cards in a second or two."""

    algorithm = "pin_pbkdf2_sha256"
    iterations = 20_000


@dataclass(frozen=True)
class Credentials:
    """What is shown once (on the card, or to the organiser): the PIN and the one-time link's token."""

    player: Player
    pin: str
    token: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _issue(player: Player, now: datetime) -> Credentials:
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    token = secrets.token_urlsafe(TOKEN_BYTES)
    hasher = PinHasher()
    player.pin_hash = hasher.encode(pin, hasher.salt())
    player.credentials_issued_at = now
    player.save(update_fields=["pin_hash", "credentials_issued_at"])
    PlayerLoginLink.objects.filter(player=player, used_at=None).delete()
    PlayerLoginLink.objects.create(
        player=player, token_hash=token_hash(token), expires_at=now + timedelta(hours=LINK_HOURS)
    )
    return Credentials(player, pin, token)


@transaction.atomic
def issue_for_hanchan(tournament: Tournament, number: int, user: AbstractBaseUser) -> dict[int, Credentials]:
    """A fresh PIN and link for every player seated in hanchan ``number`` (printing its seating cards), by
    player pk. A referee prints the cards, in either entry mode: the link signs the player in on their own
    page (their results and next seats; their table's sheet when the players enter the results)."""
    access.require_role(user, tournament, Role.REFEREE)
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        message = _("hanchan {number} is not seated").format(number=number)
        raise Refusal("hanchan", "hanchan-seated", message, status=NOT_FOUND)
    now = timezone.now()
    players = Player.objects.select_for_update().filter(seats__round=round_).order_by("pk")
    issued = {player.pk: _issue(player, now) for player in players}
    audit.record(
        tournament,
        user,
        "player.credentials",
        f"players of hanchan {number}",
        {"players": len(issued), "printed": "seating cards"},
    )
    return issued


@dataclass(frozen=True)
class HanchanCodes:
    """What new codes for a hanchan would replace: its seated players, how many of them hold codes
    already, and when the last were issued."""

    players: int
    holding: int
    last_issued: datetime | None


def hanchan_codes(round_: Round) -> HanchanCodes:
    players = Player.objects.filter(seats__round=round_)
    holding = players.exclude(credentials_issued_at=None).aggregate(
        count=Count("pk"), latest=Max("credentials_issued_at")
    )
    return HanchanCodes(players.count(), holding["count"], holding["latest"])


@transaction.atomic
def issue_for_player(player: Player, user: AbstractBaseUser) -> Credentials:
    """An organiser issues one player a new PIN and link (shown once); the old ones stop working."""
    access.require_role(user, player.tournament, Role.ORGANISER)
    player = Player.objects.select_for_update().select_related("tournament").get(pk=player.pk)
    issued = _issue(player, timezone.now())
    audit.record(
        player.tournament, user, "player.credentials", f"player {player.name}", {"issued": "PIN, link"}
    )
    return issued


def pin_matches(player: Player, pin: str) -> bool:
    """Whether ``pin`` is the player's current PIN (always False before one is issued)."""
    if not player.pin_hash or not (len(pin) == PIN_DIGITS and pin.isascii() and pin.isdigit()):
        return False
    return PinHasher().verify(pin, player.pin_hash)


@transaction.atomic
def use_link(tournament: Tournament, token: str) -> Player:
    """The player of a one-time link, which is used up: refused (404) when unknown or replaced, (410)
    when used already or expired."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        raise Refusal("token", "login-link-unknown", _("this sign-in link is not valid"), status=NOT_FOUND)
    link = (
        PlayerLoginLink.objects.select_for_update()
        .select_related("player")
        .filter(token_hash=token_hash(token), player__tournament=tournament)
        .first()
    )
    if link is None:
        message = _("this sign-in link is not valid (or new credentials replaced it): ask an organiser")
        raise Refusal("token", "login-link-unknown", message, status=NOT_FOUND)
    now = timezone.now()
    if link.used_at is not None:
        message = _("this sign-in link was used already: sign in with your PIN")
        raise Refusal("token", "login-link-once", message, status=GONE)
    if link.expires_at <= now:
        message = _("this sign-in link expired ({hours} hours after printing): sign in with your PIN").format(
            hours=LINK_HOURS
        )
        raise Refusal("token", "login-link-expired", message, status=GONE)
    link.used_at = now
    link.save(update_fields=["used_at"])
    return link.player
