"""Tournaments and their rules: the event and the settings its organisers set."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules.ruleset import Ruleset, get_ruleset
from tournament.core.awards import AWARDS
from tournament.core.standings import tie_breaks_problem
from tournament.core.teams import BEST_RULES, MAX_BEST_N, TeamRule


def validate_tie_breaks(value: Any) -> None:
    problem = tie_breaks_problem(value)
    if problem is not None:
        raise ValidationError(gettext("Tie-breaks: %(problem)s.") % {"problem": problem}, code="tie-breaks")


def validate_awards(value: Any) -> None:
    """The awards an organiser chose: a list of the award identifiers (``tournament.core.awards.AWARDS``),
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
