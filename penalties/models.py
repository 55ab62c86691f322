"""Point penalties, taken off a player's overall score, never off the table score (WRCR 2015 §7.1).

Nothing is deleted: a penalty given in error is revoked, which keeps who revoked it, when and why.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Round, Tournament


class Penalty(models.Model):
    class Kind(models.TextChoices):
        CHOMBO = "chombo", _("Chombo")  # WRCR 2015 §7.1: 20 points
        LATENESS = "lateness", _("Lateness")  # WRCR 2015 §7.2: 1 point a minute, up to 10
        MISSED_HANCHAN = "missed_hanchan", _("Missed hanchan")  # WRCR 2015 §7.2: 30 points
        OBSTRUCTION = "obstruction", _("Obstruction")
        INFORMATION = "information", _("Passing information")
        PHONE = "phone", _("Phone")
        OTHER = "other", _("Other")

    # Kinds whose amount is the referee's decision (WRCR 2015 §7.1), with a reason required.
    DISCRETIONARY = {Kind.OBSTRUCTION, Kind.INFORMATION, Kind.PHONE, Kind.OTHER}

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    points = models.DecimalField(
        max_digits=7, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    minutes_late = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True)
    # Set for a chombo recorded on a score sheet (hand number on that sheet).
    sheet = models.ForeignKey(
        "scoring.ScoreSheet", null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoke_reason = models.TextField(blank=True)
    # A missed-hanchan penalty revoked because the check-in that booked it was taken back: it never
    # stands in the way of booking it again (a head referee's revocation does).
    revoked_with_check_in = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "given_at"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        indexes = [models.Index(fields=["tournament", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.player}: -{self.points} ({self.get_kind_display()})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def shown_reason(self) -> str:
        """The reason in the reader's language: a chombo a score sheet gave is described anew from its
        sheet, hand and hanchan (``reason`` keeps the record's words, in the tournament's language); any
        other reason is the words of the referee who gave it."""
        if self.kind == self.Kind.CHOMBO and self.sheet_id is not None and self.round_id is not None:
            return chombo_reason(self.hand, self.sheet.table.number, self.round.number)
        return self.reason


def chombo_reason(hand: int | None, table: int, hanchan: int) -> str:
    """The reason of a chombo recorded on a score sheet, in the active language (hand None: a final-points
    sheet, which numbers no hand)."""
    if hand:
        return gettext("chombo on hand {hand} of table {table}, hanchan {hanchan}").format(
            hand=hand, table=table, hanchan=hanchan
        )
    return gettext("chombo on the sheet of table {table}, hanchan {hanchan}").format(
        table=table, hanchan=hanchan
    )


class Disqualification(models.Model):
    """WRCR 2015 §7.1: a disqualified player leaves the ranking; the tables played stay as they are."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="disqualification")
    reason = models.TextField()
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("disqualification")
        verbose_name_plural = _("disqualifications")

    def __str__(self) -> str:
        return f"{self.player} disqualified"
