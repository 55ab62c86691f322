"""Series of tournaments ranked together, their exports, and the rating lists over them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models.event import Tournament, validate_awards


class Series(models.Model):
    """Tournaments ranked together (a league season, a club's year) under one rule
    (``tournament.core.series``):
    the sum of the results, the best N events, the average over a minimum of events, or points per rank.
    Only what the public sees of each tournament counts (a private one counts for nothing)."""

    class Rule(models.TextChoices):  # the values of tournament.series.RULES
        SUM = "sum", _("Sum of the results")
        BEST_N = "best_n", _("The best N events")
        AVERAGE = "average", _("Average, with a minimum number of events")
        POINTS_PER_RANK = "points_per_rank", _("Points per final rank")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    rule = models.CharField(_("rule"), max_length=16, choices=Rule.choices, default=Rule.SUM)
    best_n = models.PositiveSmallIntegerField(_("best N events"), null=True, blank=True)
    min_events = models.PositiveSmallIntegerField(_("minimum number of events"), null=True, blank=True)
    # The points of each final rank, first place first (exact decimals as strings): points_per_rank only.
    points = models.JSONField(_("points per rank"), default=list, blank=True)
    tournaments = models.ManyToManyField(
        Tournament, blank=True, related_name="series", verbose_name=_("tournaments")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The awards shown on the series' awards page and projector (tournament.awards), over the hands of its
    # tournaments the public sees; chosen by whoever may change the series.
    awards = models.JSONField(_("awards"), default=list, blank=True, validators=[validate_awards])

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:series", kwargs={"series_slug": self.slug})


# The fields of a series its organisers set (the API takes these, with ``tournaments``).
SERIES_FIELDS = ("name", "slug", "rule", "best_n", "min_events", "points", "awards")


def series_export_upload_to(instance: SeriesExportJob, filename: str) -> str:
    return f"exports/series/{instance.series_id}/{instance.pk or 'new'}-{filename}"


class SeriesExportJob(models.Model):
    """One export of a series (its standings as the public sees them), produced in the background by
    ``exports.services`` as a tournament's ``ExportJob`` is, and kept until it expires. Its fields are an
    export job's, with the series in place of the tournament (``tournament.services.jobs`` runs both)."""

    class State(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("job state", "Queued")
        RUNNING = "running", pgettext_lazy("job state", "Running")
        DONE = "done", pgettext_lazy("job state", "Done")
        FAILED = "failed", pgettext_lazy("job state", "Failed")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="export_jobs")
    exporter = models.CharField(max_length=40)  # the identifier of a registered series exporter
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    progress = models.FloatField(default=0.0)
    file = models.FileField(upload_to=series_export_upload_to, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=120, blank=True)
    error = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=16, blank=True, default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempt = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.exporter} export of {self.series}: {self.state}"


class RatingSnapshot(models.Model):
    """The last computed rating list of the site (``scope`` "site") or of a series ("series:<id>"),
    stored by the background recompute (``tournament.services.ratings``) so that no page computes it:
    the digest of the data it was computed from (``series_db.data_digest``), the day its MERS ranking
    counts on, the change counter it was computed for, when, and the list (docs/ratings.md)."""

    scope = models.CharField(max_length=40, unique=True)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_snapshots"
    )
    digest = models.CharField(max_length=32)
    as_of = models.DateField()
    version = models.PositiveBigIntegerField(default=0)
    read_at = models.DateTimeField()  # when its data was read: an older computation never replaces it
    computed_at = models.DateTimeField()
    events = models.JSONField(default=list)
    skill = models.JSONField(default=list)  # [entrant, mu, sigma, hanchan], the highest ordinal first
    mers = models.JSONField(default=list)  # [entrant, ranking as an exact string, results]
    # The results left out because they cannot be rated (``ratings.lists.LeftOut``), the first
    # ``ratings_db.LEFT_OUT_KEPT`` of them, and how many in all.
    left_out = models.JSONField(default=list)
    left_out_count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.scope} as of {self.computed_at:%Y-%m-%d %H:%M}"


class RatingRun(models.Model):
    """The background recompute of one rating list (``scope`` as its ``RatingSnapshot``'s), for the
    sweep and for staff (``tournament.services.ratings``, docs/ratings.md): a run under way writes its
    heartbeat (None: none under way); a run that fails, or whose worker died, is recorded with its cause,
    and the list is not tried again before ``retry_at`` (a backoff that doubles with each failure in a
    row). ``failures`` is 0 once a run succeeds."""

    scope = models.CharField(max_length=40, unique=True)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_runs"
    )
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    succeeded_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)  # failed runs in a row
    failed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)  # the cause of the last failure
    retry_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.scope}: {self.failures} failure(s) in a row" if self.failures else self.scope


class RatingHistory(models.Model):
    """One bucket of a stored rating list's histories: each entrant's rating after each of their
    hanchan, for the chart of a person's page (``ratings_db.HISTORY_BUCKETS`` buckets a list)."""

    snapshot = models.ForeignKey(RatingSnapshot, on_delete=models.CASCADE, related_name="histories")
    bucket = models.PositiveSmallIntegerField()
    steps = models.JSONField(default=dict)  # entrant: [[tournament, hanchan, place, mu, sigma], ...]

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "bucket"], name="one_rating_history_bucket")
        ]

    def __str__(self) -> str:
        return f"{self.snapshot.scope}, bucket {self.bucket}"
