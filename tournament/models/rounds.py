"""The hanchan of a tournament: its phases, rounds, tables and seats, the absences, and the background
seating jobs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.core.clock import Clock
from tournament.core.phases import PhasePlan
from tournament.models.event import Tournament
from tournament.models.players import Player


class Phase(models.Model):
    """One phase of a tournament in phases (``tournament.core.phases``): its hanchan, seating method, and from
    the second on the cut before it and the carry-over into it. A tournament without phases is one."""

    class Seating(models.TextChoices):  # the values of tournament.phases.SEATINGS
        OPTIMISED = "optimised", _("The optimised schedule")
        SWISS = "swiss", _("Swiss, from the standings")
        BY_RANK = "by_rank", _("Fixed tables by rank (best four at table 1)")

    class CarryOver(models.TextChoices):  # the values of tournament.phases.CARRY_OVERS
        KEEP = "keep", _("Keep the total")
        HALVE = "halve", _("Halve the total")
        RESET = "reset", _("Reset to zero")
        RANK = "rank", _("Reset to zero, the rank breaking ties")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    hanchan = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(40)])
    seating = models.CharField(max_length=16, choices=Seating.choices, default=Seating.OPTIMISED)
    carry_over = models.CharField(max_length=16, choices=CarryOver.choices, default=CarryOver.KEEP)
    # How many players the cut before this phase keeps (none for the first phase).
    advance = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("phase")
        verbose_name_plural = _("phases")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_phase_number")]

    def __str__(self) -> str:
        return f"{self.tournament} - {self.name}"

    def plan(self) -> PhasePlan:
        return PhasePlan(
            name=self.name,
            hanchan=self.hanchan,
            seating=self.seating,  # type: ignore[arg-type]
            carry_over=self.carry_over,  # type: ignore[arg-type]
            advance=self.advance,
        )


class PhaseEntry(models.Model):
    """A player of a phase after its cut: the rank they brought (``seed``), and, for a player called up,
    whom they replace; a player who leaves before the phase starts is marked, not deleted."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="phase_entries")
    seed = models.PositiveSmallIntegerField()
    replaces = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_in_phases"
    )
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player of a phase")
        verbose_name_plural = _("players of a phase")
        ordering = ["phase", "seed", "left_at"]
        constraints = [models.UniqueConstraint(fields=["phase", "player"], name="one_entry_per_phase")]

    def __str__(self) -> str:
        return f"{self.player} in {self.phase.name} (seed {self.seed})"

    @property
    def active(self) -> bool:
        return self.left_at is None


class Round(models.Model):
    """One hanchan of the tournament, played at the same time at every table."""

    class Status(models.TextChoices):
        PLANNED = "planned", pgettext_lazy("hanchan status", "Planned")
        SEATED = "seated", pgettext_lazy("hanchan status", "Seated")
        STARTED = "started", pgettext_lazy("hanchan status", "Started")
        FINISHED = "finished", pgettext_lazy("hanchan status", "Finished")

    class Mode(models.TextChoices):
        GENERATED = "generated", _("Generated schedule")
        SWISS = "swiss", _("Swiss (by standings)")
        BY_RANK = "by_rank", _("Fixed tables by rank")
        # A club session's table, formed at the venue (tournament.services.club): one table a hanchan.
        CLUB = "club", _("Formed at the venue")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PLANNED)
    mode = models.CharField(_("seating mode"), max_length=16, choices=Mode.choices, default=Mode.GENERATED)
    # When the organiser published this hanchan's seating (tournaments that publish hanchan by hanchan).
    published_at = models.DateTimeField(null=True, blank=True)
    # The hanchan clock (tournament.clock.Clock): state, end time while running, seconds left otherwise.
    clock_state = models.CharField(max_length=8, default="stopped")
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_remaining = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = _("hanchan")
        verbose_name_plural = _("hanchan")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.tournament} - hanchan {self.number}"

    @property
    def has_started(self) -> bool:
        return self.status in {self.Status.STARTED, self.Status.FINISHED}

    @property
    def seating_is_public(self) -> bool:
        """Whether the public sees this hanchan's seating (its staff always do)."""
        publication = self.tournament.seating_publication
        return publication == Tournament.SeatingPublication.ALL or self.published_at is not None

    def clock(self) -> Clock:
        if self.clock_remaining is None:
            return Clock.stopped(self.tournament.hanchan_minutes)
        return Clock(state=self.clock_state, ends_at=self.clock_ends_at, remaining=self.clock_remaining)  # type: ignore[arg-type]

    def set_clock(self, clock: Clock) -> None:
        self.clock_state, self.clock_ends_at, self.clock_remaining = (
            clock.state,
            clock.ends_at,
            clock.remaining,
        )


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Extra minutes on the hanchan clock for this table only (e.g. after a long ruling).
    extra_minutes = models.SmallIntegerField(default=0)
    # A club session's table formed by a player (tournament.club): who may take it back for a while.
    formed_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"{self.round} - table {self.number}"


class Seat(models.Model):
    class Wind(models.IntegerChoices):
        EAST = 0, pgettext_lazy("seat wind", "East")
        SOUTH = 1, pgettext_lazy("seat wind", "South")
        WEST = 2, pgettext_lazy("seat wind", "West")
        NORTH = 3, pgettext_lazy("seat wind", "North")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised from the table so that the database refuses a player seated twice in one hanchan.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    wind = models.PositiveSmallIntegerField(_("seat wind"), choices=Wind.choices)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    # The player the seating scheduled here, when a substitute sits in their place (WRCR §7.2).
    replaces = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_in_seats"
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["table", "wind"], name="unique_seat_wind"),
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.get_wind_display()}: {self.player}"


class SeatingJob(models.Model):
    """A seating generation run in the background, with its progress and quality report."""

    class State(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("job state", "Queued")
        RUNNING = "running", pgettext_lazy("job state", "Running")
        DONE = "done", pgettext_lazy("job state", "Done")
        FAILED = "failed", pgettext_lazy("job state", "Failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="seating_jobs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    # The first round number the job (re)generates; earlier rounds are kept as they are.
    from_round = models.PositiveSmallIntegerField(default=1)
    seed = models.IntegerField(default=0)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    progress = models.FloatField(default=0.0)
    report = models.JSONField(default=dict, blank=True)
    # Fill the last table with substitutes, or let the last players to check in sit out.
    prefer = models.CharField(max_length=16, default="substitutes")
    # A re-seating of hanchan already seated is a proposal until the organiser confirms it: the tables of
    # each hanchan from ``from_round`` on (player ids, East to North), the report of the seating it
    # replaces, and when it was applied (None: not yet; a first seating is applied at once).
    proposal = models.JSONField(default=list, blank=True)
    before_report = models.JSONField(default=dict, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    # A re-seating offers two proposals side by side (``tournament.services.seating``): "fewest_moves" (the
    # published seats kept where possible) and "best_schedule" (a full re-optimisation), each with its
    # tables, report, players moved, joining and sitting out per hanchan; and the proven lower bound on
    # moves. ``proposal`` and ``report`` above hold the default, fewest moves; ``choice`` the one applied.
    alternatives = models.JSONField(default=dict, blank=True)
    # The two proposals of a re-seating, the first the default: the published seats kept where possible,
    # or a full re-optimisation of the remaining hanchan (``choice`` holds the one put in place).
    PROPOSALS = ("fewest_moves", "best_schedule")
    choice = models.CharField(max_length=16, blank=True)
    error = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Background-job bookkeeping (tournament.services.jobs): the last sign of life (when the task was sent,
    # then with each progress update), how many deliveries have started it, and the latest one's task id
    # (with database defaults, so that rows loaded from an archive need not name them).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempt = models.PositiveIntegerField(default=0, db_default=0)
    task_id = models.CharField(max_length=64, blank=True, db_default="")

    class Meta:
        verbose_name = _("seating job")
        verbose_name_plural = _("seating jobs")
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"Seating of {self.tournament} from hanchan {self.from_round}: {self.state}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.pk,
            "state": self.state,
            "progress": round(self.progress, 3),
            "from_round": self.from_round,
            "report": self.report,
            "error": self.error,
            "awaiting_confirmation": self.awaiting_confirmation,
            "applied_at": self.applied_at.isoformat() if self.applied_at else None,
            "choice": self.choice,
        }

    @property
    def awaiting_confirmation(self) -> bool:
        """A re-seating computed and not applied yet: the organiser confirms it (or asks again)."""
        return self.state == self.State.DONE and self.applied_at is None and bool(self.proposal)


class Absence(models.Model):
    """A player who does not play a hanchan they were seated for (WRCR 2015 §7.2).

    The substitute takes the seat; the absent player gets no hanchan score for that round and the
    missed-hanchan penalty (linked here), which is not cumulative with a lateness penalty.
    """

    class Reason(models.TextChoices):
        ABSENT = "absent", _("Absent")
        LATE = "late", _("More than 10 minutes late")
        WITHDRAWN = "withdrawn", _("Withdrawn from the tournament")
        # The field is not a multiple of four and the organiser let the last to check in sit out: no
        # missed-hanchan penalty (tournament.participation).
        SITS_OUT = "sits_out", _("Sits out (the field is not a multiple of four)")

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="absences")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="absences")
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    substitute = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="substitutions"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        ordering = ["round", "player"]
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="one_absence_per_round")]

    def __str__(self) -> str:
        return f"{self.player} {self.get_reason_display().lower()} in {self.round}"
