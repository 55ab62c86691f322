"""The tournament's settings form: the event, its rules (folded groups after the fields a new tournament
needs first), its publication and its ranking."""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.rules.ruleset import (
    ABORTIVE_DRAWS,
    DEFAULT_RULESET,
    PRESETS,
    get_ruleset,
    problems_of,
)
from tournament.core.standings import MAX_TIE_BREAKS
from tournament.forms.fields import BoundedJSONField
from tournament.forms.rules import (
    ABORTIVE_NONE,
    ABORTIVE_THESE,
    AGARI_YAME_NONE,
    AGARI_YAME_VALUES,
    FORM_TIE_BREAKS,
    MORE_RULES,
    NEEDED_FIRST,
    RULE_CHOICES,
    RULE_NUMBERS,
    RULE_SWITCHES,
    SEPARATED,
    SEPARATION_FROM,
    SEPARATION_NEVER,
    SEPARATION_NONE,
    SWITCH_VALUES,
    UMA_FIELDS,
    RuleFields,
    preset_placeholders,
    separation_rule,
    tie_break_choices,
)
from tournament.forms.widgets import QuickSelect
from tournament.models import (
    TOURNAMENT_FIELDS,
    Tournament,
    default_time_zone,
)


def _field_of(problem: str, given: dict[str, tuple[str, Any]]) -> str:
    """The form field of the rule a refusal of the rules engine names first (its messages begin with the
    rule's name, e.g. "abortive_draws: triple-ron needs multiple_ron"); "" when it names none given."""
    named = [(problem.find(key), -len(key), key) for key in given if key in problem]
    return given[min(named)[2]][0] if named else ""


# The form's parts, in order (the template shows each as a fieldset); the tie-break selects go where
# "tie_breaks" stands. A field named in none goes to the last part.
FIELDSETS: list[tuple[str, Any, list[str]]] = [
    (
        "event",
        _("Event"),
        ["name", "slug", "kind", "starts_on", "ends_on", "venue", "time_zone", "language"],
    ),
    (
        "rules",
        _("Rules"),
        [
            "ruleset_preset",
            "rule_starting_points",
            "rule_return_points",
            *UMA_FIELDS,
            "rule_chombo_penalty",
            "rule_kiriage",
            "rule_sticks_left_to_first",
            "rule_ties_by_seat",
            "rule_round_to_thousand",
            "rule_multiple_ron",
            "rule_red_fives",
            "rule_abortive",
            "rule_abortive_draws",
            "rule_nagashi_mangan",
            "rule_busting",
            "rule_counted_yakuman",
            "rule_agari_yame",
            "rule_west_round_points",
            "rule_east_only",
            *MORE_RULES,
            "hanchan_minutes",
            "ruleset_overrides",
        ],
    ),
    (
        "format",
        _("Format"),
        [
            "hanchan_count",
            "entry_mode",
            "players_form_tables",
            "tie_breaks",
            "withdrawn_ranking",
            *(name for what in SEPARATED for name in (f"separate_{what}_rule", f"separate_{what}")),
            "team_ranking",
            "team_best_n",
            "team_substitutes_count",
        ],
    ),
    (
        "publication",
        _("Publication"),
        ["is_public", "seating_publication", "standings_publication", "hidden_hanchan"],
    ),
    ("ratings", _("Ratings"), ["mers_event", "players_qualified"]),
]


class TournamentForm(RuleFields, forms.ModelForm):
    ruleset_overrides = BoundedJSONField(
        name="ruleset_overrides",
        required=False,
        initial=dict,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        label=_("Other custom rules (JSON)"),
        help_text=_(
            'Any other field of the rules, as JSON, e.g. {"multiple_ron": true}. The fields above win over '
            "the same rule here. Leave {} for the preset as it is."
        ),
    )

    class Meta:
        model = Tournament
        # The awards have a page of their own (AwardsForm).
        fields = [name for name in TOURNAMENT_FIELDS if name not in ("tie_breaks", "awards")]
        # Choices whose labels are sentences: radio buttons, whose labels wrap on a phone where a select
        # would cut them.
        widgets = {
            "entry_mode": forms.RadioSelect,
            "kind": forms.RadioSelect,
            "withdrawn_ranking": forms.RadioSelect,
            "seating_publication": forms.RadioSelect,
            "standings_publication": forms.RadioSelect,
            "team_ranking": forms.RadioSelect,
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
            "hanchan_minutes": forms.NumberInput(attrs={"min": 10, "max": 300}),
            "hanchan_count": forms.NumberInput(attrs={"min": 1, "max": 40}),
            "hidden_hanchan": forms.NumberInput(attrs={"min": 0, "max": 40}),
            "separate_teams": forms.NumberInput(attrs={"min": 1, "max": 40}),
            "separate_clubs": forms.NumberInput(attrs={"min": 1, "max": 40}),
            "separate_countries": forms.NumberInput(attrs={"min": 1, "max": 40}),
        }
        labels = {
            "ruleset_preset": _("Preset"),
            "separate_teams": _("Team mates: n"),
            "separate_clubs": _("Club mates: n"),
            "separate_countries": _("Compatriots: n"),
        }
        help_texts = {
            "name": _("As the players will see it on every page."),
            "slug": _(
                "The last part of the address of the tournament's pages (/t/…/): letters, digits and "
                "hyphens. Empty: made from the name."
            ),
            "starts_on": _("The first day of play."),
            "ends_on": _("The last day of play: the first day again for a one-day event."),
            "venue": _("Optional: where it is played."),
            "mers_event": _(
                "The event counts for the site's MERS ranking (the EMA's ranking): its players' places "
                "give their base ranks, weighted by its days, players and countries."
            ),
            "players_qualified": _("Adds 1 to the event's MERS weight (EMA ranking rules)."),
            "ruleset_preset": _(
                "The rule text the score sheets are checked against: WRCR or EMA for a tournament at the "
                "table; Tenhou or Mahjong Soul for an event played online under that site's rules (red "
                "fives, abortive draws, nagashi mangan), whose game logs then import without differences. "
                "The fields below change single rules of it; left empty, they are the preset's."
            ),
            "hanchan_minutes": _("The time limit of each hanchan (WRCR 2015 §8.2: 90 minutes recommended)."),
            "hanchan_count": _(
                "How many hanchan each player plays in all (1 to 40). A club session has no fixed number: "
                "leave it empty."
            ),
            "kind": _(
                "A club session (a club night, an online league): no seating computed in advance; the "
                "organisers, or the players if you allow it, form each table from four players present, "
                "and each plays as many hanchan as they like. The standings add up every hanchan played."
            ),
            "players_form_tables": _(
                "Club sessions: a checked-in player signed in with their PIN may form a table they sit at."
            ),
            "entry_mode": _(
                "Players: a seated player enters the table's sheet on their phone (signed in with the PIN "
                "or code on the seating card) and the other three confirm it; a dispute goes to a referee, "
                "who may also sign at any time."
            ),
            "withdrawn_ranking": _("Where a player who withdraws stands in the standings."),
            "separate_teams": _("For “Not before hanchan n”: the first hanchan where team mates may meet."),
            "separate_clubs": _("For “Not before hanchan n”: the first hanchan where club mates may meet."),
            "separate_countries": _(
                "For “Not before hanchan n”: the first hanchan where compatriots may meet."
            ),
            "team_ranking": _(
                "Team standings beside the individual ones, for the players' teams (players without a "
                "team are in none); penalties count as in the individual standings."
            ),
            "team_best_n": _("N for the best-N rules (1 to 20)."),
            "team_substitutes_count": _("Whether a substitute's scores count for the team they play for."),
            "is_public": _("Anyone may see its pages; unticked, only its staff."),
            "seating_publication": _("When the public sees the seating of a hanchan; the staff always do."),
            "standings_publication": _("What the public standings count; the staff always see them live."),
            "hidden_hanchan": _(
                "The last n hanchan are left out of the public standings until you reveal them, for a "
                "final's suspense; 0: none."
            ),
        }

    def clean_ruleset_overrides(self) -> Any:
        overrides = self.cleaned_data.get("ruleset_overrides")
        return {} if overrides is None else overrides

    language = forms.ChoiceField(
        label=_("Default language"),
        choices=lambda: [("", gettext("The site's default")), *settings.LANGUAGES],
        required=False,
        help_text=_(
            "The language of the tournament's pages for a reader who has chosen none and whose browser "
            "asks for none of the site's languages."
        ),
    )

    time_zone = forms.ChoiceField(
        label=_("Venue time zone"),
        choices=lambda: [(name, name) for name in sorted(available_timezones())],
        widget=QuickSelect,
        help_text=_("Every time on the pages, the clock, the PDFs and the exports is the venue's."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Ranked unless the organiser chooses otherwise (a form without the field keeps the default).
        # Settings with a default: a form that leaves them out keeps the default.
        for name in (
            "withdrawn_ranking",
            "time_zone",
            "seating_publication",
            "standings_publication",
            "hidden_hanchan",
            "entry_mode",
            "team_ranking",
            "slug",
            "kind",
            "hanchan_count",
        ):
            self.fields[name].required = False
        if not self.initial.get("time_zone"):
            self.initial["time_zone"] = default_time_zone()
        self._initial_rules()
        chosen = list(self.instance.tie_breaks or [])
        self.tie_break_count = max(FORM_TIE_BREAKS, min(len(chosen), MAX_TIE_BREAKS))
        for number in range(1, self.tie_break_count + 1):
            self.fields[f"tie_break_{number}"] = forms.ChoiceField(
                label=_("Tie-break") if number == 1 else pgettext_lazy("tie-break", "then"),
                choices=tie_break_choices,
                required=False,
                initial=chosen[number - 1] if number <= len(chosen) else "",
                help_text=_(
                    "Equal overall scores are compared by these, in this order; players still equal after "
                    "them share the rank."
                )
                if number == 1
                else "",
            )
        order = [name for _key, _legend, names in self._parts() for name in names]
        self.order_fields(order)

    def _initial_rules(self) -> None:
        """The stored custom rules shown where they belong: the common ones in their own fields, the
        rest as JSON; the number of each separation as its choice and n."""
        overrides = (
            self.instance.ruleset_overrides if isinstance(self.instance.ruleset_overrides, dict) else {}
        )
        for name, key in RULE_NUMBERS.items():
            if key in overrides:
                self.initial[name] = overrides[key]
        uma = overrides.get("uma")
        if isinstance(uma, list | tuple) and len(uma) == len(UMA_FIELDS):
            self.initial.update(zip(UMA_FIELDS, uma, strict=True))
        for name, key in RULE_SWITCHES.items():
            if isinstance(overrides.get(key), bool):
                self.initial[name] = "yes" if overrides[key] else "no"
        if overrides.get("agari_yame") in AGARI_YAME_VALUES.values():
            stored = overrides["agari_yame"]
            self.initial["rule_agari_yame"] = stored or AGARI_YAME_NONE
        kinds = overrides.get("abortive_draws")
        if isinstance(kinds, list | tuple) and set(kinds) <= set(ABORTIVE_DRAWS):
            self.initial["rule_abortive"] = ABORTIVE_THESE if kinds else ABORTIVE_NONE
            self.initial["rule_abortive_draws"] = list(kinds)
        shown = {name for name in (*RULE_NUMBERS.values(), *RULE_SWITCHES.values()) if name in overrides}
        shown.update(key for name, key in RULE_CHOICES.items() if name in self.initial)
        if any(name in self.initial for name in UMA_FIELDS):
            shown.add("uma")
        if isinstance(self.instance.ruleset_overrides, dict):
            self.initial["ruleset_overrides"] = {k: v for k, v in overrides.items() if k not in shown}
        self.fields["ruleset_preset"].widget.attrs["data-presets"] = json.dumps(
            {name: preset_placeholders(ruleset) for name, ruleset in PRESETS.items()}
        )
        preset = get_ruleset(self.instance.ruleset_preset or DEFAULT_RULESET)
        for name, key in RULE_NUMBERS.items():
            self.fields[name].widget.attrs["placeholder"] = getattr(preset, key)
        for name, value in zip(UMA_FIELDS, preset.uma, strict=True):
            self.fields[name].widget.attrs.update(placeholder=value, **{"aria-describedby": "uma_helptext"})
        for what in SEPARATED:
            value = getattr(self.instance, f"separate_{what}")
            self.initial[f"separate_{what}_rule"] = separation_rule(value)
            if value == 0:
                self.initial[f"separate_{what}"] = None

    def more_rules_open(self) -> bool:
        """Whether "More rules" (``MORE_RULES``) shows unfolded: one of them is set or refused."""
        return any(name in self.errors or self[name].value() not in (None, "") for name in MORE_RULES)

    def _parts(self) -> list[tuple[str, Any, list[str]]]:
        """``FIELDSETS`` with this form's tie-break selects, and any field named in none at the end."""
        tie_breaks = [f"tie_break_{n}" for n in range(1, self.tie_break_count + 1)]
        parts = [
            (key, legend, [m for name in names for m in (tie_breaks if name == "tie_breaks" else [name])])
            for key, legend, names in FIELDSETS
        ]
        placed = {name for _key, _legend, names in parts for name in names}
        parts[-1][2].extend(name for name in self.fields if name not in placed)
        if self.instance._state.adding:  # a new tournament: what it needs first, the rest after
            needed = [name for name in NEEDED_FIRST if name in self.fields]
            parts = [(key, legend, [n for n in names if n not in needed]) for key, legend, names in parts]
            parts.insert(0, ("needed", _("What the tournament needs"), needed))
        return parts

    def fieldsets(self) -> list[dict[str, Any]]:
        """The form's parts for the template: each with its legend, bound fields and whether one of them
        is in error (a folded part opens then)."""
        parts = []
        for key, legend, names in self._parts():
            fields = [self[name] for name in names if name in self.fields]
            parts.append(
                {"key": key, "legend": legend, "fields": fields, "errors": any(f.errors for f in fields)}
            )
        return parts

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        steps = [cleaned.pop(f"tie_break_{n}", "") for n in range(1, self.tie_break_count + 1)]
        order: list[str] = []
        for number, step in enumerate(steps, start=1):
            if not step:
                continue
            if step in order:
                self.add_error(
                    f"tie_break_{number}",
                    forms.ValidationError(
                        gettext("Tie-breaks: each tie-break at most once (this one is chosen above)."),
                        code="tie-breaks",
                    ),
                )
            order.append(step)
        cleaned["tie_breaks"] = order
        self._clean_hanchan_count(cleaned)
        for what in SEPARATED:
            self._clean_separation(cleaned, what)
        self._clean_rules(cleaned)
        return cleaned

    def _clean_separation(self, cleaned: dict[str, Any], what: str) -> None:
        """The choice and its n stored as the model's number: None (no rule), 0 (never) or n. Without
        the choice (a form of before it), the number as it is."""
        rule = cleaned.pop(f"separate_{what}_rule", "") or ""
        field = f"separate_{what}"
        if rule == SEPARATION_NONE:
            cleaned[field] = None
        elif rule == SEPARATION_NEVER:
            cleaned[field] = 0
        elif rule == SEPARATION_FROM and not cleaned.get(field) and field not in self.errors:
            self.add_error(
                field,
                forms.ValidationError(
                    gettext(
                        "“Not before hanchan n” needs n: the first hanchan where they may meet (1 or more)."
                    ),
                    code="separation",
                ),
            )

    def _clean_rules(self, cleaned: dict[str, Any]) -> None:
        """The custom rules: the JSON, then each rule field that is set on top of it; each field's value
        checked by the rules engine, its refusal shown beside the field."""
        overrides = cleaned.get("ruleset_overrides")
        if not isinstance(overrides, dict):
            return  # the model refuses it, naming the field
        preset = cleaned.get("ruleset_preset") or self.instance.ruleset_preset or DEFAULT_RULESET
        given: dict[str, tuple[str, Any]] = {}
        for name, key in RULE_NUMBERS.items():
            if cleaned.get(name) is not None:
                given[key] = (name, cleaned[name])
        for name, key in RULE_SWITCHES.items():
            if cleaned.get(name) in SWITCH_VALUES:
                given[key] = (name, SWITCH_VALUES[cleaned[name]])
        if cleaned.get("rule_agari_yame") in AGARI_YAME_VALUES:
            given["agari_yame"] = ("rule_agari_yame", AGARI_YAME_VALUES[cleaned["rule_agari_yame"]])
        ticked = list(cleaned.get("rule_abortive_draws") or [])
        abortive = cleaned.get("rule_abortive") or (ABORTIVE_THESE if ticked else "")
        if abortive == ABORTIVE_NONE:
            given["abortive_draws"] = ("rule_abortive", [])
        elif abortive == ABORTIVE_THESE:
            # In the engine's order (``ABORTIVE_DRAWS``), as ``Ruleset.to_dict`` stores them.
            given["abortive_draws"] = (
                "rule_abortive_draws",
                [kind for kind in ABORTIVE_DRAWS if kind in ticked],
            )
        uma = [cleaned.get(name) for name in UMA_FIELDS]
        if any(value is not None for value in uma):
            missing = [name for name, value in zip(UMA_FIELDS, uma, strict=True) if value is None]
            if missing:
                for name in missing:
                    self.add_error(
                        name,
                        forms.ValidationError(
                            gettext("uma: give all four places, or none for the preset's uma"), code="ruleset"
                        ),
                    )
            else:
                given["uma"] = (UMA_FIELDS[0], uma)
        merged = dict(overrides)
        for key, (_name, value) in given.items():
            merged[key] = value
        # The rules engine's own checks, on the whole set (a rule that needs another, e.g. three players
        # winning on one discard as an abortive draw needs multiple ron): each refusal beside the field
        # of the rule it names; one that names only rules of the JSON is the model's to refuse.
        if given:
            base = preset if preset in PRESETS else DEFAULT_RULESET
            refused: dict[str, list[str]] = {}
            for problem in problems_of(base, **merged):
                name = _field_of(problem, given)
                if name:
                    refused.setdefault(name, []).append(problem)
            for name, problems in refused.items():
                self.add_error(name, forms.ValidationError("; ".join(problems), code="ruleset"))
        for name in (*RULE_NUMBERS, *UMA_FIELDS, *RULE_SWITCHES, *RULE_CHOICES, "rule_abortive_draws"):
            cleaned.pop(name, None)
        cleaned["ruleset_overrides"] = merged

    def clean_slug(self) -> str:
        """An address left empty: the tournament's own when editing (it never changes unasked); when
        creating, the service makes one from the name."""
        slug = self.cleaned_data.get("slug") or ""
        return slug or (self.instance.slug if self.instance.pk else "")

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or default_time_zone()

    def clean_standings_publication(self) -> str:
        return self.cleaned_data.get("standings_publication") or Tournament.StandingsPublication.LIVE

    def clean_kind(self) -> str:
        return self.cleaned_data.get("kind") or Tournament.Kind.TOURNAMENT

    def _clean_hanchan_count(self, cleaned: dict[str, Any]) -> None:
        """A club session has no fixed number of hanchan (1 is stored, and shown nowhere); a tournament
        needs its number."""
        if cleaned.get("hanchan_count") or "hanchan_count" in self.errors:
            return
        if cleaned.get("kind") == Tournament.Kind.CLUB:
            cleaned["hanchan_count"] = 1
        else:
            message = gettext("How many hanchan each player plays: 1 to 40 (a tournament needs its number).")
            self.add_error("hanchan_count", forms.ValidationError(message, code="required"))

    def clean_hidden_hanchan(self) -> int:
        return self.cleaned_data.get("hidden_hanchan") or 0

    def clean_seating_publication(self) -> str:
        return self.cleaned_data.get("seating_publication") or Tournament.SeatingPublication.ALL

    def clean_entry_mode(self) -> str:
        return self.cleaned_data.get("entry_mode") or Tournament.EntryMode.REFEREES

    def clean_team_ranking(self) -> str:
        return self.cleaned_data.get("team_ranking") or Tournament.TeamRanking.NONE

    def clean_withdrawn_ranking(self) -> str:
        return self.cleaned_data.get("withdrawn_ranking") or Tournament.WithdrawnRanking.RANKED
