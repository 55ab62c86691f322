"""A player's name as the reader sees it (``tournament.core.names.shown_name``): ``{{ player|shown_name }}``
for a player, ``{% row_name row.name row.player shown_names %}`` for a row of the standings (the view
gives ``shown_names``, each player whose shown name is not the Latin one);
``{{ player.country|country_name }}``
for a country's name in the reader's language."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.utils import translation
from django_countries.fields import Country

from tournament.core.names import shown_name as name_for_language

register = template.Library()


@register.filter
def shown_name(player: Any) -> str:
    """The player's name in the reader's language: native or Latin."""
    if player is None:
        return ""
    return name_for_language(player.name, player.native_name, translation.get_language() or "")


@register.simple_tag
def row_name(name: str, player_id: int, shown_names: dict[int, str] | None) -> str:
    """The name of a standings row, as ``shown_names`` (the view's, for the reader's language) has it."""
    return (shown_names or {}).get(player_id, name)


@lru_cache(maxsize=4096)
def _country_name(code: str, language: str) -> str:
    return str(Country(code).name)  # in the active language, which is ``language``


@register.filter
def country_name(country: Any) -> str:
    """A country's name (a ``Country`` or its code) in the reader's language, "" for none. Each name is kept
    per language: django_countries looks it up again each time (0.1 ms, a fifth of the time of a list of
    150 sign-ups)."""
    code = str(getattr(country, "code", country) or "")
    return _country_name(code, translation.get_language() or "") if code else ""
