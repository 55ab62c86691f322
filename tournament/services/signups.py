"""Players signing up themselves: sign up, confirm by the emailed link, cancel, and the organiser's
approval, rejection, payment, moves and "turn the registered into players" (``tournament.core.signups`` has
the rules). One transaction each; every change of state is audited; the messages go by email in the
background once the change commits (``tournament.services.signup_mail``).

Places are counted with the tournament's row locked (``locked_tournament``), so two confirmations or
two cancellations at once are served one after the other: two cancellations promote two people, never
the same place twice, and the last place is given once. A sign-up's own row is locked alone
(``of=("self",)``): a lock taken through a join would lock the tournament's row too, a second guard by
accident that hid whether the first one held (tests/signups/test_races.py fails without
``locked_tournament``).

Tokens: each sign-up has a random seed; its confirmation token and its player's own token are HMACs of
the seed under the site's ``SECRET_KEY`` (``salted_hmac``), and only their SHA-256 is stored, so the
database alone opens no sign-up, while a later message (a promotion) can carry the player's link again.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core import signups
from tournament.core.refusal import CONFLICT, GONE, NOT_FOUND, Problem, Refusal
from tournament.models import (
    Player,
    RegistrationSettings,
    SignUp,
    SignUpMessage,
    StaffRole,
    Tournament,
)
from tournament.queries import access, signups_db
from tournament.queries.signups_db import settings_of
from tournament.services import audit, signup_mail
from tournament.services.registration import country_lookup, register_player

Role = StaffRole.Role
CONFIRM_HOURS = 48
# Sign-ups one client address, and one email, may send per hour (each attempt counted before it is
# checked, so a refused attempt counts too).
LIMIT_PER_ADDRESS = 20
LIMIT_PER_EMAIL = 3
LIMIT_SECONDS = 3600
RULE_RATE = "signup-rate-limit"
RULE_TOKEN = "signup-link"
RULE_STATE = "signup-state"
HONEYPOT = "website"  # a field the page hides: people leave it empty, form-filling robots do not


def confirm_token(signup: SignUp) -> str:
    return signup_mail.token(signup, "confirm")


def manage_token(signup: SignUp) -> str:
    return signup_mail.token(signup, "manage")


def _hash(token: str) -> str:
    return signup_mail.token_hash(token)


def locked_tournament(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the transaction ends: the changes that count places wait for
    each other. ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: a row inserted that refers to the tournament
    (a sign-up, an audit entry, a message) takes ``FOR KEY SHARE`` on it, which ``FOR UPDATE`` blocks, so
    under ``FOR UPDATE`` every sign-up at an opening rush queued behind every confirmation."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


def _counted(key: str, limit: int) -> bool:
    """Count one attempt under ``key`` and answer whether it is within the limit."""
    cache.add(key, 0, LIMIT_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, LIMIT_SECONDS)
        count = 1
    return count <= limit


def _rate_limit(tournament: Tournament, address: str, email: str) -> None:
    email_key = hashlib.sha256(email.encode()).hexdigest()[:32]
    by_address = _counted(f"signup:address:{address}", LIMIT_PER_ADDRESS)
    by_email = _counted(f"signup:email:{tournament.pk}:{email_key}", LIMIT_PER_EMAIL)
    if not (by_address and by_email):
        message = _("Too many sign-ups from here or for this email: try again in an hour.")
        raise Refusal(None, RULE_RATE, message, status=429)


def _manage_expiry(tournament: Tournament) -> datetime:
    """The player's own link works until the day after the tournament ends (the venue's midnight)."""
    end = datetime.combine(tournament.ends_on + timedelta(days=2), time(0), tzinfo=tournament.zone())
    return max(end, timezone.now() + timedelta(days=1))


def _notify(signup: SignUp, kind: str, base_url: str) -> None:
    """The message, logged in this change's transaction and sent once it commits (``SignUpMessage``)."""
    pk = SignUpMessage.objects.create(signup_id=signup.pk, kind=kind, base_url=base_url[:200]).pk
    transaction.on_commit(lambda: signup_mail.send_signup_message.delay(pk))


def sign_up(
    tournament: Tournament,
    data: Mapping[str, Any],
    *,
    address: str,
    language: str,
    base_url: str = "",
) -> SignUp | None:
    """A player's sign-up from the public page, unconfirmed until its emailed link is followed.

    Refused, naming the field, when a field is wrong, and when registration is not open. Whether the
    email already has a sign-up for this tournament, the answer is the same (None, or the new row, which
    the page does not show): the address known receives a reminder with its own link instead. A filled
    honeypot is answered as a success and stores nothing."""
    base_url = base_url or settings.SITE_URL
    fields = signups.clean(dict(data))
    _rate_limit(tournament, address, fields.email or "-")
    if str(data.get(HONEYPOT) or "").strip():
        return None
    problems = signups.validate(fields, countries=country_lookup().values())
    if problems:
        raise Refusal.of(problems)
    now = timezone.now()
    closed = signups.opening_refusal(settings_of(tournament), now)
    if closed is not None:
        raise Refusal.of([closed], status=CONFLICT)
    known = SignUp.objects.filter(tournament=tournament, email=fields.email, state__in=signups.LIVE).first()
    if known is not None:
        _notify(known, signup_mail.KNOWN, base_url)
        return None
    try:
        with transaction.atomic():  # the sign-up, its audit and its message: all or none
            signup = _create(tournament, fields, language, now)
            _notify(signup, signup_mail.CONFIRM, base_url)
    except IntegrityError:  # the same email at the same moment: the one stored gets the reminder
        known = SignUp.objects.filter(
            tournament=tournament, email=fields.email, state__in=signups.LIVE
        ).first()
        if known is not None:
            _notify(known, signup_mail.KNOWN, base_url)
        return None
    return signup


def _create(tournament: Tournament, fields: signups.Fields, language: str, now: datetime) -> SignUp:
    signup = SignUp.objects.create(
        tournament=tournament,
        last_name=fields.last_name,
        first_name=fields.first_name,
        native_name=fields.native_name,
        country=fields.country,
        club=fields.club,
        ema_id=fields.ema_id,
        email=fields.email,
        nicknames=fields.nicknames,
        note=fields.note,
        language=language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE,
        consent_at=now,
        token_seed=secrets.token_hex(16),
        manage_token_hash=secrets.token_hex(32),  # replaced below, once the row has its id
        manage_expires_at=_manage_expiry(tournament),
        confirm_expires_at=now + timedelta(hours=CONFIRM_HOURS),
    )
    signup.confirm_token_hash = _hash(confirm_token(signup))
    signup.manage_token_hash = _hash(manage_token(signup))
    signup.save(update_fields=["confirm_token_hash", "manage_token_hash"])
    audit.record(tournament, None, "signup.create", f"sign-up {signup.name}", {"email": signup.email})
    return signup


def _by_token(tournament: Tournament, token: str, purpose: str) -> SignUp:
    column = "confirm_token_hash" if purpose == "confirm" else "manage_token_hash"
    signup = (
        SignUp.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, **{column: _hash(token or "-")})
        .first()
    )
    if signup is None:
        raise Refusal(
            "token", RULE_TOKEN, _("This link is not valid (or was already used)."), status=NOT_FOUND
        )
    signup.tournament = tournament  # the row the caller has (locked): not read again for the audit
    expires = signup.confirm_expires_at if purpose == "confirm" else signup.manage_expires_at
    if expires is not None and expires <= timezone.now():
        raise Refusal("token", RULE_TOKEN, _("This link has expired."), status=GONE)
    return signup


def find_by_manage_token(tournament: Tournament, token: str) -> SignUp:
    with transaction.atomic():
        return _by_token(tournament, token, "manage")


def _move(
    signup: SignUp, state: str, user: AbstractBaseUser | None, action: str, also: tuple[str, ...] = ()
) -> None:
    """The sign-up in ``state`` (with the fields ``also`` set by the caller, in the same write), audited."""
    before = signup.state
    signup.state = state
    signup.save(update_fields=["state", *also])
    audit.record(signup.tournament, user, action, f"sign-up {signup.name}", {"state": [before, state]})


@transaction.atomic
def confirm(tournament: Tournament, token: str, *, base_url: str = "") -> SignUp:
    """Follow the one-time link: the sign-up counts from now, registered (or awaiting approval) while
    places are left, else on the waiting list; refused when closed, or full without a waiting list."""
    base_url = base_url or settings.SITE_URL
    # Read before the lock: the organiser's settings are not guarded by the tournament's row
    # (``configure`` locks their own), and every query less under it is a wait less for the next one.
    rules = settings_of(tournament)
    tournament = locked_tournament(tournament)
    signup = _by_token(tournament, token, "confirm")
    now = timezone.now()
    holding = SignUp.objects.filter(tournament=tournament, state__in=signups.HOLDING).count()
    outcome = signups.on_confirmation(rules, holding, now)
    if isinstance(outcome, Problem):
        raise Refusal.of([outcome], status=CONFLICT)
    signup.confirmed_at = now
    signup.confirm_token_hash = None
    signup.confirm_expires_at = None
    # One write while the tournament's row is locked: every confirmation waits for this one to commit.
    _move(
        signup, outcome, None, "signup.confirm", ("confirmed_at", "confirm_token_hash", "confirm_expires_at")
    )
    _notify(signup, outcome, base_url)
    return signup


def _first_waiting(tournament: Tournament) -> int | None:
    order = signups.waiting_order(signups_db.queued(tournament))
    return order[0].id if order else None


def _promote(
    tournament: Tournament, base_url: str, user: AbstractBaseUser | None, first_before: int | None
) -> list[SignUp]:
    """The first on the waiting list take the places left (the tournament's row is locked by the
    caller); nobody after the closing moment. Whoever is first in line now, and was not before the
    change (``first_before``), is told so; the others' places are on their own page. Telling each
    one waiting their new place would send a list of 700 a message for each of 100 cancellations."""
    settings_ = settings_of(tournament)
    now = timezone.now()
    chosen = signups.to_promote(settings_, signups_db.queued(tournament), now)
    promoted = []
    for queued in chosen:
        signup = SignUp.objects.select_for_update(of=("self",)).get(pk=queued.id)
        state = signups.promoted_state(settings_)
        if state == signups.OFFERED:  # the place is held until the deadline, then passes to the next
            signup.offer_expires_at = signups.offer_deadline(settings_, now)
            signup.save(update_fields=["offer_expires_at"])
        _move(signup, state, user, "signup.promote")
        _notify(signup, signup_mail.OFFERED if state == signups.OFFERED else signup_mail.PROMOTED, base_url)
        promoted.append(signup)
    first = _first_waiting(tournament)
    if first is not None and first != first_before:
        _notify(SignUp(pk=first), signup_mail.WAITING_LIST, base_url)
    return promoted


def _cancel(signup: SignUp, user: AbstractBaseUser | None, state: str, base_url: str) -> SignUp:
    if signup.state not in signups.LIVE:
        message = _("This sign-up is already {state}.").format(state=signup.get_state_display())
        raise Refusal("state", RULE_STATE, message, status=CONFLICT)
    first_before = _first_waiting(signup.tournament)
    _move(signup, state, user, "signup.cancel" if state == signups.CANCELLED else "signup.reject")
    _notify(signup, signup_mail.CANCELLED if state == signups.CANCELLED else signup_mail.REJECTED, base_url)
    _promote(signup.tournament, base_url, user, first_before)
    return signup


@transaction.atomic
def cancel_by_player(tournament: Tournament, token: str, *, base_url: str = "") -> SignUp:
    """The player cancels from their own link: the first on the waiting list takes the place at once
    (unless after the closing moment)."""
    tournament = locked_tournament(tournament)
    signup = _by_token(tournament, token, "manage")
    return _cancel(signup, None, signups.CANCELLED, base_url or settings.SITE_URL)


def _staff_row(signup: SignUp, user: AbstractBaseUser) -> SignUp:
    access.require_role(user, signup.tournament, Role.ORGANISER)
    locked_tournament(signup.tournament)
    return SignUp.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=signup.pk)


@transaction.atomic
def cancel_by_staff(signup: SignUp, user: AbstractBaseUser, *, base_url: str = "") -> SignUp:
    return _cancel(_staff_row(signup, user), user, signups.CANCELLED, base_url or settings.SITE_URL)


@transaction.atomic
def reject(signup: SignUp, user: AbstractBaseUser, *, base_url: str = "") -> SignUp:
    return _cancel(_staff_row(signup, user), user, signups.REJECTED, base_url or settings.SITE_URL)


@transaction.atomic
def approve(signup: SignUp, user: AbstractBaseUser, *, base_url: str = "") -> SignUp:
    signup = _staff_row(signup, user)
    if signup.state != signups.AWAITING_APPROVAL:
        message = _("Only a sign-up awaiting approval is approved; this one is {state}.").format(
            state=signup.get_state_display()
        )
        raise Refusal("state", RULE_STATE, message, status=CONFLICT)
    _move(signup, signups.REGISTERED, user, "signup.approve")
    _notify(signup, signup_mail.REGISTERED, base_url or settings.SITE_URL)
    return signup


MOVES = (signups.REGISTERED, signups.AWAITING_APPROVAL, signups.WAITING_LIST)


@transaction.atomic
def move(signup: SignUp, state: str, user: AbstractBaseUser, *, base_url: str = "") -> SignUp:
    """The organiser moves a confirmed sign-up between registered, awaiting approval and the waiting
    list (after the closing moment, the organiser's way to give a freed place). A move that takes a place
    is refused when none is left."""
    signup = _staff_row(signup, user)
    if state not in MOVES:
        raise Refusal("state", RULE_STATE, _("state: not a state a sign-up is moved to"))
    if signup.state not in MOVES:
        message = _("Only a confirmed sign-up is moved; this one is {state}.").format(
            state=signup.get_state_display()
        )
        raise Refusal("state", RULE_STATE, message, status=CONFLICT)
    if state == signup.state:
        return signup
    if state in signups.HOLDING and signup.state not in signups.HOLDING:
        holding = SignUp.objects.filter(tournament=signup.tournament, state__in=signups.HOLDING).count()
        if signups.places_left(settings_of(signup.tournament), holding) == 0:
            raise Refusal("state", signups.RULE_FULL, _("No place is left."), status=CONFLICT)
    if state == signups.WAITING_LIST and signup.confirmed_at is None:
        signup.confirmed_at = timezone.now()
        signup.save(update_fields=["confirmed_at"])
    first_before = _first_waiting(signup.tournament)
    _move(signup, state, user, "signup.move")
    _notify(signup, state, base_url or settings.SITE_URL)
    if state not in signups.HOLDING:
        _promote(signup.tournament, base_url or settings.SITE_URL, user, first_before)
    return signup


@transaction.atomic
def mark_paid(signup: SignUp, user: AbstractBaseUser, paid: bool = True) -> SignUp:
    signup = _staff_row(signup, user)
    if signup.paid != paid:
        signup.paid = paid
        signup.save(update_fields=["paid"])
        audit.record(
            signup.tournament, user, "signup.paid", f"sign-up {signup.name}", {"paid": [not paid, paid]}
        )
    return signup


RULE_HELD_BY_PLAYER = "signup-is-player"


def _fields_of(signup: SignUp) -> signups.Fields:
    return signups.clean({**{name: getattr(signup, name) for name in signups.EDITABLE}, "consent": True})


@transaction.atomic
def edit(signup: SignUp, user: AbstractBaseUser, data: Mapping[str, Any]) -> SignUp:
    """Staff correct a sign-up's fields (``signups.EDITABLE``: the names, country, club, EMA number,
    email, nicknames, note), checked as the sign-up form checks them; the EMA number is matched to the
    site's person when the sign-up becomes a player, as at sign-up. Refused, naming the field, for an
    email another sign-up still in the event has (``signup-email-taken``), and, once the sign-up is a
    player, for what the player's registration holds (corrected there). Audited with each change; all or
    nothing."""
    signup = _staff_row(signup, user)
    before = _fields_of(signup)
    after = signups.edited(before, {name: data[name] for name in signups.EDITABLE if name in data})
    problems = signups.validate(after, countries=country_lookup().values())
    if problems:
        raise Refusal.of(problems)
    changed = signups.changes(before, after)
    if not changed:
        return signup
    if signup.player_id is not None:
        held = [name for name in signups.HELD_BY_PLAYER if name in changed]
        if held:
            message = _("{name} is a player now: correct this on the player's registration.").format(
                name=signup.name
            )
            raise Refusal(held[0], RULE_HELD_BY_PLAYER, message, status=CONFLICT)
    if "email" in changed and signup.state in signups.LIVE and _email_taken(signup, after.email):
        raise _taken(after.email)
    for name in changed:
        setattr(signup, name, getattr(after, name))
    try:
        with transaction.atomic():
            signup.save(update_fields=list(changed))
    except IntegrityError as error:  # the same email given to another sign-up at this moment
        raise _taken(after.email) from error
    audit.record(signup.tournament, user, "signup.edit", f"sign-up {signup.name}", changed)
    return signup


def _email_taken(signup: SignUp, email: str) -> bool:
    others = SignUp.objects.filter(tournament=signup.tournament, email=email, state__in=signups.LIVE)
    return others.exclude(pk=signup.pk).exists()


def _taken(email: str) -> Refusal:
    message = _("Email: {value} already has a sign-up for this tournament").format(value=email)
    return Refusal("email", signups.RULE_EMAIL_TAKEN, message, status=CONFLICT)


@transaction.atomic
def turn_into_players(tournament: Tournament, user: AbstractBaseUser) -> list[Player]:
    """Every registered sign-up not yet a player becomes one (the registration the check-in and the
    seating use), with the same checks as a registration by hand and its EMA id matched to the site's
    person; all or none (the refusal names the sign-up)."""
    access.require_role(user, tournament, Role.ORGANISER)
    tournament = locked_tournament(tournament)
    rows = SignUp.objects.select_for_update(of=("self",)).filter(
        tournament=tournament, state=signups.REGISTERED, player__isnull=True
    )
    created = []
    for signup in rows.order_by("confirmed_at", "pk"):
        try:
            player = register_player(
                tournament,
                user,
                name=signup.name,
                first_name=signup.first_name,
                last_name=signup.last_name,
                native_name=signup.native_name,
                country=signup.country.code or "",
                club=signup.club,
                ema_id=signup.ema_id,
            )
        except Refusal as refusal:
            problems = [
                Problem(p.field, p.rule, f"{signup.name}: {p.message}", extra={"signup": signup.pk})
                for p in refusal.problems
            ]
            raise Refusal.of(problems, status=refusal.status) from refusal
        signup.player = player
        signup.save(update_fields=["player"])
        audit.record(tournament, user, "signup.player", f"sign-up {signup.name}", {"player": player.pk})
        created.append(player)
    return created


def _audited(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


@transaction.atomic
def configure(
    tournament: Tournament, user: AbstractBaseUser, data: Mapping[str, Any], *, base_url: str = ""
) -> RegistrationSettings:
    """The organiser sets how players sign up (``RegistrationSettings``; ``data`` as the settings form
    cleans it): stored with the change of each field in the audit, the tournament's row locked as every
    sign-up locks it. Places added while registration is open go at once to the first on the waiting
    list, as a cancellation's place does."""
    tournament = locked_tournament(tournament)
    row, _created = RegistrationSettings.objects.select_for_update().get_or_create(tournament=tournament)
    changes = {}
    for name in RegistrationSettings.EDITABLE:
        if name in data and getattr(row, name) != data[name]:
            changes[name] = [_audited(getattr(row, name)), _audited(data[name])]
            setattr(row, name, data[name])
    if row.opens_at is not None and row.closes_at is not None and row.closes_at <= row.opens_at:
        message = _("Registration closes after it opens.")
        raise Refusal("closes_at", "registration-closes-after-opens", message)
    if not changes:
        return row
    first_before = _first_waiting(tournament)
    row.save()
    audit.record(tournament, user, "registration.settings", "registration", changes)
    _promote(tournament, base_url, user, first_before)
    return row


# -- A time to accept a promotion --------------------------------------------------------------------

RULE_OFFER_EXPIRED = "signup-offer-expired"


@transaction.atomic
def accept_offer(tournament: Tournament, token: str, *, base_url: str = "") -> SignUp:
    """The player accepts the place offered to them, from their own link, before its deadline: the
    sign-up is registered (awaiting approval when the organiser approves each one). Refused when it is
    not offered a place (409 ``signup-state``) and after the deadline (409 ``signup-offer-expired``:
    the sweep passes the place to the next on the waiting list)."""
    tournament = locked_tournament(tournament)
    signup = _by_token(tournament, token, "manage")
    if signup.state != signups.OFFERED:
        message = _("No place is offered to this sign-up; it is {state}.").format(
            state=signup.get_state_display()
        )
        raise Refusal("state", RULE_STATE, message, status=CONFLICT)
    if signups.offer_expired(signup.offer_expires_at, timezone.now()):
        message = _("The time to accept this place is over.")
        raise Refusal("state", RULE_OFFER_EXPIRED, message, status=CONFLICT)
    state = signups.accepted_state(settings_of(tournament))
    signup.offer_expires_at = None
    signup.save(update_fields=["offer_expires_at"])
    _move(signup, state, None, "signup.accept")
    _notify(signup, state, base_url or settings.SITE_URL)
    return signup


def _last_base_url(signup: SignUp) -> str:
    """The site's address of the sign-up's latest message (the sweep has no request to take it from)."""
    last = SignUpMessage.objects.filter(signup=signup).exclude(base_url="").order_by("-pk").first()
    return last.base_url if last is not None else settings.SITE_URL


def expire_offers(now: datetime | None = None) -> list[int]:
    """Every offer whose deadline has passed is withdrawn (the sign-up cancelled, its player told) and
    the place passes to the next on the waiting list, as a cancellation's does (nobody after the closing
    moment). One transaction per tournament, its row locked as every change of its sign-ups locks it and
    each offer read again under the lock: two sweeps at once withdraw an offer once and give its place
    once. The sign-ups whose offer expired."""
    now = now or timezone.now()
    due = SignUp.objects.filter(state=signups.OFFERED, offer_expires_at__lte=now)
    expired: list[int] = []
    for tournament_id in sorted(set(due.values_list("tournament_id", flat=True))):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            rows = list(
                SignUp.objects.select_for_update(of=("self",))
                .select_related("tournament")
                .filter(tournament=tournament, state=signups.OFFERED, offer_expires_at__lte=now)
                .order_by("offer_expires_at", "pk")
            )
            if not rows:
                continue  # another sweep passed them on meanwhile
            first_before = _first_waiting(tournament)
            base_url = _last_base_url(rows[0])
            for signup in rows:
                signup.offer_expires_at = None
                signup.save(update_fields=["offer_expires_at"])
                _move(signup, signups.CANCELLED, None, "signup.offer-expired")
                _notify(signup, signup_mail.OFFER_EXPIRED, base_url)
                expired.append(signup.pk)
            _promote(tournament, base_url, None, first_before)
    return expired


@shared_task(name="tournament.expire_signup_offers", ignore_result=True)
def expire_signup_offers() -> list[int]:
    """The sweep of the offers, sent by Celery beat every ``JOB_SWEEP_SECONDS``."""
    return expire_offers()
