"""The calendar of coming events: which tournaments are still to come, their registration state in
words, the month headings of the site's home page, and the same events as an iCalendar feed (RFC 5545,
written by the ``icalendar`` package). Plain Python, no Django: the home page and the feeds call it.

An event is coming until its last day is over in its venue's time zone (a tournament under way is still
listed). Its registration state follows ``tournament.core.signups``: no opening moment, players do not sign up
themselves (``NONE``: nothing is said); before the opening ``NOT_OPEN``; then ``OPEN`` while places are left,
``WAITING_LIST`` when full with a waiting list, ``FULL`` when full without one; ``CLOSED`` from the closing
moment. In the feed each tournament is one all-day event (``DTEND`` the day after the last day, as RFC 5545
has it), its ``UID`` made of the tournament's id and the site's host, so a calendar that subscribed updates
the event instead of adding another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar

from scoring.rules.i18n import _
from tournament.core.signups import Settings, places_left

NONE = "none"
NOT_OPEN = "not_open"
OPEN = "open"
WAITING_LIST = "waiting_list"
FULL = "full"
CLOSED = "closed"
# The states in which the sign-up page takes a sign-up.
SIGNING_UP = (OPEN, WAITING_LIST)

PRODID = "-//Riichi tournament manager//Calendar of events//EN"


@dataclass(frozen=True, slots=True)
class Registration:
    """A tournament's registration as the calendar tells it at one moment."""

    state: str
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    places_left: int | None = None  # None: no limit

    @property
    def takes_sign_ups(self) -> bool:
        return self.state in SIGNING_UP


def registration(settings: Settings, holding: int, now: datetime) -> Registration:
    """The registration's state at ``now``, given how many sign-ups hold a place."""
    left = places_left(settings, holding)
    if settings.opens_at is None:
        return Registration(NONE)
    if settings.is_closed(now):
        state = CLOSED
    elif not settings.is_open(now):
        state = NOT_OPEN
    elif left == 0:
        state = WAITING_LIST if settings.waiting_list else FULL
    else:
        state = OPEN
    return Registration(state, settings.opens_at, settings.closes_at, left)


@dataclass(frozen=True, slots=True)
class Event:
    """One tournament in the calendar."""

    id: int
    name: str
    starts_on: date
    ends_on: date
    venue: str
    time_zone: str
    url: str  # the tournament's page, absolute
    signup_url: str  # its sign-up page, absolute
    registration: Registration

    @property
    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.time_zone)
        except (ValueError, ZoneInfoNotFoundError):
            return ZoneInfo("UTC")

    def is_coming(self, now: datetime) -> bool:
        """Whether the event's last day is not over yet at the venue."""
        return self.ends_on >= now.astimezone(self.zone).date()


def coming(events: Iterable[Event], now: datetime) -> list[Event]:
    """The events still to come (or under way), the first first; on the same day by name."""
    return sorted((e for e in events if e.is_coming(now)), key=lambda e: (e.starts_on, e.ends_on, e.name))


def by_month(events: Sequence[Event]) -> list[tuple[date, list[Event]]]:
    """The events under the heading of the month they start in (its first day), in their order."""
    months: list[tuple[date, list[Event]]] = []
    for event in events:
        month = event.starts_on.replace(day=1)
        if not months or months[-1][0] != month:
            months.append((month, []))
        months[-1][1].append(event)
    return months


def describe(registration: Registration, moment: Callable[[datetime], str]) -> str:
    """The registration's state in words ("" when players do not sign up themselves); ``moment`` writes
    an opening or closing moment in the venue's time."""
    state = registration.state
    if state == NONE:
        return ""
    if state == NOT_OPEN and registration.opens_at is not None:
        return _("Registration opens on {moment}").format(moment=moment(registration.opens_at))
    if state == CLOSED:
        return _("Registration closed")
    if state == FULL:
        return _("Registration full")
    if registration.closes_at is not None:
        text = _("Registration open until {moment}").format(moment=moment(registration.closes_at))
    else:
        text = _("Registration open")
    if state == WAITING_LIST:
        return text + " · " + _("Full: waiting list")
    if registration.places_left is not None:
        return text + " · " + _("Places left: {count}").format(count=registration.places_left)
    return text


def feed(
    events: Iterable[Event],
    *,
    title: str,
    host: str,
    now: datetime,
    description: Callable[[Event], str],
) -> bytes:
    """The events as an iCalendar file: one all-day ``VEVENT`` each, its lines folded at 75 octets."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", title)
    for event in events:
        entry = icalendar.Event()
        entry.add("uid", uid(event, host))
        entry.add("dtstamp", now)
        entry.add("summary", event.name)
        entry.add("dtstart", event.starts_on)
        entry.add("dtend", event.ends_on + timedelta(days=1))  # exclusive: the day after the last
        entry.add("url", event.url)
        if event.venue:
            entry.add("location", event.venue)
        text = description(event)
        lines = [text] if text else []
        if event.registration.takes_sign_ups:
            lines.append(event.signup_url)
        lines.append(event.url)
        entry.add("description", "\n".join(lines))
        calendar.add_component(entry)
    body: bytes = calendar.to_ical()
    return body


def uid(event: Event, host: str) -> str:
    """The event's identifier, the same in every copy of the feed: the tournament's id at the site."""
    return f"tournament-{event.id}@{host or 'localhost'}"
