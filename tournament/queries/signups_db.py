"""Reads of the players' own sign-ups: the registration's rules, the counts by state and by country, the
waiting list's order (``tournament.core.signups`` has the rules; ``tournament.services.signups`` the
changes)."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count

from tournament.core import signups
from tournament.models import RegistrationSettings, SignUp, Tournament


def settings_of(tournament: Tournament) -> signups.Settings:
    return settings_from_row(RegistrationSettings.objects.filter(tournament=tournament).first())


def settings_from_row(row: RegistrationSettings | None) -> signups.Settings:
    """The registration's rules from its row (None: the tournament has no registration)."""
    if row is None:
        return signups.Settings(None, None, None, needs_approval=False, waiting_list=False)
    return signups.Settings(
        row.opens_at, row.closes_at, row.capacity, row.needs_approval, row.waiting_list, row.accept_hours
    )


def queued(tournament: Tournament) -> list[signups.Queued]:
    rows = SignUp.objects.filter(tournament=tournament, state__in=signups.LIVE).values_list(
        "pk", "state", "confirmed_at"
    )
    return [signups.Queued(pk, state, confirmed_at) for pk, state, confirmed_at in rows]


def waiting_position(signup: SignUp) -> int | None:
    return signups.waiting_position(queued(signup.tournament), signup.pk)


def waiting_positions(tournament: Tournament) -> dict[int, int]:
    """Each sign-up on the waiting list's place on it, from 1, by the sign-up's id."""
    order = signups.waiting_order(queued(tournament))
    return {queued.id: position for position, queued in enumerate(order, start=1)}


def counts(tournament: Tournament, rules: signups.Settings | None = None) -> dict[str, int | None]:
    """The sign-ups in each state and the places left (None: no limit), counted by the database (one row
    per state, however many have signed up); ``rules``: the registration's, when the caller has read them
    (``settings_from_row``)."""
    by_state = dict.fromkeys(signups.STATES, 0)
    rows = SignUp.objects.filter(tournament=tournament).order_by().values_list("state").annotate(Count("pk"))
    for state, count in rows:
        by_state[state] = count
    holding = sum(by_state[state] for state in signups.HOLDING)
    rules = settings_of(tournament) if rules is None else rules
    return {**by_state, "places_left": signups.places_left(rules, holding)}


def country_counts(tournament: Tournament) -> list[tuple[str, int]]:
    """The sign-ups still in the event (``LIVE``) by country code (empty: none given), by code."""
    live = SignUp.objects.filter(tournament=tournament, state__in=signups.LIVE)
    return sorted(Counter(str(code) for code in live.values_list("country", flat=True)).items())
