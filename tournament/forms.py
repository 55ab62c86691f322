"""Forms of the organisers' pages: they read and shape input; the services decide what is allowed."""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.forms.fields import InvalidJSONInput
from django.forms.models import ModelChoiceIterator
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_countries.fields import CountryField

from scoring.rules.ruleset import (
    ABORTIVE_DRAWS,
    AGARI_YAME_ALWAYS,
    AGARI_YAME_OPTIONAL,
    BOUNDS,
    DEFAULT_RULESET,
    PRESETS,
    UMA_BOUND,
    Ruleset,
    get_ruleset,
    problems_of,
)
from tournament.club import WINDS
from tournament.collation import name_key
from tournament.inputs import control_problem, read_json
from tournament.models import (
    TOURNAMENT_FIELDS,
    Absence,
    Phase,
    Player,
    RegistrationSettings,
    Round,
    Seat,
    Series,
    StaffRole,
    Tournament,
    default_time_zone,
)
from tournament.names import shown_name
from tournament.refusal import Refusal
from tournament.registration import MAX_FILE_BYTES
from tournament.standings import MAX_TIE_BREAKS
from tournament.widgets import QuickSelect


def country_choices() -> list[tuple[str, str]]:
    return [("", "—"), *((code, str(name)) for code, name in countries)]


class PlayersByName(ModelChoiceIterator):
    """A list of players as every other list of the site orders them: by the name the reader sees, in
    the collation of the reader's language (tournament.collation), not the database's."""

    def __iter__(self) -> Any:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        language = get_language() or ""
        players = list(self.queryset)
        players.sort(
            key=lambda player: name_key(shown_name(player.name, player.native_name, language), language)
        )
        for player in players:
            yield self.choice(player)


class PlayerChoiceField(forms.ModelChoiceField):
    """A player, listed and labelled by the name the reader sees (``PlayersByName``)."""

    iterator = PlayersByName

    def label_from_instance(self, obj: Any) -> str:
        return shown_name(obj.name, obj.native_name, get_language() or "")


class PlayersChoiceField(forms.ModelMultipleChoiceField):
    """Several players, listed and labelled as ``PlayerChoiceField`` does."""

    iterator = PlayersByName
    label_from_instance = PlayerChoiceField.label_from_instance


class BoundedJSONField(forms.JSONField):
    """JSON text read by ``tournament.inputs.read_json`` (bounded depth and size, no NUL, no lone
    surrogate) rather than by ``json.loads``, which a deeply nested text crashes."""

    def __init__(self, *args: Any, name: str = "value", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.json_name = name

    def to_python(self, value: Any) -> Any:
        if self.disabled or not isinstance(value, str) or value in self.empty_values:
            return super().to_python(value)
        try:
            return read_json(value, field=self.json_name)
        except Refusal as refused:
            raise forms.ValidationError(refused.message, code=refused.rule) from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled or not isinstance(data, str):
            return super().bound_data(data, initial)
        try:
            return read_json(data, field=self.json_name)
        except Refusal:
            return InvalidJSONInput(data)


def printable_line(value: str) -> str:
    """A one-line name's form value, refused when it holds a control character (``printable-text``)."""
    why = control_problem(value)
    if why is not None:
        raise forms.ValidationError(gettext("This %(problem)s.") % {"problem": why}, code="printable-text")
    return value


# The organiser's form offers this many tie-break selects ("Tie-break", "then", "then"), more when the
# tournament has more already (set through the API, which takes up to tournament.standings.MAX_TIE_BREAKS),
# so that saving the form never drops one.
FORM_TIE_BREAKS = 3


def tie_break_choices() -> list[tuple[str, str]]:
    return [("", "—"), *Tournament.TieBreak.choices]


# The rules organisers change most, each a field of its own on the tournament form, stored in
# ``ruleset_overrides`` like the rest (the raw JSON, the "Advanced" part of the form, holds the others).
# The online presets' rules (red fives, abortive draws, nagashi mangan, busting, counted yakuman, agari
# yame, the West round) are among them; so is every other rule the engine reads (``MORE_RULES``: the
# payments, the yaku rules, the counters of a multiple ron, chombo), under "More rules".
RULE_NUMBERS = {
    "rule_starting_points": "starting_points",
    "rule_return_points": "return_points",
    "rule_chombo_penalty": "chombo_penalty",
    "rule_red_fives": "red_fives",
    "rule_west_round_points": "west_round_points",
    "rule_riichi_stick": "riichi_stick",
    "rule_honba_ron": "honba_ron",
    "rule_honba_tsumo_each": "honba_tsumo_each",
    "rule_noten_total": "noten_total",
    "rule_double_wind_pair_fu": "double_wind_pair_fu",
}
UMA_FIELDS = ("rule_uma_1", "rule_uma_2", "rule_uma_3", "rule_uma_4")
RULE_SWITCHES = {
    "rule_kiriage": "kiriage",
    "rule_sticks_left_to_first": "sticks_left_to_first",
    "rule_multiple_ron": "multiple_ron",
    "rule_nagashi_mangan": "nagashi_mangan",
    "rule_busting": "busting",
    "rule_counted_yakuman": "counted_yakuman",
    "rule_multiple_ron_honba_each": "multiple_ron_honba_each",
    "rule_yakuman_accumulate": "yakuman_accumulate",
    "rule_renho_mangan": "renho_mangan",
    "rule_liability": "liability",
    "rule_kokushi_robs_concealed_kong": "kokushi_robs_concealed_kong",
    "rule_noten_riichi_chombo": "noten_riichi_chombo",
    "rule_chombo_table_payment": "chombo_table_payment",
    "rule_ties_by_seat": "ties_by_seat",
    "rule_round_to_thousand": "round_to_thousand",
    "rule_east_only": "east_only",
}
# The rules organisers seldom change, in the form's order: folded under "More rules" (open when one is set
# or refused).
MORE_RULES = (
    "rule_multiple_ron_honba_each",
    "rule_yakuman_accumulate",
    "rule_renho_mangan",
    "rule_liability",
    "rule_kokushi_robs_concealed_kong",
    "rule_double_wind_pair_fu",
    "rule_riichi_stick",
    "rule_honba_ron",
    "rule_honba_tsumo_each",
    "rule_noten_total",
    "rule_noten_riichi_chombo",
    "rule_chombo_table_payment",
)
# Agari yame as a choice: the preset's, none (stored as ""), or the ruleset's two kinds.
AGARI_YAME_NONE = "none"
AGARI_YAME_VALUES = {
    AGARI_YAME_NONE: "",
    AGARI_YAME_ALWAYS: AGARI_YAME_ALWAYS,
    AGARI_YAME_OPTIONAL: AGARI_YAME_OPTIONAL,
}
# The abortive draws as a choice (the preset's, none, or those ticked) and the ticks.
ABORTIVE_NONE, ABORTIVE_THESE = "none", "these"
RULE_CHOICES = {"rule_agari_yame": "agari_yame", "rule_abortive": "abortive_draws"}
RULE_KEYS = {*RULE_NUMBERS.values(), "uma", *RULE_SWITCHES.values(), *RULE_CHOICES.values()}
SWITCH_VALUES = {"yes": True, "no": False}

# "Keep apart" (teams, clubs, countries), in words, stored as the model's number: None, 0 or n.
SEPARATION_NONE, SEPARATION_NEVER, SEPARATION_FROM = "none", "never", "from"
SEPARATED = ("teams", "clubs", "countries")


def separation_choices() -> list[tuple[str, str]]:
    return [
        (SEPARATION_NONE, gettext("No rule")),
        (SEPARATION_NEVER, gettext("Never at one table")),
        (SEPARATION_FROM, gettext("Not before hanchan n")),
    ]


def separation_rule(value: int | None) -> str:
    """The choice that shows a stored separation (None: no rule; 0: never; n: not before hanchan n)."""
    if value is None:
        return SEPARATION_NONE
    return SEPARATION_NEVER if value == 0 else SEPARATION_FROM


def switch_choices() -> list[tuple[str, str]]:
    return [("", gettext("As the preset says")), ("yes", gettext("Yes")), ("no", gettext("No"))]


def agari_yame_choices() -> list[tuple[str, str]]:
    return [
        ("", gettext("As the preset says")),
        (AGARI_YAME_NONE, gettext("No: the dealer plays on while keeping the deal")),
        (AGARI_YAME_ALWAYS, gettext("Yes: the game ends")),
        (AGARI_YAME_OPTIONAL, gettext("The dealer may end the game")),
    ]


def abortive_choices() -> list[tuple[str, str]]:
    return [
        ("", gettext("As the preset says")),
        (ABORTIVE_NONE, gettext("None")),
        (ABORTIVE_THESE, gettext("Only those ticked below")),
    ]


def abortive_kind_choices() -> list[tuple[str, str]]:
    return [(kind, gettext(name)) for kind, name in ABORTIVE_DRAWS.items()]


def preset_placeholders(ruleset: Ruleset) -> dict[str, int]:
    """The value of each rule field in a preset: its placeholder, which the page's script follows when
    the preset changes (static/js/tournament_form.js)."""
    values = {name: getattr(ruleset, key) for name, key in RULE_NUMBERS.items()}
    return values | dict(zip(UMA_FIELDS, ruleset.uma, strict=True))


def rule_switch(**kwargs: Any) -> forms.ChoiceField:
    """A rule that is on or off: the preset's (left empty, nothing stored), yes or no."""
    return forms.ChoiceField(choices=switch_choices, required=False, **kwargs)


def rule_number(low: int, high: int, step: int = 1, **kwargs: Any) -> forms.IntegerField:
    """A rule's number: its range and step (``scoring.rules.ruleset.BOUNDS``) for the browser; the rules
    engine checks it again (``problems_of``), so its refusal names the rule."""
    return forms.IntegerField(
        required=False,
        widget=forms.NumberInput(attrs={"min": low, "max": high, "step": step, "inputmode": "numeric"}),
        **kwargs,
    )


def _field_of(problem: str, given: dict[str, tuple[str, Any]]) -> str:
    """The form field of the rule a refusal of the rules engine names first (its messages begin with the
    rule's name, e.g. "abortive_draws: triple-ron needs multiple_ron"); "" when it names none given."""
    named = [(problem.find(key), -len(key), key) for key in given if key in problem]
    return given[min(named)[2]][0] if named else ""


# A new tournament's form shows these first, the only fields without a default (the address follows
# the name); the other parts come folded after them.
NEEDED_FIRST = ("name", "slug", "starts_on", "ends_on", "hanchan_count")
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


class TournamentForm(forms.ModelForm):
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
    rule_starting_points = rule_number(
        *BOUNDS["starting_points"],
        step=100,
        label=_("Starting points"),
        help_text=_("The points each player starts the hanchan with (WRCR 2015 §4.1: 30,000)."),
    )
    rule_return_points = rule_number(
        *BOUNDS["return_points"],
        step=100,
        label=_("Return points"),
        help_text=_(
            "A hanchan's score is (final points - return points) / 1,000 + uma (WRCR 2015 §5.9.2: 30,000, "
            "the starting points)."
        ),
    )
    rule_uma_1 = rule_number(-UMA_BOUND, UMA_BOUND, label=_("Uma, 1st"))
    rule_uma_2 = rule_number(-UMA_BOUND, UMA_BOUND, label=_("Uma, 2nd"))
    rule_uma_3 = rule_number(-UMA_BOUND, UMA_BOUND, label=_("Uma, 3rd"))
    rule_uma_4 = rule_number(-UMA_BOUND, UMA_BOUND, label=_("Uma, 4th"))
    uma_help = _(
        "Added to the hanchan score of each place, in thousands of points (WRCR 2015 §5.9.2: 15, 5, -5, "
        "-15). All four, or none for the preset's."
    )
    rule_chombo_penalty = rule_number(
        *BOUNDS["chombo_penalty"],
        label=_("Chombo penalty"),
        help_text=_("Points taken off the overall score for a chombo (WRCR 2015 §7.1: 20)."),
    )
    rule_kiriage = rule_switch(
        label=_("Kiriage mangan"),
        help_text=_("4 han 30 fu and 3 han 60 fu are paid as a mangan (WRCR 2015 §6.1: yes; EMA 2016: no)."),
    )
    rule_sticks_left_to_first = rule_switch(
        label=_("Riichi sticks left at the end go to the first place"),
        help_text=_("WRCR 2015 §5.9: no, nobody collects them."),
    )
    rule_ties_by_seat = rule_switch(
        label=_("Equal points placed by seat"),
        help_text=_(
            "Players who end with equal points are placed by starting seat, the earlier first, each with the "
            "uma of their own place (WRCR 2015 §5.9.2: no, they share their places and split the uma; "
            "Tenhou: yes)."
        ),
    )
    rule_round_to_thousand = rule_switch(
        label=_("Final points rounded to thousands"),
        help_text=_(
            "The scores count the final points rounded to the nearest 1,000, a half upwards, and the first "
            "place what the others leave (WRCR 2015 §5.9.2: no, exact; Tenhou: yes)."
        ),
    )
    rule_multiple_ron = rule_switch(
        label=_("Multiple ron"),
        help_text=_(
            "Every player who calls ron on one discard wins (EMA 2016, Tenhou, Mahjong Soul: yes; WRCR 2015 "
            "§5.7.6: no, the player closest to the discarder wins)."
        ),
    )
    rule_red_fives = rule_number(
        *BOUNDS["red_fives"],
        label=_("Red fives"),
        help_text=_(
            "How many red fives the set has, each a dora (WRCR 2015 §3.3: 0; Tenhou and Mahjong Soul: 3, "
            "one per suit)."
        ),
    )
    rule_abortive = forms.ChoiceField(
        label=_("Abortive draws"),
        choices=abortive_choices,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "WRCR 2015 §5.7.3 and EMA: none. Tenhou: all five kinds; Mahjong Soul: all but three players "
            "winning on one discard. An abortive draw pays nothing and the dealer keeps the deal."
        ),
    )
    rule_abortive_draws = forms.MultipleChoiceField(
        label=_("Abortive draws allowed"),
        choices=abortive_kind_choices,
        required=False,
        initial=list,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "For “Only those ticked below”. Three players winning on one discard needs multiple ron."
        ),
    )
    rule_nagashi_mangan = rule_switch(
        label=_("Nagashi mangan"),
        help_text=_(
            "At an exhaustive draw, a player whose discards are all terminals and honours, none called, is "
            "paid a mangan instead of the noten payments (WRCR 2015 §5.7.2: no; Tenhou, Mahjong Soul: yes)."
        ),
    )
    rule_busting = rule_switch(
        label=_("Busting (tobi)"),
        help_text=_(
            "The hanchan ends as soon as a player's points are below zero (WRCR 2015 §4.1: no, the game "
            "continues; Tenhou, Mahjong Soul: yes)."
        ),
    )
    rule_counted_yakuman = rule_switch(
        label=_("Counted yakuman (kazoe yakuman)"),
        help_text=_(
            "13 han or more without a yakuman are paid as a yakuman (WRCR 2015 §6.1: no, a sanbaiman; "
            "Tenhou, Mahjong Soul: yes)."
        ),
    )
    rule_agari_yame = forms.ChoiceField(
        label=_("Agari yame"),
        choices=agari_yame_choices,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "When the South 4 dealer wins or is tenpai and leads with at least the West round's points "
            "(WRCR 2015 §5.9.1: no; Tenhou: the game ends; Mahjong Soul: the dealer chooses)."
        ),
    )
    rule_west_round_points = rule_number(
        *BOUNDS["west_round_points"],
        step=100,
        label=_("West round (sudden death): points to end"),
        help_text=_(
            "When nobody has this many points after South 4, the West round is played until somebody has "
            "them, West 4 at most; 0: no West round (WRCR 2015 §5.8; Tenhou, Mahjong Soul: 30,000)."
        ),
    )
    rule_east_only = rule_switch(
        label=_("East-only games"),
        help_text=_(
            "A game is the East round only, and with the West round's points its extension is the South "
            "round (WRCR 2015 §5.8: no, a hanchan of East and South; Tenhou and Mahjong Soul: their "
            "East-only lobbies)."
        ),
    )
    rule_multiple_ron_honba_each = rule_switch(
        label=_("Counters to every winner of a multiple ron"),
        help_text=_(
            "With multiple ron, each winner is paid the counters (honba); no: only the winner closest to "
            "the discarder (EMA 2016, EMA 2025: yes, where the texts are silent; Tenhou, Mahjong Soul: no). "
            "WRCR 2015 §5.7.6 has one winner."
        ),
    )
    rule_yakuman_accumulate = rule_switch(
        label=_("Yakuman add up (double yakuman)"),
        help_text=_(
            "A hand with several yakuman is paid one for each (WRCR 2015 §6.1, §6.5: no, yakuman are not "
            "cumulative; Tenhou, Mahjong Soul: yes)."
        ),
    )
    rule_renho_mangan = rule_switch(
        label=_("Blessing of Man (renhou) is a mangan"),
        help_text=_(
            "A mangan, not cumulative with other yaku or dora (WRCR 2015 §6.5.4: yes; EMA 2016, EMA 2025: "
            "no, a five han yaku)."
        ),
    )
    rule_liability = rule_switch(
        label=_("Liability (pao)"),
        help_text=_(
            "The player who let Big Three Dragons or Big Four Winds be completed pays for it (WRCR 2015 "
            "§6.2: yes; EMA 2016, EMA 2025: no)."
        ),
    )
    rule_kokushi_robs_concealed_kong = rule_switch(
        label=_("Thirteen Orphans may rob a concealed kong"),
        help_text=_(
            "WRCR 2015 §5.4.8, §6.5.1: yes, only for Thirteen Orphans; EMA 2016, EMA 2025: no, only a pung "
            "extended to a kong can be robbed."
        ),
    )
    rule_double_wind_pair_fu = rule_number(
        *BOUNDS["double_wind_pair_fu"],
        label=_("Double wind pair: fu"),
        help_text=_(
            "The fu of a pair of the wind that is both the seat's and the prevalent wind, 0 to 8 (WRCR 2015 "
            "§6.3: 4)."
        ),
    )
    rule_riichi_stick = rule_number(
        *BOUNDS["riichi_stick"],
        step=100,
        label=_("Riichi stake"),
        help_text=_(
            "The points a riichi declaration puts on the table, 0 to 10,000, a multiple of 100 (WRCR 2015 "
            "§5.6: 1,000)."
        ),
    )
    rule_honba_ron = rule_number(
        *BOUNDS["honba_ron"],
        step=100,
        label=_("Counter (honba) on a ron"),
        help_text=_(
            "What the discarder pays on top for each counter, 0 to 3,000, a multiple of 100 (WRCR 2015 "
            "§5.7.7: 300)."
        ),
    )
    rule_honba_tsumo_each = rule_number(
        *BOUNDS["honba_tsumo_each"],
        step=100,
        label=_("Counter (honba) on a self-draw, from each"),
        help_text=_(
            "What each of the three payers pays on top for each counter, 0 to 1,000, a multiple of 100 "
            "(WRCR 2015 §5.7.7: 100)."
        ),
    )
    rule_noten_total = rule_number(
        *BOUNDS["noten_total"],
        step=300,
        label=_("Noten payments in all"),
        help_text=_(
            "What the players not in tenpai pay those in tenpai at an exhaustive draw, 0 to 30,000, a "
            "multiple of 300 (WRCR 2015 §5.7.2: 3,000)."
        ),
    )
    rule_noten_riichi_chombo = rule_switch(
        label=_("A riichi declarer noten at the draw is chombo"),
        help_text=_("WRCR 2015 §7.2, EMA 2016, EMA 2025: yes; no: the draw is scored as it is."),
    )
    rule_chombo_table_payment = rule_switch(
        label=_("Chombo pays a mangan at the table"),
        help_text=_(
            "The offender pays 4,000 to the dealer and 2,000 to the others, or 4,000 to each as the dealer "
            "(the EMA 2016 card's penalty in social games; WRCR 2015 §7.1: no, a re-deal without payment)."
        ),
    )
    separate_teams_rule = forms.ChoiceField(
        label=_("Team mates"),
        choices=separation_choices,
        required=False,
        help_text=_("Whether the seating keeps players of one team apart."),
    )
    separate_clubs_rule = forms.ChoiceField(
        label=_("Club mates"),
        choices=separation_choices,
        required=False,
        help_text=_("Whether the seating keeps players of one club apart."),
    )
    separate_countries_rule = forms.ChoiceField(
        label=_("Compatriots"),
        choices=separation_choices,
        required=False,
        help_text=_("Whether the seating keeps players of one country apart."),
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


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=120, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=120, required=False)
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        required=False,
        help_text=_("As shown everywhere; empty: the first and last name."),
    )
    native_name = forms.CharField(
        label=_("Name in its own script"),
        max_length=120,
        required=False,
        help_text=_("Optional, e.g. 山田 太郎."),
    )
    country = forms.ChoiceField(
        label=_("Country"), choices=country_choices, required=False, widget=QuickSelect
    )
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    ema_id = forms.CharField(label=_("EMA id"), max_length=8, required=False, help_text=_("8 digits"))
    team = forms.CharField(label=_("Team"), max_length=120, required=False)
    is_substitute = forms.BooleanField(
        label=_("Substitute (plays when needed, never ranked)"), required=False
    )


class PlayerFileForm(forms.Form):
    file = forms.FileField(
        label=_("Player list (.csv or .xlsx)"),
        help_text=_(
            "Columns: name (or first name + last name), native name, country, club, ema id, team, "
            "substitute. At most 2 MB and 5,000 players."
        ),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                gettext("The file has %(size)s bytes; a player list is at most %(limit)s (2 MB).")
                % {
                    "size": number_format(upload.size, force_grouping=True),
                    "limit": number_format(MAX_FILE_BYTES, force_grouping=True),
                },
                code="file-size",
            )
        return upload


class ImportConfirmForm(forms.Form):
    token = forms.CharField(max_length=64, widget=forms.HiddenInput)


class CheckInForm(forms.Form):
    checked_in = forms.BooleanField(required=False)


class CheckInManyForm(forms.Form):
    """The players ticked at the door, checked in at once."""

    players = PlayersChoiceField(label=_("Players"), queryset=Player.objects.none())

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = tournament.players.exclude(status=Player.Status.WITHDRAWN)


class SeatingForm(forms.Form):
    from_round = forms.IntegerField(
        label=_("Seat from hanchan"), min_value=1, initial=1, help_text=_("Hanchan already started are kept.")
    )
    seed = forms.IntegerField(
        label=pgettext_lazy("random number", "Seed"),
        initial=0,
        min_value=-(2**31),
        max_value=2**31 - 1,
        help_text=_("Another seed gives another schedule of the same quality."),
    )
    prefer = forms.ChoiceField(
        label=_("When the players present are not a multiple of four"),
        choices=[
            ("substitutes", _("Substitutes complete the last table")),
            ("sit_out", _("Players sit out in turn, the last to check in first (no penalty)")),
        ],
        initial="substitutes",
        required=False,
    )

    def clean_prefer(self) -> str:
        return self.cleaned_data.get("prefer") or "substitutes"


class SwissForm(forms.Form):
    number = forms.IntegerField(label=_("Hanchan"), min_value=1, help_text=_("Not started yet."))
    seed = forms.IntegerField(
        label=pgettext_lazy("random number", "Seed"),
        initial=0,
        required=False,
        min_value=-(2**31),
        max_value=2**31 - 1,
    )


class ClockForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            ("start", pgettext_lazy("clock", "Start")),
            ("pause", pgettext_lazy("clock", "Pause")),
            ("extend", pgettext_lazy("clock", "Extend")),
        ],
    )
    minutes = forms.IntegerField(label=_("Minutes"), required=False, min_value=-60, max_value=60)


class TableTimeForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1)
    minutes = forms.IntegerField(label=_("Extra minutes"), min_value=-30, max_value=60)


class RoundChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return gettext("Hanchan %(number)s (%(status)s)") % {
            "number": obj.number,
            "status": obj.get_status_display().lower(),
        }


class SubstituteForm(forms.Form):
    round = RoundChoiceField(queryset=Round.objects.none(), label=_("Hanchan"))
    player = PlayerChoiceField(queryset=Player.objects.none(), label=_("Absent player"))
    substitute = PlayerChoiceField(queryset=Player.objects.none(), label=_("Substitute"))
    reason = forms.ChoiceField(
        label=_("Reason"), choices=[c for c in Absence.Reason.choices if c[0] != Absence.Reason.WITHDRAWN]
    )

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = tournament.rounds.exclude(status=Round.Status.FINISHED).exclude(
            status=Round.Status.PLANNED
        )
        self.fields["player"].queryset = tournament.players.filter(is_substitute=False)
        self.fields["substitute"].queryset = tournament.players.filter(is_substitute=True).exclude(
            status=Player.Status.WITHDRAWN
        )


class WithdrawForm(forms.Form):
    player = PlayerChoiceField(label=_("Player"), queryset=Player.objects.none())
    from_round = forms.IntegerField(label=_("From hanchan"), min_value=1)
    substitute = PlayerChoiceField(
        label=_("Substitute"),
        queryset=Player.objects.none(),
        required=False,
        help_text=_("Empty: re-seat the hanchan not started from the seating page instead."),
    )
    # Set by the confirmation step: the first post shows what the withdrawal will do.
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = tournament.players.filter(is_substitute=False).exclude(
            status=Player.Status.WITHDRAWN
        )
        self.fields["substitute"].queryset = tournament.players.filter(is_substitute=True).exclude(
            status=Player.Status.WITHDRAWN
        )


class StaffForm(forms.Form):
    """Give an existing account a role, or change it (removing is a button of its own)."""

    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])


class RemoveStaffForm(forms.Form):
    username = forms.CharField(max_length=150)


class InviteStaffForm(forms.Form):
    """A new account for a referee (or head referee, or organiser), its password shown once."""

    username = forms.CharField(
        label=_("User name"), max_length=150, help_text=_("Letters, digits and @ . + - _ (no spaces).")
    )
    email = forms.EmailField(label=_("Email"), required=False, help_text=_("Optional."))
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])


class InviteOrganiserForm(forms.Form):
    """A site admin invites an organiser: an account found by its user name or e-mail, else a new one
    whose owner sets its password through a link shown once."""

    name = forms.CharField(
        label=_("Name"),
        max_length=150,
        required=False,
        help_text=_("Optional: the person's name, as the admin's list of accounts shows it."),
    )
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_(
            "The new organiser's e-mail address. An account with this address is reused, not doubled."
        ),
    )
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        required=False,
        help_text=_(
            "What they sign in with: letters, digits and @ . + - _ (no spaces). Empty: made from the "
            "e-mail address. An existing account's name gives that account the organiser's permission."
        ),
    )

    def clean_name(self) -> str:
        return printable_line(self.cleaned_data["name"]).strip()

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("email") and not cleaned.get("username") and not self.errors:
            raise forms.ValidationError(
                gettext("Give an e-mail address or a user name."), code="organiser-invitation"
            )
        return cleaned


class PhaseForm(forms.Form):
    """One row of the phases page: a phase (``tournament.phases.PhasePlan``); a row left without a name
    is no phase."""

    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Semifinal")}),
    )
    hanchan = forms.IntegerField(label=_("Hanchan"), min_value=1, max_value=40, required=False)
    seating = forms.ChoiceField(
        label=_("Seating"), choices=Phase.Seating.choices, initial=Phase.Seating.OPTIMISED
    )
    carry_over = forms.ChoiceField(
        label=_("Carry-over"), choices=Phase.CarryOver.choices, initial=Phase.CarryOver.KEEP
    )
    advance = forms.IntegerField(
        label=_("Players kept by the cut"),
        min_value=4,
        max_value=10_000,
        required=False,
        help_text=_("A multiple of 4; empty for the first phase."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("name") and not data.get("hanchan"):
            self.add_error("hanchan", gettext("How many hanchan this phase has (1 to 40)."))
        return data


PhaseFormSet = forms.formset_factory(PhaseForm, extra=0, max_num=6, absolute_max=6, validate_max=True)


class CutForm(forms.Form):
    phase = forms.IntegerField(min_value=2, max_value=6, widget=forms.HiddenInput)
    chosen = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=_("Who advances")
    )

    def __init__(self, tied: list[tuple[int, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["chosen"].choices = tied


class CallUpForm(forms.Form):
    phase = forms.IntegerField(min_value=2, max_value=6, widget=forms.HiddenInput)
    player = forms.TypedChoiceField(coerce=int, label=_("The player who leaves"))

    def __init__(self, members: list[tuple[int, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = members


class AwardsForm(forms.Form):
    """The awards the organisers show (``Tournament.awards``; docs/awards.md defines each)."""

    awards = forms.MultipleChoiceField(
        label=_("Awards shown"),
        choices=Tournament.Award.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Shown on the awards page and the projector, computed from the score sheets entered hand by "
            "hand; the hanchan hidden from the public standings stay out of them until you reveal them."
        ),
    )


class SeriesForm(forms.Form):
    """A series' name, address, rule, tournaments and awards (the service checks the rule:
    tournament.series)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"), max_length=80, required=False, help_text=_("Empty: made from the name.")
    )
    rule = forms.ChoiceField(label=_("Rule"), choices=Series.Rule.choices)
    best_n = forms.IntegerField(
        label=_("Best N events"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("For the best-N rule."),
    )
    min_events = forms.IntegerField(
        label=_("Minimum number of events"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("For the average: fewer events are listed, not ranked."),
    )
    points = forms.CharField(
        label=_("Points per rank"),
        required=False,
        max_length=2000,
        help_text=_("For points per rank: the points of 1st, 2nd, 3rd… place, separated by commas."),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    awards = forms.MultipleChoiceField(
        label=_("Awards shown"),
        choices=Tournament.Award.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Shown on the series' awards page and projector, computed from the score sheets its tournaments "
            "entered hand by hand, as the public sees them."
        ),
    )

    def __init__(self, *args: Any, visible: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = visible  # type: ignore[attr-defined]

    def points_list(self) -> list[str]:
        return [part.strip() for part in self.cleaned_data.get("points", "").split(",") if part.strip()]


class ClubTableForm(forms.Form):
    """A club session's table: the player at each wind, East to North (``tournament.club``), or the four
    with the winds drawn. Every player of the session is offered, those present and free first; the
    service refuses the others, saying why."""

    draw_winds = forms.BooleanField(
        label=_("Draw the winds"),
        required=False,
        help_text=_("The four players' winds are drawn at random, as with the wind tiles at the table."),
    )

    def __init__(self, *args: Any, free: list[Player], others: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices: list[tuple[Any, Any]] = [("", "—")]
        if free:
            choices.append((gettext("Present and free"), [(p.pk, p.name) for p in free]))
        if others:
            choices.append((gettext("Playing, or not checked in"), [(p.pk, p.name) for p in others]))
        labels = dict(Seat.Wind.choices)
        for wind, name in enumerate(WINDS):
            self.fields[name] = forms.TypedChoiceField(
                label=labels[wind], choices=choices, coerce=int, required=False, empty_value=None
            )
        self.order_fields([*WINDS, "draw_winds"])

    def seats(self) -> list[int | None]:
        return [self.cleaned_data.get(name) for name in WINDS]


def rule_label(field: str) -> str:
    """The words the tournament form uses for ruleset field ``field`` (``uma``: "Uma"), in the reader's
    language; the field's name where the form has none."""
    if field == "uma":
        return gettext("Uma")
    names = {
        rule: name
        for mapping in (RULE_NUMBERS, RULE_SWITCHES, RULE_CHOICES)
        for name, rule in mapping.items()
    }
    form_field = TournamentForm.base_fields.get(names.get(field, ""))
    if form_field is None or not form_field.label:
        return field.replace("_", " ")
    return str(form_field.label)


class SignUpForm(forms.Form):
    """A player's own sign-up (``tournament.services.signups`` checks it, naming each field)."""

    last_name = forms.CharField(label=_("Last name (Latin letters)"), max_length=60)
    first_name = forms.CharField(label=_("First name (Latin letters)"), max_length=60)
    native_name = forms.CharField(label=_("Name in its own script"), max_length=60, required=False)
    country = CountryField(blank=True).formfield(label=_("Country"), required=False, widget=QuickSelect)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    ema_id = forms.CharField(label=_("EMA number"), max_length=8, required=False)
    email = forms.CharField(label=_("Email"), max_length=254)
    nicknames = forms.CharField(label=_("Online nicknames"), max_length=120, required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    consent = forms.BooleanField(label=_("I agree"), required=False)
    website = forms.CharField(label=_("Leave this empty"), required=False)  # the honeypot


class SignUpEditForm(SignUpForm):
    """Staff's correction of a sign-up: the sign-up form's fields, without the consent (the player's
    own) and the hidden field (``tournament.services.signups.edit`` checks them as at sign-up)."""

    consent = None
    website = None


class AnnouncementForm(forms.Form):
    """The organiser's announcement to the sign-ups (``tournament.services.signups.announce`` checks it,
    naming each field: required, at most 150 and 5,000 characters, printable)."""

    subject = forms.CharField(
        label=_("Subject"), required=False, strip=False, widget=forms.TextInput(attrs={"maxlength": 150})
    )
    text = forms.CharField(
        label=_("Text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "maxlength": 5000}),
        help_text=_("Sent as written, after a greeting in each player's language and before their own link."),
    )
    waiting_list = forms.BooleanField(label=_("To the waiting list too"), required=False)


class RegistrationSettingsForm(forms.ModelForm):
    """The organiser's registration settings (``tournament.services.signups.configure``): its moments are
    entered and shown in the venue's time zone (the page's, ``views.base.access_tournament``)."""

    class Meta:
        model = RegistrationSettings
        fields = list(RegistrationSettings.EDITABLE)
        widgets = {
            "opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "consent_text": forms.Textarea(attrs={"rows": 3}),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens is not None and closes is not None and closes <= opens:
            self.add_error("closes_at", _("Registration closes after it opens."))
        return data
