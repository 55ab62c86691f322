"""The organiser's announcement to a tournament's sign-ups (docs/tournament.md, "Registration by the
players"): one verb, one transaction, each recipient's message written in it and sent by the sign-up
messages' task once it commits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from tournament.core import signups
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import (
    SignUp,
    SignUpAnnouncement,
    SignUpMessage,
    StaffRole,
    Tournament,
)
from tournament.queries import access
from tournament.services import audit, signup_mail
from tournament.services.signups import locked_tournament

Role = StaffRole.Role


@transaction.atomic
def announce(
    tournament: Tournament, user: AbstractBaseUser, data: Mapping[str, Any], *, base_url: str = ""
) -> SignUpAnnouncement:
    """The organiser's announcement (``data``: ``subject``, ``text``, ``waiting_list``) to every registered
    sign-up, and the waiting list when chosen: one ``SignUpMessage`` per recipient written here, in the
    announcement's transaction, each sent once by the sign-up messages' task after it commits (none twice,
    none lost). Refused, naming the field, for a subject or text missing, too long or with a control
    character, and when nobody would receive it. Audited (``signup.announce``)."""
    access.require_role(user, tournament, Role.ORGANISER)
    announcement = signups.clean_announcement(dict(data))
    problems = signups.announcement_problems(announcement)
    if problems:
        raise Refusal.of(problems)
    tournament = locked_tournament(
        tournament
    )  # the recipients are those of this moment, as every change counts them
    states = signups.announced_states(announcement)
    recipients = list(
        SignUp.objects.filter(tournament=tournament, state__in=states)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not recipients:
        message = _("Nobody would receive this announcement: no sign-up is registered yet.")
        if announcement.waiting_list:
            message = _("Nobody would receive this announcement: no sign-up is registered or waiting.")
        raise Refusal("waiting_list", signups.RULE_NO_RECIPIENT, message, status=CONFLICT)
    row = SignUpAnnouncement.objects.create(
        tournament=tournament,
        subject=announcement.subject,
        text=announcement.text,
        waiting_list=announcement.waiting_list,
        created_by=user if user.is_authenticated else None,
    )
    base = (base_url or settings.SITE_URL)[:200]
    messages = SignUpMessage.objects.bulk_create(
        SignUpMessage(signup_id=pk, kind=signup_mail.ANNOUNCEMENT, announcement=row, base_url=base)
        for pk in recipients
    )
    ids = [message.pk for message in messages]
    audit.record(
        tournament,
        user,
        "signup.announce",
        f"announcement {row.subject}",
        {
            "announcement": row.pk,
            "subject": row.subject,
            "recipients": len(ids),
            "waiting_list": row.waiting_list,
        },
    )
    transaction.on_commit(lambda: [signup_mail.send_signup_message.delay(pk) for pk in ids])
    return row


def announcements(tournament: Tournament, limit: int = 10) -> list[dict[str, Any]]:
    """The latest announcements with how many messages each has and how many are sent, in one query."""
    rows = _counted(SignUpAnnouncement.objects.filter(tournament=tournament))
    return [
        {"announcement": row, "recipients": row.recipients, "sent": row.sent}
        for row in rows.order_by("-created_at", "-pk")[:limit]
    ]


def counts(row: SignUpAnnouncement) -> dict[str, int]:
    """One announcement's recipients and how many of them it is sent to (``_counted``)."""
    counted = _counted(SignUpAnnouncement.objects.filter(pk=row.pk)).get()
    return {"recipients": counted.recipients, "sent": counted.sent}


def _counted(rows: QuerySet[SignUpAnnouncement]) -> QuerySet[SignUpAnnouncement]:
    """``rows`` with their recipients and sent counted: the sign-ups each was written for, less those it
    no longer concerned by its turn (cancelled or rejected since: ``SignUpMessage.stale``)."""
    due = Q(messages__stale=False)
    return rows.annotate(
        recipients=Count("messages", filter=due),
        sent=Count("messages", filter=due & Q(messages__sent_at__isnull=False)),
    )
