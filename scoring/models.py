"""Score sheets: one per table per hanchan, checked by the rules engine, signed, corrected with history.

The checking lives in ``scoring.rules`` (plain Python); these models keep what was entered, the engine's
replay of it, the per-seat results the standings read, and every version of the sheet.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Seat, Table


class ScoreSheet(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted")
        SIGNED = "signed", _("Signed")
        # A player of the table disputed the entered result: a referee decides and signs.
        DISPUTED = "disputed", _("Disputed")

    class Form(models.TextChoices):
        FINAL = "final", _("Final points only")
        HANDS = "hands", _("Hand by hand")  # outcomes, point changes, or a mix, hand by hand

    # One sheet per table: the database refuses a second one, whoever submits it.
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="sheet")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    form = models.CharField(max_length=8, choices=Form.choices)
    # What the referee entered, in the rules engine's sheet format (players by name).
    entry = models.JSONField()
    # The rules engine's replay of the entry (final points, ranks, uma, scores, hand by hand).
    replay = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signed_at = models.DateTimeField(null=True, blank=True)
    # Entered by players (tournament entry mode ``players``): who submitted it, and when a player of the
    # table disputed it (from then on only referees change it).
    submitted_by_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table"]
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self) -> str:
        return f"Score sheet of {self.table} ({self.get_status_display().lower()})"

    @property
    def is_signed(self) -> bool:
        return self.status == self.Status.SIGNED

    @property
    def signed_by_table(self) -> bool:
        """Signed because the four players agreed with its current version (players' entry), no referee
        signing: ``signed_by`` is then empty, as it is for a referee whose account was deleted."""
        return self.signature is not None and self.signature.by_table

    @cached_property
    def signature(self) -> Signature | None:
        """Who signed the current version and when, as the history says (``current_signatures``)."""
        return current_signatures([self]).get(self.pk)


class SeatResult(models.Model):
    """One player's result on a sheet: what the standings add up (signed sheets only)."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="results")
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    points = models.IntegerField()
    # The place at a table of four (ties share the better place): 1 to 4.
    rank = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(4)])
    uma = models.DecimalField(max_digits=6, decimal_places=2)
    score = models.DecimalField(max_digits=8, decimal_places=2)

    class Meta:
        ordering = ["sheet", "seat__wind"]
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "player"], name="one_result_per_player_and_sheet")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points} ({self.score})"


class SheetVersion(models.Model):
    """Every state a sheet has been in, append-only: the sheet's full history for staff."""

    class Action(models.TextChoices):
        CREATED = "created", _("Created")
        UPDATED = "updated", _("Updated")
        SUBMITTED = "submitted", _("Submitted")
        SIGNED = "signed", _("Signed")
        CORRECTED = "corrected", _("Corrected after signing")
        DISPUTED = "disputed", _("Disputed by a player")
        CONFIRMED = "confirmed", _("Confirmed by the table")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=16, choices=Action.choices)
    status = models.CharField(max_length=16, choices=ScoreSheet.Status.choices)
    entry = models.JSONField()
    replay = models.JSONField()
    content_hash = models.CharField(max_length=64)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(blank=True)
    # The player who saved, submitted or disputed this version (players' entry), when no referee did.
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # A version read from an online game's log (``scoring.services.sheet_from_log``): where the online
    # game's rules differ from the tournament's, hand by hand (``scoring.rules.tenhou.Finding.as_json``),
    # an empty list when nowhere; None for a version entered by hand.
    findings = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["sheet", "at", "pk"]
        verbose_name = _("score sheet version")
        verbose_name_plural = _("score sheet versions")
        indexes = [models.Index(fields=["sheet", "version"])]

    def __str__(self) -> str:
        return f"{self.sheet} v{self.version} {self.action}"


class SheetConfirmation(models.Model):
    """A seated player's answer to one version of the sheet their table entered: agree or dispute.

    Only answers to the sheet's current version count; a new version leaves the earlier ones behind."""

    class Decision(models.TextChoices):
        AGREE = "agree", _("Agrees")
        DISPUTE = "dispute", _("Disputes")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField()
    decision = models.CharField(max_length=8, choices=Decision.choices)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sheet", "version", "at", "pk"]
        verbose_name = _("answer to a score sheet")
        verbose_name_plural = _("answers to score sheets")
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "player", "version"], name="one_answer_per_player_and_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.get_decision_display().lower()} with {self.sheet} v{self.version}"


class SubmissionKey(models.Model):
    """An ``Idempotency-Key`` of the sheet editor's save: the first answer to a save, kept so that a retry
    of the same request (a phone on bad Wi-Fi that never saw the answer) gets that answer again and
    never saves twice. Written in the same transaction as the save it answers."""

    key = models.CharField(max_length=64, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    # Who saved: a referee (``user``) or, when the players enter the results, a seated ``player``.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # SHA-256 of the request (entry, action, expected version): the same key with another body is refused.
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("idempotency key of a save")
        verbose_name_plural = _("idempotency keys of saves")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=True, player__isnull=False)
                | models.Q(user__isnull=False, player__isnull=True),
                name="submission_key_of_a_user_or_a_player",
            )
        ]

    def __str__(self) -> str:
        return f"Save {self.key} of {self.table} ({self.status})"


# The actions of the history that make a version the signed one: a referee's signature, a correction
# after signing (its author signs the new version) and the four players' agreement.
SIGNING_ACTIONS = (
    SheetVersion.Action.SIGNED,
    SheetVersion.Action.CORRECTED,
    SheetVersion.Action.CONFIRMED,
)


@dataclass(frozen=True)
class Signature:
    """The entry of a sheet's history that signed its current version: the one answer to "signed by
    whom, and when" for the sheet's page, the API and every export."""

    version: int
    # ``SheetVersion.Action``: signed (a referee), corrected (a head referee or organiser changed the
    # signed sheet) or confirmed (the four players agreed).
    action: str
    # The account; None for the table's agreement, and for an account deleted since.
    author: Any
    at: datetime | None

    @property
    def by_table(self) -> bool:
        return self.action == SheetVersion.Action.CONFIRMED

    @property
    def is_correction(self) -> bool:
        return self.action == SheetVersion.Action.CORRECTED

    @property
    def author_name(self) -> str | None:
        return self.author.get_username() if self.author is not None else None


def current_signatures(sheets: Iterable[ScoreSheet]) -> dict[int, Signature]:
    """The signature of each signed sheet's current version, by sheet id, read from the history in one
    query. The history, not the sheet's own ``signed_by`` and ``signed_at``, is the truth: it has the
    version's own author and time even for a sheet corrected before those fields followed corrections."""
    sheets = list(sheets)
    current = {sheet.pk: sheet.version for sheet in sheets if sheet.is_signed}
    if not current:
        return {}
    signatures: dict[int, Signature] = {}
    # A sheet read with its history already (``prefetch_related("versions")``, the API's) costs no query.
    prefetched = {
        sheet.pk: sheet._prefetched_objects_cache["versions"]
        for sheet in sheets
        if sheet.pk in current and "versions" in getattr(sheet, "_prefetched_objects_cache", {})
    }
    rows: list[SheetVersion] = [row for versions in prefetched.values() for row in versions]
    if len(prefetched) < len(current):
        rows += SheetVersion.objects.filter(
            sheet_id__in=[pk for pk in current if pk not in prefetched], action__in=SIGNING_ACTIONS
        ).select_related("author")
    rows.sort(key=lambda row: (row.at, row.pk))
    for row in rows:
        if row.action not in SIGNING_ACTIONS:
            continue
        if row.version == current[row.sheet_id]:  # the latest entry of the current version wins
            signatures[row.sheet_id] = Signature(row.version, row.action, row.author, row.at)
    for sheet in sheets:  # a signed sheet stored without its history (written directly): its own fields
        if sheet.pk in current and sheet.pk not in signatures:
            signatures[sheet.pk] = Signature(
                sheet.version, SheetVersion.Action.SIGNED, sheet.signed_by, sheet.signed_at
            )
    return signatures


def prefetch_signatures(sheets: Iterable[ScoreSheet]) -> None:
    """Reads the signatures of many sheets at once (one query) into each sheet's ``signature``."""
    sheets = list(sheets)
    signatures = current_signatures(sheets)
    for sheet in sheets:
        sheet.signature = signatures.get(sheet.pk)


def open_disputes(sheets: Iterable[ScoreSheet | None]) -> dict[int, SheetVersion]:
    """The dispute of each disputed sheet (the latest "disputed" entry of its history: the player and
    their reason), by sheet id, in one query."""
    disputed = [
        sheet.pk for sheet in sheets if sheet is not None and sheet.status == ScoreSheet.Status.DISPUTED
    ]
    if not disputed:
        return {}
    rows = SheetVersion.objects.filter(sheet_id__in=disputed, action=SheetVersion.Action.DISPUTED)
    return {row.sheet_id: row for row in rows.select_related("player").order_by("at", "pk")}
