"""The messages of players' sign-ups, by email, sent in the background (a Celery task, in process when
no broker is configured) once the change that causes them commits: the confirmation link, the reminder
to an email already signed up, registered, awaiting approval, the waiting-list position, promoted,
cancelled, rejected, and the organiser's announcements. Each in the player's language, plain text plus
HTML, with the player's own link (see and cancel). Each message is logged (``SignUpMessage``) in the
transaction of the change that causes it and sent once: the task receives the log's id, and a second
delivery of it (a worker lost after sending) finds the message sent. The links are made again from the
sign-up's token seed (``tournament.services.signups``). A worker lost after the mail server accepted a
message and before the log says so sends it again on redelivery: at least once, as no mail server
takes a message twice as one."""

from __future__ import annotations

import hashlib
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournament.core import signups
from tournament.models import SignUp, SignUpAnnouncement, SignUpMessage

CONFIRM = "confirm"
KNOWN = "known"
REGISTERED = signups.REGISTERED
AWAITING_APPROVAL = signups.AWAITING_APPROVAL
WAITING_LIST = signups.WAITING_LIST
PROMOTED = "promoted"
CANCELLED = signups.CANCELLED
REJECTED = signups.REJECTED
ANNOUNCEMENT = "announcement"  # the organiser's own subject and text, in the frame of the player's language
OFFERED = signups.OFFERED  # a place offered, to accept before its deadline
OFFER_EXPIRED = "offer_expired"  # not accepted in time: the place passed to the next
KINDS = (
    OFFERED,
    OFFER_EXPIRED,
    CONFIRM,
    KNOWN,
    REGISTERED,
    AWAITING_APPROVAL,
    WAITING_LIST,
    PROMOTED,
    CANCELLED,
    REJECTED,
    ANNOUNCEMENT,
)


def token(signup: SignUp, purpose: str) -> str:
    """The sign-up's confirmation (``confirm``) or own (``manage``) token: an HMAC of its seed under the
    site's SECRET_KEY; only its SHA-256 is stored."""
    return salted_hmac(f"signup-{purpose}", f"{signup.pk}:{signup.token_seed}").hexdigest()


def token_hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _subject(kind: str, tournament: str) -> str:
    subjects = {
        CONFIRM: _("Confirm your sign-up for {tournament}"),
        KNOWN: _("Your sign-up for {tournament}"),
        REGISTERED: _("You are registered for {tournament}"),
        AWAITING_APPROVAL: _("Your sign-up for {tournament} awaits the organiser's approval"),
        WAITING_LIST: _("You are on the waiting list of {tournament}"),
        PROMOTED: _("A place is yours at {tournament}"),
        CANCELLED: _("Your sign-up for {tournament} is cancelled"),
        REJECTED: _("Your sign-up for {tournament} was not accepted"),
        OFFERED: _("A place is offered to you at {tournament}: accept it in time"),
        OFFER_EXPIRED: _("The place offered to you at {tournament} has passed to the next"),
    }
    return subjects[kind].format(tournament=tournament)


def message(
    signup: SignUp, kind: str, base_url: str, announcement: SignUpAnnouncement | None = None
) -> EmailMultiAlternatives:
    """The message of this kind for this sign-up, in its language (an ``announcement``: the organiser's
    subject and text as written, in the frame of that language: the greeting and the player's link; the
    HTML escapes the text, so it shows as typed and holds no markup of the organiser's)."""
    tournament = signup.tournament
    slug = tournament.slug
    position = None
    deadline = ""
    if kind == OFFERED and signup.offer_expires_at is not None:
        with translation.override(signup.language), timezone.override(tournament.zone()):
            local = timezone.localtime(signup.offer_expires_at)
            deadline = f"{date_format(local, 'DATETIME_FORMAT')} ({tournament.time_zone})"
    if kind in (WAITING_LIST, PROMOTED, REGISTERED, AWAITING_APPROVAL):
        rows = SignUp.objects.filter(tournament=tournament, state__in=signups.LIVE).values_list(
            "pk", "state", "confirmed_at"
        )
        position = signups.waiting_position([signups.Queued(*row) for row in rows], signup.pk)
    with translation.override(signup.language):
        context: dict[str, Any] = {
            "kind": kind,
            "signup": signup,
            "tournament": tournament,
            "position": position,
            "state": signup.get_state_display(),
            "manage_url": base_url
            + reverse("tournament:signup_manage", args=[slug, token(signup, "manage")]),
            "confirm_url": base_url
            + reverse("tournament:signup_confirm", args=[slug, token(signup, "confirm")])
            if kind == CONFIRM
            else "",
            "hours": 48,
            "announcement": announcement,
            "deadline": deadline,
        }
        text = render_to_string("email/signup.txt", context)
        html = render_to_string("email/signup.html", context)
        if kind == ANNOUNCEMENT and announcement is not None:
            subject = announcement.subject
        else:
            subject = _subject(kind, tournament.name)
    mail = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [signup.email])
    mail.attach_alternative(html, "text/html")
    return mail


def send(message_id: int) -> bool:
    """Send the logged message once: its row is locked while it is sent and marked sent after, so a
    second delivery of the task sends nothing. Whether it was sent now."""
    with transaction.atomic():
        row = (
            SignUpMessage.objects.select_for_update(of=("self",))
            .select_related("signup__tournament", "announcement")
            .filter(pk=message_id, sent_at=None)
            .first()
        )
        if row is None:  # sent already, or its sign-up removed
            return False
        signup, kind = row.signup, row.kind
        if kind not in KINDS:
            return False
        # Said no longer: confirmed meanwhile (nothing to confirm), promoted or cancelled meanwhile.
        # An announcement to someone who cancelled (or was rejected) since is no longer theirs.
        stale = (
            (kind == CONFIRM and signup.confirm_token_hash is None)
            or (kind == WAITING_LIST and signup.state != signups.WAITING_LIST)
            or (kind == OFFERED and signup.state != signups.OFFERED)
            or (kind == ANNOUNCEMENT and (row.announcement is None or signup.state not in signups.LIVE))
        )
        if not stale:
            message(signup, kind, row.base_url, row.announcement).send()
        row.sent_at = timezone.now()
        row.stale = stale
        row.save(update_fields=["sent_at", "stale"])
        return not stale


@shared_task(name="tournament.send_signup_message", acks_late=True, ignore_result=True)
def send_signup_message(message_id: int) -> bool:
    return send(message_id)
