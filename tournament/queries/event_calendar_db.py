"""The calendar's events read from the database (``tournament.core.event_calendar`` has the rules): the public
tournaments still to come with their registration, in two queries, and their state in the reader's words
with each moment in its venue's time."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from tournament.core import event_calendar, signups
from tournament.models import RegistrationSettings, Tournament


def _settings(row: RegistrationSettings | None) -> signups.Settings:
    if row is None:
        return signups.Settings(None, None, None, needs_approval=False, waiting_list=False)
    return signups.Settings(row.opens_at, row.closes_at, row.capacity, row.needs_approval, row.waiting_list)


def events(tournaments: Iterable[Tournament], base_url: str, now: datetime) -> list[event_calendar.Event]:
    """The calendar's event of each tournament (``base_url``: the site's address, for the links)."""
    rows = list(tournaments)
    holding = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in rows])
        .annotate(holding=Count("signups", filter=Q(signups__state__in=signups.HOLDING)))
        .values_list("pk", "holding")
    )
    found = {row.pk: row for row in RegistrationSettings.objects.filter(tournament__in=[t.pk for t in rows])}
    return [
        event_calendar.Event(
            id=t.pk,
            name=t.name,
            starts_on=t.starts_on,
            ends_on=t.ends_on,
            venue=t.venue,
            time_zone=t.time_zone,
            url=base_url + reverse("tournament:home", args=[t.slug]),
            signup_url=base_url + reverse("tournament:signup", args=[t.slug]),
            registration=event_calendar.registration(_settings(found.get(t.pk)), holding.get(t.pk, 0), now),
        )
        for t in rows
    ]


def coming_events(base_url: str, now: datetime | None = None) -> list[event_calendar.Event]:
    """The public tournaments still to come, the first first: never a private one, nor the demo."""
    now = now or timezone.now()
    # A day's margin for the time zones ahead of UTC; the venue's own date decides (event_calendar).
    candidates = Tournament.objects.filter(
        is_public=True, is_demo=False, ends_on__gte=(now - timedelta(days=1)).date()
    )
    return event_calendar.coming(events(candidates, base_url, now), now)


def describe(event: event_calendar.Event) -> str:
    """The event's registration state in the active language, its moments in the venue's time."""

    def moment(value: datetime) -> str:
        local = timezone.localtime(value, event.zone)
        return f"{date_format(local, 'DATETIME_FORMAT')} ({event.time_zone})"

    return event_calendar.describe(event.registration, moment)


def feed_host(base_url: str) -> str:
    """The host the events' identifiers are made with: the site's address (``SITE_URL``) when set, so
    that they stay the same however the site is reached; else the request's."""
    return urlsplit(settings.SITE_URL or base_url).hostname or "localhost"
