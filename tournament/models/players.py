"""Players (a tournament's registrations), the persons they are across tournaments, their sign-in
links."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.models.event import Tournament

EMA_ID_VALIDATOR = RegexValidator(r"^\d{8}$", _("An EMA id is exactly 8 digits (EMA ranking rules)."))


class Person(models.Model):
    """One person across tournaments: the site-wide identity each registration (``Player``) may link to
    (``tournament.core.persons``: by EMA id at once, otherwise as the organiser confirms). The name, the name
    in its own script and the country are those of the registration that made the person."""

    name = models.CharField(_("name"), max_length=120)
    native_name = models.CharField(_("name in its own script"), max_length=120, blank=True)
    country = CountryField(_("country"), blank=True)
    ema_id = models.CharField(_("EMA id"), max_length=8, blank=True, validators=[EMA_ID_VALIDATOR])
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["ema_id"], condition=~models.Q(ema_id=""), name="unique_person_ema_id"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:person", kwargs={"person_id": self.pk})


class Player(models.Model):
    """A registered player, or (``is_substitute``) one of the tournament's substitutes, never ranked."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="players", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=120)  # as shown everywhere; unique in the tournament
    # The parts of the name for the EMA results file and the like, and the name in its own script.
    first_name = models.CharField(_("first name"), max_length=120, blank=True)
    last_name = models.CharField(_("last name"), max_length=120, blank=True)
    native_name = models.CharField(_("name in its own script"), max_length=120, blank=True)
    country = CountryField(_("country"), blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    ema_id = models.CharField(_("EMA id"), max_length=8, blank=True, validators=[EMA_ID_VALIDATOR])
    team = models.CharField(_("team"), max_length=120, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.REGISTERED)
    # WRCR 2015 §7.2: substitutes play normally at the table and are not included in the ranking.
    is_substitute = models.BooleanField(_("substitute"), default=False)
    # WRCR 2015 §7.1: a disqualified player is not listed in the ranking (the tables played stay).
    disqualified = models.BooleanField(_("disqualified"), default=False)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # Withdrawn players: the first hanchan they miss (tournament.participation).
    withdrawn_from = models.PositiveSmallIntegerField(_("withdrawn from hanchan"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    # The player's 6-digit PIN for signing in without an account, hashed (tournament.services.player_login);
    # empty until the first one is issued.
    pin_hash = models.CharField(max_length=128, blank=True, default="", db_default="", editable=False)
    credentials_issued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The same person in other tournaments (tournament.services.persons); none until matched.
    person = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registrations",
        verbose_name=_("person"),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["tournament", "is_substitute", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "ema_id"],
                condition=~models.Q(ema_id=""),
                name="unique_ema_id_per_tournament",
            ),
            # Score sheets name the players at a table: names are unique within a tournament.
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_player_name_per_tournament"),
            # One person plays once in a tournament (tournament.services.persons).
            models.UniqueConstraint(
                fields=["tournament", "person"],
                condition=models.Q(person__isnull=False),
                name="one_registration_per_person_per_tournament",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return gettext("%(name)s (substitute)") % {"name": self.name} if self.is_substitute else self.name

    @property
    def is_ranked(self) -> bool:
        return not self.is_substitute and not self.disqualified


class PlayerLoginLink(models.Model):
    """A one-time link that signs a browser in as a player (printed as a QR code on the seating card).

    Only the SHA-256 of the link's random token is stored; the link works once, until ``expires_at``, and
    stops working when the player is issued new credentials (the unused links are deleted)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="login_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("sign-in link")
        verbose_name_plural = _("sign-in links")
        ordering = ["player", "created_at"]

    def __str__(self) -> str:
        return f"Login link of {self.player} ({'used' if self.used_at else 'unused'})"
