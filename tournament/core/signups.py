"""Players signing up themselves for a tournament: the rules, plain Python (no Django).

A sign-up is ``unconfirmed`` until its email's one-time link is followed; nothing counts before. A
confirmed sign-up becomes ``registered`` while places are left (``awaiting_approval`` instead when the
organiser approves each one), goes on the ``waiting_list`` when the event is full and the tournament keeps
one, and is refused otherwise. A player cancels (``cancelled``), the organiser rejects
(``rejected``). "Promoted" is no state: it is the move of the first on the waiting list to
``registered`` (or ``awaiting_approval``) when a place frees, recorded in the audit. The waiting list is
in the order the sign-ups were confirmed (arrival of the confirmation, then the row's id); after the
closing moment nobody is promoted by itself: the organiser decides.

Places are taken by ``registered`` and ``awaiting_approval`` sign-ups: a sign-up awaiting approval holds
its place until the organiser decides, so that approving never overfills the event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from scoring.rules.i18n import _
from tournament.core.inputs import RULE_PRINTABLE, control_problem
from tournament.core.refusal import Problem

UNCONFIRMED = "unconfirmed"
REGISTERED = "registered"
AWAITING_APPROVAL = "awaiting_approval"
WAITING_LIST = "waiting_list"
CANCELLED = "cancelled"
REJECTED = "rejected"
# Promoted from the waiting list when the registration gives a time to accept: the place is held for the
# player until the offer's deadline, then passes to the next on the list.
OFFERED = "offered"
STATES = (UNCONFIRMED, REGISTERED, AWAITING_APPROVAL, OFFERED, WAITING_LIST, CANCELLED, REJECTED)
# The states of a sign-up still in the event (one per email and tournament, a database constraint too).
LIVE = (UNCONFIRMED, REGISTERED, AWAITING_APPROVAL, OFFERED, WAITING_LIST)
# The states that hold a place.
HOLDING = (REGISTERED, AWAITING_APPROVAL, OFFERED)
# The order of the organiser's list: those holding a place, those to approve and those offered one, the
# waiting list in its order, the unconfirmed, then those gone (each state by the time of its
# confirmation).
STAFF_ORDER = (REGISTERED, AWAITING_APPROVAL, OFFERED, WAITING_LIST, UNCONFIRMED, CANCELLED, REJECTED)
# The longest time to accept a promotion the settings take, in hours (30 days).
ACCEPT_HOURS_MAX = 720

RULE_NOT_OPEN = "registration-not-open"
RULE_CLOSED = "registration-closed"
RULE_FULL = "registration-full"
RULE_REQUIRED = "signup-required"
RULE_LATIN = "signup-latin-name"
RULE_EMA = "signup-ema-id"
RULE_EMAIL = "signup-email"
RULE_CONSENT = "signup-consent"
RULE_LENGTH = "signup-length"
RULE_EMAIL_TAKEN = "signup-email-taken"
# The field a refusal of the registration as a whole names (closed, not open, full).
REGISTRATION = "registration"

NAME_LENGTH = 60
TEXT_LENGTH = 120
NOTE_LENGTH = 1000
EMAIL_LENGTH = 254

# Latin script: the ASCII letters, the Latin-1 supplement's and Latin Extended-A/B's letters, Latin
# Extended Additional (Vietnamese), with spaces, hyphens, apostrophes and full stops between them.
_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
_LATIN_NAME = re.compile(rf"^[{_LETTER}]+([ '\u2019.-]+[{_LETTER}]+)*\.?$")
_EMA_ID = re.compile(r"^\d{8}$")
# An email's syntax as far as a form should judge it: one @, a local part without spaces, a domain of
# dotted labels whose last has two letters at least. Whether it arrives is the confirmation's job.
_EMAIL = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"
)


@dataclass(frozen=True, slots=True)
class Settings:
    """A tournament's registration: when it is open, how many places, approval, a waiting list."""

    opens_at: datetime | None
    closes_at: datetime | None
    capacity: int | None  # None: no limit
    needs_approval: bool
    waiting_list: bool
    accept_hours: int | None = None  # a promotion is offered for this long; None: it is given at once

    def is_open(self, now: datetime) -> bool:
        return self.opens_at is not None and self.opens_at <= now and not self.is_closed(now)

    def is_closed(self, now: datetime) -> bool:
        return self.closes_at is not None and now >= self.closes_at


@dataclass(frozen=True, slots=True)
class Queued:
    """A sign-up as the waiting list sees it: its id, its state and when it was confirmed."""

    id: int
    state: str
    confirmed_at: datetime | None


def places_left(settings: Settings, holding: int) -> int | None:
    """The places left, given how many sign-ups hold one; None when there is no limit."""
    if settings.capacity is None:
        return None
    return max(0, settings.capacity - holding)


def opening_refusal(settings: Settings, now: datetime) -> Problem | None:
    """Why no one may sign up at this moment, if so."""
    if settings.is_closed(now):
        return Problem(REGISTRATION, RULE_CLOSED, _("Registration for this tournament is closed."))
    if not settings.is_open(now):
        return Problem(REGISTRATION, RULE_NOT_OPEN, _("Registration for this tournament is not open yet."))
    return None


def on_confirmation(settings: Settings, holding: int, now: datetime) -> str | Problem:
    """The state a sign-up takes when its email is confirmed at ``now`` with ``holding`` places taken,
    or the refusal (closed, or full without a waiting list)."""
    refused = opening_refusal(settings, now)
    if refused is not None:
        return refused
    left = places_left(settings, holding)
    if left is None or left > 0:
        return AWAITING_APPROVAL if settings.needs_approval else REGISTERED
    if settings.waiting_list:
        return WAITING_LIST
    return Problem(REGISTRATION, RULE_FULL, _("The tournament is full and keeps no waiting list."))


def waiting_order(signups: Iterable[Queued]) -> list[Queued]:
    """The waiting list, first first: in the order of confirmation (then of the sign-up's id)."""
    waiting = [s for s in signups if s.state == WAITING_LIST]
    return sorted(waiting, key=lambda s: (s.confirmed_at is None, s.confirmed_at or datetime.min, s.id))


def waiting_position(signups: Iterable[Queued], signup_id: int) -> int | None:
    """A sign-up's place on the waiting list, from 1; None when it is not on it."""
    for position, signup in enumerate(waiting_order(signups), start=1):
        if signup.id == signup_id:
            return position
    return None


def to_promote(settings: Settings, signups: Sequence[Queued], now: datetime) -> list[Queued]:
    """Who moves up from the waiting list now, first first: as many as there are places left; nobody
    after the closing moment (the organiser decides then)."""
    if settings.is_closed(now):
        return []
    holding = sum(1 for s in signups if s.state in HOLDING)
    left = places_left(settings, holding)
    waiting = waiting_order(signups)
    return waiting if left is None else waiting[:left]


def promoted_state(settings: Settings) -> str:
    """The state of the first on the waiting list when a place frees: offered when the registration
    gives a time to accept, else the place at once (awaiting approval when the organiser approves)."""
    if settings.accept_hours:
        return OFFERED
    return accepted_state(settings)


def accepted_state(settings: Settings) -> str:
    """The state of a sign-up given a place: registered, or awaiting approval when the organiser
    approves each one."""
    return AWAITING_APPROVAL if settings.needs_approval else REGISTERED


def offer_deadline(settings: Settings, now: datetime) -> datetime | None:
    """Until when an offer made at ``now`` may be accepted (None: no time to accept)."""
    return now + timedelta(hours=settings.accept_hours) if settings.accept_hours else None


def offer_expired(deadline: datetime | None, now: datetime) -> bool:
    return deadline is not None and deadline <= now


@dataclass(frozen=True, slots=True)
class Fields:
    """A sign-up's own fields, as typed (already stripped of surrounding spaces by ``clean``)."""

    last_name: str
    first_name: str
    native_name: str
    country: str
    club: str
    ema_id: str
    email: str
    nicknames: str
    note: str
    consent: bool


def clean(raw: dict[str, object]) -> Fields:
    def text(name: str) -> str:
        return " ".join(str(raw.get(name) or "").split())

    return Fields(
        last_name=text("last_name"),
        first_name=text("first_name"),
        native_name=text("native_name"),
        country=text("country").upper(),
        club=text("club"),
        ema_id=text("ema_id").replace(" ", ""),
        email=text("email").lower(),
        nicknames=text("nicknames"),
        note=str(raw.get("note") or "").strip(),
        consent=raw.get("consent") in (True, "on", "true", "1", "yes"),
    )


def validate(fields: Fields, *, countries: Iterable[str]) -> list[Problem]:
    """Every problem of a sign-up's fields, each naming its field and rule (empty: fine)."""
    problems: list[Problem] = []
    printable: set[str] = set()
    for name, label in _text_labels():
        why = control_problem(getattr(fields, name), multiline=name == "note")
        if why is not None:
            printable.add(name)
            problems.append(Problem(name, RULE_PRINTABLE, f"{label}: {why}"))
    for name, label in (("last_name", _("Last name")), ("first_name", _("First name"))):
        value = getattr(fields, name)
        if name in printable:
            continue
        if not value:
            problems.append(Problem(name, RULE_REQUIRED, _("{field}: required").format(field=label)))
        elif len(value) > NAME_LENGTH:
            message = _("{field}: at most {count} characters").format(field=label, count=NAME_LENGTH)
            problems.append(Problem(name, RULE_LENGTH, message))
        elif not _LATIN_NAME.match(value):
            message = _(
                "{field}: write it in Latin letters (the native script goes in its own field)"
            ).format(field=label)
            problems.append(Problem(name, RULE_LATIN, message))
    for name, label, limit in (
        ("native_name", _("Name in its own script"), NAME_LENGTH),
        ("club", _("Club"), TEXT_LENGTH),
        ("nicknames", _("Online nicknames"), TEXT_LENGTH),
        ("note", _("Note"), NOTE_LENGTH),
    ):
        if len(getattr(fields, name)) > limit:
            message = _("{field}: at most {count} characters").format(field=label, count=limit)
            problems.append(Problem(name, RULE_LENGTH, message))
    if fields.country and fields.country not in set(countries):
        message = _("Country: {value} is not a country code").format(value=fields.country)
        problems.append(Problem("country", RULE_REQUIRED, message))
    if fields.ema_id and not _EMA_ID.match(fields.ema_id):
        message = _("EMA number: exactly 8 digits (EMA ranking rules), not {value}").format(
            value=fields.ema_id
        )
        problems.append(Problem("ema_id", RULE_EMA, message))
    if not fields.email:
        problems.append(Problem("email", RULE_REQUIRED, _("{field}: required").format(field=_("Email"))))
    elif len(fields.email) > EMAIL_LENGTH or not _EMAIL.match(fields.email) or ".." in fields.email:
        message = _("Email: {value} is not an email address").format(value=fields.email)
        problems.append(Problem("email", RULE_EMAIL, message))
    if not fields.consent:
        message = _("Consent: required; without it nothing is stored or published")
        problems.append(Problem("consent", RULE_CONSENT, message))
    return problems


def _text_labels() -> tuple[tuple[str, str], ...]:
    return (
        ("last_name", _("Last name")),
        ("first_name", _("First name")),
        ("native_name", _("Name in its own script")),
        ("country", _("Country")),
        ("club", _("Club")),
        ("ema_id", _("EMA number")),
        ("email", _("Email")),
        ("nicknames", _("Online nicknames")),
        ("note", _("Note")),
    )


# What staff may correct of a sign-up (the consent stays the player's own), and of those, what the
# player made of it holds too: once a sign-up is a player, those are corrected on the player.
EDITABLE = (
    "last_name",
    "first_name",
    "native_name",
    "country",
    "club",
    "ema_id",
    "email",
    "nicknames",
    "note",
)
HELD_BY_PLAYER = ("last_name", "first_name", "native_name", "country", "club", "ema_id")


def edited(before: Fields, raw: dict[str, object]) -> Fields:
    """The fields after a correction by staff: ``raw`` holds the fields changed (any of ``EDITABLE``),
    cleaned as at sign-up; the others, and the consent, stay as they were."""
    current: dict[str, object] = {name: getattr(before, name) for name in EDITABLE}
    current.update({name: raw[name] for name in EDITABLE if name in raw})
    return clean({**current, "consent": before.consent})


def changes(before: Fields, after: Fields) -> dict[str, list[str]]:
    """What a correction changes, field by field: ``{field: [before, after]}``, the audit's shape."""
    return {
        name: [getattr(before, name), getattr(after, name)]
        for name in EDITABLE
        if getattr(before, name) != getattr(after, name)
    }


def display_name(fields: Fields) -> str:
    """The player's name as the product shows it: first name, then last name."""
    return f"{fields.first_name} {fields.last_name}".strip()


# -- An organiser's announcement to the sign-ups ------------------------------------------------------

SUBJECT_LENGTH = 150
ANNOUNCEMENT_LENGTH = 5000
RULE_ANNOUNCEMENT_REQUIRED = "announcement-required"
RULE_ANNOUNCEMENT_LENGTH = "announcement-length"
RULE_NO_RECIPIENT = "announcement-no-recipient"


@dataclass(frozen=True, slots=True)
class Announcement:
    """An organiser's message to the sign-ups: a one-line subject and a text, as written (only the
    spaces around them trimmed), to the registered and, when chosen, to the waiting list."""

    subject: str
    text: str
    waiting_list: bool


def clean_announcement(raw: dict[str, object]) -> Announcement:
    return Announcement(
        subject=str(raw.get("subject") or "").strip(),
        text=str(raw.get("text") or "").strip(),
        waiting_list=raw.get("waiting_list") in (True, "on", "true", "1", "yes"),
    )


def announcement_problems(announcement: Announcement) -> list[Problem]:
    """Every problem of an announcement, each naming its field and rule (empty: fine): both required,
    the subject one line of at most ``SUBJECT_LENGTH`` characters, the text at most
    ``ANNOUNCEMENT_LENGTH``, neither with a control character (the text may hold new lines and tabs)."""
    problems: list[Problem] = []
    for name, label, limit, multiline in (
        ("subject", _("Subject"), SUBJECT_LENGTH, False),
        ("text", _("Text"), ANNOUNCEMENT_LENGTH, True),
    ):
        value = getattr(announcement, name)
        why = control_problem(value, multiline=multiline)
        if why is not None:
            problems.append(Problem(name, RULE_PRINTABLE, f"{label}: {why}"))
        elif not value:
            message = _("{field}: required").format(field=label)
            problems.append(Problem(name, RULE_ANNOUNCEMENT_REQUIRED, message))
        elif len(value) > limit:
            message = _("{field}: at most {count} characters, not {length}").format(
                field=label, count=limit, length=len(value)
            )
            problems.append(Problem(name, RULE_ANNOUNCEMENT_LENGTH, message))
    return problems


def announced_states(announcement: Announcement) -> tuple[str, ...]:
    """The states of the sign-ups an announcement goes to."""
    return (REGISTERED, WAITING_LIST) if announcement.waiting_list else (REGISTERED,)
