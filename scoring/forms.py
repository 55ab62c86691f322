"""Forms of the score-sheet pages. The entry itself is the rules engine's JSON (see
``scoring.services``), built by the sheet editor in the browser; the engine checks it."""

from __future__ import annotations

from typing import Any

from django import forms

from tournament.forms import BoundedJSONField


class EntryField(BoundedJSONField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(name="entry", **kwargs)

    def clean(self, value: Any) -> Any:
        entry = super().clean(value)
        if not isinstance(entry, dict):
            raise forms.ValidationError("The sheet must be a JSON object.")
        return entry


class SheetForm(forms.Form):
    entry = EntryField(widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[("draft", "Save draft"), ("submit", "Submit")])
    # The version the referee edited; empty for a new sheet.
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class SignForm(forms.Form):
    expected_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CorrectionForm(forms.Form):
    entry = EntryField(widget=forms.HiddenInput)
    expected_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Why the signed sheet changes; it stays in the sheet's history.",
    )


class AnswerForm(forms.Form):
    """A seated player's answer to one version of the sheet: agree, or dispute with a reason."""

    version = forms.IntegerField(min_value=1, max_value=1_000_000, widget=forms.HiddenInput)
    reason = forms.CharField(
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 500}),
        help_text="What is wrong with the sheet: a referee comes to the table.",
    )
