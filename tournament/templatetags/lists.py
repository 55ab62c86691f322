"""``{{ standings.pending|join_tables }}``: the numbers of the tables still waiting, as one piece of text
("2, 5"), for a translated sentence that names them (a loop cannot stand inside ``blocktranslate``);
``join_hanchan`` the same with their hanchan, a club session's tables being each a hanchan of its own."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils import translation
from django.utils.translation import gettext

register = template.Library()


@register.filter
def join_tables(pending: Iterable[dict[str, Any]]) -> str:
    return ", ".join(str(table["table"]) for table in pending)


@register.filter
def join_hanchan(pending: Iterable[dict[str, Any]]) -> str:
    return ", ".join(str(table["round"]) for table in pending)


@register.filter
def then_joined(labels: Iterable[str]) -> str:
    """Tie-break labels in the order applied, in a sentence: "head-to-head (…), then best placements (…)".
    Lower-cased after their capital, except in German, which writes its nouns with one."""
    words = [str(label) for label in labels]
    if not (translation.get_language() or "").startswith("de"):
        words = [word[:1].lower() + word[1:] for word in words]
    return gettext(", then ").join(words)
