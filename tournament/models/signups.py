"""Players signing up themselves: the registration's settings, the sign-ups and their messages."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.models.event import Tournament
from tournament.models.players import EMA_ID_VALIDATOR, Player


class RegistrationSettings(models.Model):
    """How players sign up themselves for a tournament (``tournament.core.signups``): when registration opens
    and closes (moments, entered and shown in the venue's time zone), the places, the organiser's approval,
    a waiting list, the entry fee shown (paid at the venue or elsewhere: staff mark it) and the consent text
    every player accepts. No row, or no opening moment: players do not sign up themselves."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="registration_settings"
    )
    opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    capacity = models.PositiveIntegerField(
        _("places"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(10000)]
    )
    needs_approval = models.BooleanField(_("the organiser approves each sign-up"), default=False)
    waiting_list = models.BooleanField(_("waiting list when full"), default=True)
    entry_fee = models.CharField(_("entry fee"), max_length=200, blank=True)
    consent_text = models.TextField(_("consent text"), blank=True)
    online = models.BooleanField(_("played online (ask for nicknames)"), default=False)
    accept_hours = models.PositiveIntegerField(
        _("hours to accept a place from the waiting list"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(720)],
        help_text=_(
            "Empty: a place that frees goes at once to the first on the waiting list. Set: it is offered, "
            "and passes to the next when not accepted in time."
        ),
    )

    # What the organiser sets (the settings form, the API's PATCH, ``services.signups.configure``).
    EDITABLE = (
        "opens_at",
        "closes_at",
        "capacity",
        "needs_approval",
        "waiting_list",
        "entry_fee",
        "consent_text",
        "online",
        "accept_hours",
    )

    class Meta:
        verbose_name = _("registration settings")
        verbose_name_plural = _("registration settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(opens_at__isnull=True)
                | models.Q(closes_at__isnull=True)
                | models.Q(closes_at__gt=models.F("opens_at")),
                name="registration_closes_after_it_opens",
            )
        ]

    def __str__(self) -> str:
        return f"Registration of {self.tournament}"


class SignUp(models.Model):
    """One player's sign-up, made by the player on the public page (``tournament.core.signups`` has its states
    and rules). Only the SHA-256 of each token is stored: the one-time confirmation link's (spent when
    followed) and the player's own link to see and cancel the sign-up; each with its expiry. ``player`` is the
    registration the sign-up became ("turn the registered into players")."""

    class State(models.TextChoices):  # the values of tournament.signups.STATES
        UNCONFIRMED = "unconfirmed", _("unconfirmed")
        REGISTERED = "registered", _("registered")
        AWAITING_APPROVAL = "awaiting_approval", _("awaiting approval")
        OFFERED = "offered", _("offered a place")
        WAITING_LIST = "waiting_list", _("waiting list")
        CANCELLED = "cancelled", _("cancelled")
        REJECTED = "rejected", _("rejected")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups")
    last_name = models.CharField(_("last name"), max_length=60)
    first_name = models.CharField(_("first name"), max_length=60)
    native_name = models.CharField(_("name in its own script"), max_length=60, blank=True)
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    ema_id = models.CharField(_("EMA id"), max_length=8, blank=True, validators=[EMA_ID_VALIDATOR])
    email = models.EmailField(_("email"), max_length=254)
    nicknames = models.CharField(_("online nicknames"), max_length=120, blank=True)
    note = models.TextField(_("note"), blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    consent_at = models.DateTimeField(_("consent given"))
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.UNCONFIRMED)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    paid = models.BooleanField(_("paid"), default=False)
    # An offered place (state ``offered``) may be accepted until then; the sweep passes it on after.
    offer_expires_at = models.DateTimeField(_("offer open until"), null=True, blank=True)
    confirm_token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    confirm_expires_at = models.DateTimeField(null=True, blank=True)
    # The random seed both tokens are made from with the site's SECRET_KEY (``salted_hmac``), so that a
    # later message (a promotion) carries the player's link again; the database alone gives neither.
    token_seed = models.CharField(max_length=32)
    manage_token_hash = models.CharField(max_length=64, unique=True)
    manage_expires_at = models.DateTimeField()
    player = models.OneToOneField(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="signup"
    )

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "email"],
                condition=models.Q(
                    state__in=["unconfirmed", "registered", "awaiting_approval", "offered", "waiting_list"]
                ),
                name="one_live_signup_per_email",
            )
        ]
        indexes = [models.Index(fields=["tournament", "state", "confirmed_at"])]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.state})"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class SignUpAnnouncement(models.Model):
    """An organiser's message to a tournament's sign-ups (``tournament.services.announcements.announce``): the
    subject and text as written, to the registered and, when chosen, the waiting list; each recipient's
    message is a ``SignUpMessage`` written in the same transaction."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    subject = models.CharField(_("subject"), max_length=150)
    text = models.TextField(_("text"))
    waiting_list = models.BooleanField(_("the waiting list too"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.subject


class SignUpMessage(models.Model):
    """One message a sign-up's change causes (``tournament.services.signup_mail``), written in that
    change's own transaction, so it exists exactly when the change does; ``sent_at`` once the mail
    server accepted it. A task delivered twice (a worker lost after sending, before its
    acknowledgement) finds the message sent and sends nothing; two workers sending it at once are
    served one after the other, the row locked while the first sends."""

    signup = models.ForeignKey(SignUp, on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(max_length=20)
    # The organiser's announcement this message carries (kind ``announcement``).
    announcement = models.ForeignKey(
        SignUpAnnouncement, on_delete=models.CASCADE, null=True, blank=True, related_name="messages"
    )
    base_url = models.CharField(max_length=200, blank=True)
    queued_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Marked sent without being sent: by its turn it said what was no longer so (a confirmation link to
    # someone confirmed meanwhile, a place offered to someone no longer offered it, an announcement to
    # someone who cancelled since). Counted neither among an announcement's recipients nor its sent.
    stale = models.BooleanField(default=False)

    class Meta:
        ordering = ["queued_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} to sign-up {self.signup_id}"
