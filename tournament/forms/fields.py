"""The form fields and choices the forms of every page share: players and hanchan in their collation order,
countries, bounded JSON, a printable line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.fields import InvalidJSONInput
from django.forms.models import ModelChoiceIterator
from django.utils.translation import get_language, gettext
from django_countries import countries

from tournament.core.collation import name_key
from tournament.core.inputs import control_problem, read_json
from tournament.core.names import shown_name
from tournament.core.refusal import Refusal


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
    """JSON text read by ``tournament.core.inputs.read_json`` (bounded depth and size, no NUL, no lone
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


class RoundChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return gettext("Hanchan %(number)s (%(status)s)") % {
            "number": obj.number,
            "status": obj.get_status_display().lower(),
        }
