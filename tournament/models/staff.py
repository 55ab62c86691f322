"""The staff roles, the audit of every change, and each account's language."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Tournament


class StaffRole(models.Model):
    """A user's role in one tournament, granted by its organisers."""

    class Role(models.TextChoices):
        REFEREE = "referee", _("Referee")
        HEAD_REFEREE = "head_referee", _("Head referee")
        ORGANISER = "organiser", _("Organiser")

    # Each role can do what the roles before it can.
    RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["tournament", "role", "user"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user_and_tournament")
        ]

    def __str__(self) -> str:
        return f"{self.user} - {self.get_role_display()} of {self.tournament}"


class AuditEntry(models.Model):
    """One change an organiser made to the people of a tournament (players, staff): who, when, what.

    Append-only; shown on the organiser's pages. Score sheets and penalties keep their own history
    (``SheetVersion``, revocations).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)  # e.g. player.update, player.remove, staff.invite
    subject = models.CharField(max_length=200)  # whom it is about, in words: "player Ana Alves"
    # What changed: field -> [before, after]; or what was removed or created.
    changes = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["tournament", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action} {self.subject}"

    @property
    def action_label(self) -> str:
        """The action in the reader's language (the stored ``action`` is an identifier; one not listed
        in ``AUDIT_ACTIONS`` is shown as it is)."""
        label = AUDIT_ACTIONS.get(self.action)
        return str(label) if label is not None else self.action

    @property
    def subject_label(self) -> str:
        """The subject in the reader's language. Subjects are stored as English words around a name or a
        number ("player Ana Alves", "hanchan 3"), the forms ``tournament.services`` writes; those forms
        are shown translated, any other subject as it was stored."""
        for pattern, message in AUDIT_SUBJECTS:
            found = pattern.fullmatch(self.subject)
            if found is not None:
                return str(message) % found.groupdict()
        return self.subject

    @property
    def shown_changes(self) -> list[tuple[str, list[Any]]]:
        """(field in words, [before, after]) of each change; a removal's snapshot is not listed."""
        shown = []
        for name, values in self.changes.items():
            if name == "removed" or not isinstance(values, list) or len(values) != 2:
                continue
            label = AUDIT_FIELDS.get(name)
            if name == "role":
                roles = dict(StaffRole.Role.choices)
                values = [roles.get(value, value) if value else value for value in values]
            shown.append((str(label) if label is not None else name, values))
        return shown


# The audited actions (``AuditEntry.action``) and fields, in words.
AUDIT_ACTIONS = {
    "player.update": _("Registration corrected"),
    "player.remove": _("Registration removed"),
    "player.credentials": _("New PIN and sign-in link"),
    "staff.grant": _("Role given"),
    "staff.remove": _("Role removed"),
    "staff.invite": _("Account invited"),
    "standings.reveal": _("Standings revealed"),
    "standings.hide": _("Standings hidden again"),
    "seating.apply": _("Re-seating applied"),
    "seating.publish": _("Seating published"),
    "seating.unpublish": _("Seating unpublished"),
    "seating.reseat_winds": _("Winds re-seated from the game log"),
    "phases.set": _("Phases set"),
    "phases.cut": _("Cut made"),
    "phases.call_up": _("Player called up"),
    "phases.seat_by_rank": _("Seated by rank"),
    "person.link": _("Linked to a person"),
    "person.split": _("Split from a person"),
    "person.merge": _("Persons merged"),
    "club.form_table": _("Table formed"),
    "club.take_back_table": _("Table taken back"),
}
AUDIT_FIELDS = {
    "name": _("name"),
    "first_name": _("first name"),
    "last_name": _("last name"),
    "native_name": _("name in its own script"),
    "country": _("country"),
    "club": _("club"),
    "ema_id": _("EMA id"),
    "team": _("team"),
    "is_substitute": _("substitute"),
    "role": _("role"),
    "person": _("person"),
}
AUDIT_SUBJECTS = (
    (re.compile(r"player (?P<name>.+)"), _("player %(name)s")),
    (re.compile(r"user (?P<name>.+)"), _("user %(name)s")),
    (re.compile(r"players of hanchan (?P<number>\d+)"), _("players of hanchan %(number)s")),
    (re.compile(r"hanchan (?P<number>\d+)"), _("hanchan %(number)s")),
    (re.compile(r"hanchan (?P<first>\d+) to (?P<last>\d+)"), _("hanchan %(first)s to %(last)s")),
    (re.compile(r"the hidden hanchan"), _("the hidden hanchan")),
    (re.compile(r"the phases"), _("the phases")),
)


class AccountLanguage(models.Model):
    """The language a signed-in person chose with the switcher, kept with their account, so that it
    follows them to another device (docs/languages.md). A player signed in with a PIN has no account:
    their choice stays with their phone's cookie."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="language_choice",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    chosen_at = models.DateTimeField(_("chosen at"), auto_now=True)

    class Meta:
        verbose_name = _("account language")
        verbose_name_plural = _("account languages")

    def __str__(self) -> str:
        return f"{self.user} reads {self.language}"
