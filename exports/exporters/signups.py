"""The sign-ups of a tournament whose players sign up themselves (docs/tournament.md, "Registration by
the players"): every sign-up, whatever its state, with its place on the waiting list, its names in Latin
letters and in their own script, country, club, EMA number, email, nicknames, note, whether it is paid
and when it was confirmed (the venue's time: the task renders in it). For organisers only: it holds the
players' emails, as the organisers' sign-ups page does.

Rows in the order of the states (``tournament.core.signups.STATES``), then of the waiting list (its place),
then of confirmation. Text is written as text (a note of ``=HYPERLINK(...)`` stays a note:
``exports.exporters.base``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries

from exports.exporters.base import (
    DATETIME_FORMAT,
    INTEGER_FORMAT,
    Column,
    ListExporter,
    Progress,
    Sheet,
    register,
)
from tournament.core import signups as rules
from tournament.models import SignUp, StaffRole, Tournament


@register
class SignUpsExporter(ListExporter):
    name = "signups"
    title = gettext_lazy("Sign-ups")
    position = 45
    permission = StaffRole.Role.ORGANISER
    description = gettext_lazy(
        "Every sign-up with its state, place on the waiting list, names, country, club, EMA number, "
        "email, nicknames, note, payment and confirmation time (it holds the players' emails)."
    )

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        rows = list(SignUp.objects.filter(tournament=tournament).order_by("confirmed_at", "pk"))
        queued = [rules.Queued(s.pk, s.state, s.confirmed_at) for s in rows if s.state in rules.LIVE]
        positions = {q.id: place for place, q in enumerate(rules.waiting_order(queued), start=1)}
        names = dict(countries)
        states = dict(SignUp.State.choices)
        order = {state: index for index, state in enumerate(rules.STATES)}
        rows.sort(key=lambda s: (order.get(s.state, len(order)), positions.get(s.pk, 0)))
        progress(0.5)
        yes = _("yes")

        def cells() -> Iterator[list[Any]]:
            for signup in rows:
                code = signup.country.code or ""
                yield [
                    str(states.get(signup.state, signup.state)),
                    positions.get(signup.pk),
                    signup.last_name,
                    signup.first_name,
                    signup.native_name,
                    str(names.get(code, code)) if code else "",
                    signup.club,
                    signup.ema_id,
                    signup.email,
                    signup.nicknames,
                    signup.note,
                    yes if signup.paid else "",
                    signup.confirmed_at,
                ]

        yield Sheet(
            _("Sign-ups"),
            [
                Column(_("State"), 18),
                Column(_("Waiting list"), 12, INTEGER_FORMAT),
                Column(_("Last name"), 22),
                Column(_("First name"), 22),
                Column(_("Name in its own script"), 22),
                Column(_("Country"), 18),
                Column(_("Club"), 22),
                Column(_("EMA number"), 12),
                Column(_("Email"), 30),
                Column(_("Nicknames"), 20),
                Column(_("Note"), 40),
                Column(_("Paid"), 8),
                Column(_("Confirmed"), 18, DATETIME_FORMAT),
            ],
            cells(),
            key="signups",
        )
