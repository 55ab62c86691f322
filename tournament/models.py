"""Tournaments, players, rounds (hanchan), tables and seats.

The rules of seating live in ``tournament.seating`` (plain Python); these models store its output.
"""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from scoring.rules.ruleset import Ruleset, get_ruleset
from tournament.awards import AWARDS
from tournament.clock import Clock
from tournament.phases import PhasePlan
from tournament.standings import tie_breaks_problem
from tournament.teams import BEST_RULES, MAX_BEST_N, TeamRule

EMA_ID_VALIDATOR = RegexValidator(r"^\d{8}$", _("An EMA id is exactly 8 digits (EMA ranking rules)."))


def validate_tie_breaks(value: Any) -> None:
    problem = tie_breaks_problem(value)
    if problem is not None:
        raise ValidationError(gettext("Tie-breaks: %(problem)s.") % {"problem": problem}, code="tie-breaks")


def validate_awards(value: Any) -> None:
    """The awards an organiser chose: a list of the award identifiers (``tournament.awards.AWARDS``),
    each at most once."""
    if not isinstance(value, list) or not all(isinstance(key, str) for key in value):
        raise ValidationError(gettext("Awards: a list of award names."), code="awards")
    unknown = sorted(set(value) - set(AWARDS))
    if unknown:
        raise ValidationError(
            gettext("Awards: %(name)s is not an award.") % {"name": unknown[0]}, code="awards"
        )
    if len(set(value)) != len(value):
        raise ValidationError(gettext("Awards: each award at most once."), code="awards")


def default_time_zone() -> str:
    """A new tournament's venue time zone: the site's (``TIME_ZONE``) until the organiser sets it."""
    return str(settings.TIME_ZONE)


class Tournament(models.Model):
    class Preset(models.TextChoices):
        WRC2015 = "WRC2015", "World Riichi Championship Rules 2015"
        EMA2016 = "EMA2016", "EMA riichi rules 2016"
        EMA2025 = "EMA2025", "EMA riichi rules 2025"
        # The online presets (scoring.rules.ruleset): an event played on Tenhou or Mahjong Soul.
        TENHOU = "TENHOU", "Tenhou ranked rules (online)"
        MAHJONGSOUL = "MAHJONGSOUL", "Mahjong Soul rules (online)"

    class WithdrawnRanking(models.TextChoices):  # the values of tournament.participation.WithdrawnRanking
        RANKED = "ranked", _("Ranked, with the missed-hanchan penalties")
        UNRANKED = "unranked", _("Not ranked")

    class SeatingPublication(models.TextChoices):
        ALL = "all", _("Every seated hanchan, as soon as it is seated")
        BY_HANCHAN = "by_hanchan", _("Hanchan by hanchan, when the organiser publishes it")

    class StandingsPublication(models.TextChoices):
        LIVE = "live", _("Live: each signed sheet counts at once")
        COMPLETED = "completed", _("As of the last completed hanchan (all its tables signed)")

    class EntryMode(models.TextChoices):
        REFEREES = "referees", _("Referees enter the score sheets")
        PLAYERS = "players", _("Players enter their table's sheet, the table confirms")

    class TieBreak(models.TextChoices):  # the values of tournament.standings.TIE_BREAKS
        MOST_FIRSTS = "most_firsts", _("Most first places")
        BEST_HANCHAN = "best_hanchan", _("Best single hanchan score")
        BEST_PLACEMENTS = "best_placements", _("Best placements (most 1sts, then 2nds, then 3rds)")
        HEAD_TO_HEAD = "head_to_head", _("Head-to-head (scores where the tied players met)")

    class Award(models.TextChoices):  # the values of tournament.awards.AWARDS, in their order
        BEST_HAND = "best_hand", _("Best hand")
        MOST_WINS = "most_wins", _("Most wins")
        FEWEST_DEAL_INS = "fewest_deal_ins", _("Fewest deal-ins")
        MOST_RIICHI = "most_riichi", _("Most riichi")
        LONGEST_DEALER_STREAK = "longest_dealer_streak", _("Longest dealer streak")
        BEST_COMEBACK = "best_comeback", _("Best comeback")
        MOST_YAKUMAN = "most_yakuman", _("Most yakuman")

    class Kind(models.TextChoices):
        # A tournament: a field seated by a schedule for a fixed number of hanchan. A club session
        # (tournament.club): tables formed at the venue from four players present, any number of hanchan.
        TOURNAMENT = "tournament", _("Tournament: a seating for a fixed number of hanchan")
        CLUB = "club", _("Club session: tables formed at the venue, any number of hanchan")

    class TeamRanking(models.TextChoices):  # the values of tournament.teams.TeamRanking
        NONE = "none", _("No team standings")
        SUM = "sum", _("Sum of every member's total")
        BEST_PER_HANCHAN = "best_per_hanchan", _("In each hanchan, the best N members' scores")
        BEST_OVERALL = "best_overall", _("The best N members' totals")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    kind = models.CharField(_("kind of event"), max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    # A club session: whether a checked-in player signed in may form a table they sit at (the organisers
    # always may).
    players_form_tables = models.BooleanField(_("players form tables"), default=False)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # Every time the pages, the clock, the PDFs and the exports show is in the venue's time zone.
    time_zone = models.CharField(_("venue time zone"), max_length=64, default=default_time_zone)
    # The language of the tournament's pages for a reader who chose none and whose browser asks for none
    # of the product's languages (blank: the site's LANGUAGE_CODE; docs/languages.md).
    language = models.CharField(
        _("default language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES
    )
    ruleset_preset = models.CharField(
        _("rules"), max_length=16, choices=Preset.choices, default=Preset.WRC2015
    )
    # Custom rules: fields of scoring.rules.ruleset.Ruleset replaced on top of the preset.
    ruleset_overrides = models.JSONField(_("custom rules"), default=dict, blank=True)
    hanchan_count = models.PositiveSmallIntegerField(
        _("number of hanchan"), validators=[MinValueValidator(1), MaxValueValidator(40)]
    )
    # WRCR 2015 §8.2: a time limit per hanchan, 90 minutes recommended.
    hanchan_minutes = models.PositiveSmallIntegerField(
        _("minutes per hanchan"), default=90, validators=[MinValueValidator(10)]
    )
    # Tie-breaks in the order applied (tournament.standings); empty: equal scores share the rank.
    tie_breaks = models.JSONField(_("tie-breaks"), default=list, blank=True, validators=[validate_tie_breaks])
    # Withdrawn players: ranked with their missed-hanchan penalties, or not (tournament.participation).
    withdrawn_ranking = models.CharField(
        _("ranking of withdrawn players"),
        max_length=16,
        choices=WithdrawnRanking.choices,
        default=WithdrawnRanking.RANKED,
    )
    is_public = models.BooleanField(_("public"), default=True)
    # The demonstration tournament of ``load_demo``: shown like any other, but counted in no list across
    # tournaments (the site's and a series' ratings and standings), where its made-up players would
    # stand beside real ones of the same names.
    is_demo = models.BooleanField(_("demonstration"), default=False, editable=False)
    # What the public standings show (staff always see them live and whole): see standings_db.public_cutoff.
    standings_publication = models.CharField(
        _("standings shown to the public"),
        max_length=16,
        choices=StandingsPublication.choices,
        default=StandingsPublication.LIVE,
    )
    # The ranking of the last N hanchan is hidden from the public until the organiser reveals it.
    hidden_hanchan = models.PositiveSmallIntegerField(
        _("hanchan hidden until revealed"), default=0, validators=[MaxValueValidator(40)]
    )
    standings_revealed = models.BooleanField(_("standings revealed"), default=False)
    # The EMA's ranking (tournament.ratings.mers, docs/ratings.md): whether the event counts for the
    # site's MERS ranking, and the one input of its weight not read from the dates and registrations.
    mers_event = models.BooleanField(_("MERS event"), default=False)
    players_qualified = models.BooleanField(_("players had to qualify"), default=False)
    # Who sees the seating of a hanchan: the public once it is seated, or once the organiser publishes it
    # (staff always see it).
    seating_publication = models.CharField(
        _("seating shown to the public"),
        max_length=16,
        choices=SeatingPublication.choices,
        default=SeatingPublication.ALL,
    )
    # Who enters the score sheets: the referees, or a seated player whose table confirms it (a dispute, or a
    # referee's signature, hands it to the referees).
    entry_mode = models.CharField(
        _("score sheets entered by"), max_length=16, choices=EntryMode.choices, default=EntryMode.REFEREES
    )
    # Seating: keep players of one team, club or country apart. Empty: no rule; 0: never at one table;
    # n: not before hanchan n.
    separate_teams = models.PositiveSmallIntegerField(_("separate teams"), null=True, blank=True)
    separate_clubs = models.PositiveSmallIntegerField(_("separate clubs"), null=True, blank=True)
    separate_countries = models.PositiveSmallIntegerField(_("separate countries"), null=True, blank=True)
    # Team standings (tournament.teams): the rule, its N for the best-N rules, and whether substitutes
    # count for their team.
    team_ranking = models.CharField(
        _("team standings"), max_length=16, choices=TeamRanking.choices, default=TeamRanking.NONE
    )
    team_best_n = models.PositiveSmallIntegerField(
        _("best N members"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BEST_N)],
    )
    team_substitutes_count = models.BooleanField(_("substitutes count for their team"), default=False)
    # The awards shown on the awards page and the projector (tournament.awards), chosen by the organisers.
    awards = models.JSONField(_("awards"), default=list, blank=True, validators=[validate_awards])
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    # Counts the changes of the standings (tournament.standings_db): bumped in the transaction of each
    # change, and part of every cached standings key, so no cached copy outlives a change.
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="ends_after_start",
                violation_error_code="dates",
                violation_error_message=_("The last day comes before the first day: check the dates."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Only tournament.standings_db moves the standings version (an UPDATE adding one): saving an
        # instance read earlier never writes its older number back.
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name != "standings_version"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournament:home", kwargs={"slug": self.slug})

    def clean(self) -> None:
        if not isinstance(self.ruleset_overrides, dict):
            message = gettext('an object of ruleset fields, e.g. {} or {"uma": [20, 10, -10, -20]}')
            raise ValidationError({"ruleset_overrides": ValidationError(message, code="ruleset")})
        try:
            self.ruleset()
        except (TypeError, ValueError) as exc:
            raise ValidationError({"ruleset_overrides": ValidationError(str(exc), code="ruleset")}) from exc
        if self.kind == self.Kind.CLUB and self.hidden_hanchan:
            raise ValidationError(
                {"hidden_hanchan": gettext("A club session has no last hanchan to hide: leave it at 0.")}
            )
        if self.hanchan_count and self.hidden_hanchan >= self.hanchan_count:
            raise ValidationError(
                {
                    "hidden_hanchan": gettext(
                        "Hide fewer hanchan than the tournament has: the public must see some."
                    )
                }
            )
        if self.team_ranking in BEST_RULES and self.team_best_n is None:
            raise ValidationError(
                {
                    "team_best_n": gettext("The rule %(rule)s counts the best N members: give N (1 to 20).")
                    % {"rule": self.get_team_ranking_display()}
                }
            )
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError(
                {"ends_on": gettext("The last day comes before the first day: check the dates.")}
            )
        if self.time_zone not in available_timezones():
            raise ValidationError(
                {
                    "time_zone": gettext("%(zone)s is not a time zone name of the IANA database (Asia/Tokyo)")
                    % {"zone": repr(self.time_zone)}
                }
            )

    @property
    def is_club_session(self) -> bool:
        return self.kind == self.Kind.CLUB

    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.time_zone)
        except (ValueError, ZoneInfoNotFoundError):
            return ZoneInfo("UTC")

    def record_language(self) -> str:
        """The language of a text the product writes into the tournament's record once for every reader
        (a penalty's reason, a sheet's history note, a seating job's error): the tournament's, whoever's
        action or worker writes it, else the site's."""
        return self.language or settings.LANGUAGE_CODE

    def separation(self) -> dict[str, int | None]:
        """The seating generator's separation rule: attribute -> first hanchan allowed (0: never)."""
        return {"team": self.separate_teams, "club": self.separate_clubs, "country": self.separate_countries}

    def tie_break_labels(self) -> list[str]:
        """The tie-breaks in the order applied, in words (unknown identifiers left out)."""
        labels = dict(self.TieBreak.choices)
        return [str(labels[step]) for step in self.tie_breaks if step in labels]

    def team_rule(self) -> TeamRule:
        """The team standings rule (tournament.teams); N only for the best-N rules."""
        best = self.team_ranking in BEST_RULES
        return TeamRule(
            ranking=self.team_ranking,  # type: ignore[arg-type]
            best_n=self.team_best_n if best else None,
            substitutes_count=self.team_substitutes_count,
        )

    def ruleset(self) -> Ruleset:
        if not self.ruleset_overrides:
            return get_ruleset(self.ruleset_preset)
        return Ruleset.custom(self.ruleset_preset, **self.ruleset_overrides)


# The fields of a tournament its organisers set (the form, the API and the archive take these).
TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "kind",
    "players_form_tables",
    "starts_on",
    "ends_on",
    "venue",
    "time_zone",
    "language",
    "ruleset_preset",
    "ruleset_overrides",
    "hanchan_count",
    "hanchan_minutes",
    "tie_breaks",
    "withdrawn_ranking",
    "is_public",
    "seating_publication",
    "standings_publication",
    "entry_mode",
    "hidden_hanchan",
    "separate_teams",
    "separate_clubs",
    "separate_countries",
    "team_ranking",
    "team_best_n",
    "team_substitutes_count",
    "awards",
    "mers_event",
    "players_qualified",
)


class Person(models.Model):
    """One person across tournaments: the site-wide identity each registration (``Player``) may link to
    (``tournament.persons``: by EMA id at once, otherwise as the organiser confirms). The name, the name
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


class Series(models.Model):
    """Tournaments ranked together (a league season, a club's year) under one rule (``tournament.series``):
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


class Phase(models.Model):
    """One phase of a tournament in phases (``tournament.phases``): its hanchan, seating method, and from
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


class RegistrationSettings(models.Model):
    """How players sign up themselves for a tournament (``tournament.signups``): when registration opens
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
    """One player's sign-up, made by the player on the public page (``tournament.signups`` has its states
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
    """An organiser's message to a tournament's sign-ups (``tournament.services.signups.announce``): the
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

    class Meta:
        ordering = ["queued_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} to sign-up {self.signup_id}"
