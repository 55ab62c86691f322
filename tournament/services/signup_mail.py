"""The messages of players' sign-ups, by email, sent in the background (a Celery task, in process when
no broker is configured) once the change that causes them commits: the confirmation link, the reminder
to an email already signed up, registered, awaiting approval, the waiting-list position, promoted,
cancelled, rejected. Each in the player's language, plain text plus HTML, with the player's own link
(see and cancel). The task receives the sign-up's id and the message's kind; the links are made again
from the sign-up's token seed (``tournament.services.signups``)."""

from __future__ import annotations

import hashlib
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournament import signups
from tournament.models import SignUp

CONFIRM = "confirm"
KNOWN = "known"
REGISTERED = signups.REGISTERED
AWAITING_APPROVAL = signups.AWAITING_APPROVAL
WAITING_LIST = signups.WAITING_LIST
PROMOTED = "promoted"
CANCELLED = signups.CANCELLED
REJECTED = signups.REJECTED
KINDS = (CONFIRM, KNOWN, REGISTERED, AWAITING_APPROVAL, WAITING_LIST, PROMOTED, CANCELLED, REJECTED)


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
    }
    return subjects[kind].format(tournament=tournament)


def message(signup: SignUp, kind: str, base_url: str) -> EmailMultiAlternatives:
    """The message of this kind for this sign-up, in its language."""
    tournament = signup.tournament
    slug = tournament.slug
    position = None
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
        }
        text = render_to_string("email/signup.txt", context)
        html = render_to_string("email/signup.html", context)
        subject = _subject(kind, tournament.name)
    mail = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [signup.email])
    mail.attach_alternative(html, "text/html")
    return mail


def send(signup_id: int, kind: str, base_url: str) -> bool:
    signup = SignUp.objects.select_related("tournament").filter(pk=signup_id).first()
    if signup is None or kind not in KINDS:
        return False
    if kind == CONFIRM and signup.confirm_token_hash is None:  # confirmed meanwhile: nothing to confirm
        return False
    if kind == WAITING_LIST and signup.state != signups.WAITING_LIST:  # promoted or cancelled meanwhile
        return False
    message(signup, kind, base_url).send()
    return True


@shared_task(name="tournament.send_signup_message", acks_late=True, ignore_result=True)
def send_signup_message(signup_id: int, kind: str, base_url: str) -> bool:
    return send(signup_id, kind, base_url)
