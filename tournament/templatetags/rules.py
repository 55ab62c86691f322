"""``{% cite "chombo" %}``: the rule a page names, from the tournament's own ruleset, in the page's
language."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.rules.citations import cite as cite_rule
from tournament.models import Tournament

register = template.Library()


@register.simple_tag(takes_context=True)
def cite(context: Any, topic: str) -> str:
    tournament = context.get("tournament")
    preset = tournament.ruleset_preset if isinstance(tournament, Tournament) else Tournament.Preset.WRC2015
    return cite_rule(preset, topic, translated=True)
