"""The tournament's rules as form fields: the numbers, switches and choices of a ruleset, their defaults
from the preset, and each rule's label."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules.ruleset import (
    ABORTIVE_DRAWS,
    AGARI_YAME_ALWAYS,
    AGARI_YAME_OPTIONAL,
    BOUNDS,
    UMA_BOUND,
    Ruleset,
)
from tournament.models import (
    Tournament,
)

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


# A new tournament's form shows these first, the only fields without a default (the address follows
# the name); the other parts come folded after them.
NEEDED_FIRST = ("name", "slug", "starts_on", "ends_on", "hanchan_count")


class RuleFields(forms.Form):
    """The rules' fields of the tournament's settings form (``TournamentForm``), each a rule of the
    ruleset or the seating's separation; their cleaning into the ruleset is the settings form's."""

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
    form_field = RuleFields.base_fields.get(names.get(field, ""))
    if form_field is None or not form_field.label:
        return field.replace("_", " ")
    return str(form_field.label)
