"""Which text a rule comes from, in the words of the tournament's own ruleset.

Pages and messages name the rule they apply; an EMA event should read its own rules, not WRCR 2015. Each
preset cites its text by name and section where it has one (WRCR 2015 numbers its sections; the EMA
scoring card and the EMA 2025 overview name their headings). Where a preset's text says nothing of a
topic (the EMA texts have no clock, no substitutes, no missed hanchan), the product follows WRCR 2015 and
says so. A custom ruleset cites the preset it is built on.

The citation inside a refusal's ``rule`` is an identifier and stays English; a page shows it in its
reader's language (``translated=True``): the documents' names and headings are their own (they are
English texts), only "where ... is silent" is ours to translate.
"""

from __future__ import annotations

from scoring.rules.i18n import _, gettext_noop

TOPICS = (
    "chombo",
    "penalties",
    "lateness",
    "missed_hanchan",
    "substitutes",
    "disqualification",
    "time_limit",
    "signing",
    "end_of_game",
    "uma",
)

WRCR_2015 = {
    "chombo": "WRCR 2015 §7.1",
    "penalties": "WRCR 2015 §7.1",
    "lateness": "WRCR 2015 §7.2",
    "missed_hanchan": "WRCR 2015 §7.2",
    "substitutes": "WRCR 2015 §7.2",
    "disqualification": "WRCR 2015 §7.1",
    "time_limit": "WRCR 2015 §8.2",
    "signing": "WRCR 2015 §8.2",
    "end_of_game": "WRCR 2015 §5.9.1",
    "uma": "WRCR 2015 §5.9.2",
}

OWN_TEXTS = {
    "EMA2016": {
        "chombo": "EMA 2016 scoring card, Chombo",
        "penalties": "EMA 2016 scoring card, Chombo (penalty in tournaments)",
        "uma": "EMA 2016 scoring card",
    },
    "EMA2025": {
        "chombo": "EMA 2025 rules, penalties overview (chombo)",
        "penalties": "EMA 2025 rules, point penalties",
        "lateness": "EMA 2025 rules, point penalties (being late to a session)",
        "disqualification": "EMA 2025 rules, disqualification",
        "signing": "EMA 2025 rules, point penalties (unsigned score sheet)",
    },
    # The online presets: the operators' published rules (docs/rules-engine.md, "Online presets").
    "TENHOU": {
        "end_of_game": "Tenhou rules (tenhou.net/man), end of the game and busting",
        "uma": "Tenhou rules (tenhou.net/man), uma and oka",
    },
    "MAHJONGSOUL": {
        "end_of_game": "Mahjong Soul rules, end of the game and busting",
        "uma": "Mahjong Soul rules, uma",
    },
}
SILENT = {
    "EMA2016": gettext_noop("the EMA 2016 scoring card is silent"),
    "EMA2025": gettext_noop("the EMA 2025 rules are silent"),
    "TENHOU": gettext_noop("Tenhou's rules are silent"),
    "MAHJONGSOUL": gettext_noop("Mahjong Soul's rules are silent"),
}


def cite(preset: str, topic: str, *, translated: bool = False) -> str:
    """The citation of ``topic`` for a tournament on ``preset`` (a preset name: WRC2015, EMA2016...), in
    the active language when ``translated`` (a page), else in English (a rule identifier)."""
    if topic not in WRCR_2015:
        raise ValueError(f"topic: {topic!r} is not one of {', '.join(TOPICS)}")
    own = OWN_TEXTS.get(preset)
    if own is None:
        return WRCR_2015[topic]
    if topic in own:
        return own[topic]
    if translated:
        return _("{wrcr}, where {silent}").format(wrcr=WRCR_2015[topic], silent=_(SILENT[preset]))
    return f"{WRCR_2015[topic]}, where {SILENT[preset]}"
