"""Forms of the score-sheet pages. The entry itself is the rules engine's JSON (see
``scoring.services``), built by the sheet editor in the browser; the engine checks it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rules.tenhou import MAX_LOG_BYTES, RESEAT_LABEL
from tournament.forms.fields import BoundedJSONField


class EntryField(BoundedJSONField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(name="entry", **kwargs)

    def clean(self, value: Any) -> Any:
        entry = super().clean(value)
        if not isinstance(entry, dict):
            raise forms.ValidationError(_("The sheet must be a JSON object."))
        return entry


class SheetForm(forms.Form):
    entry = EntryField(widget=forms.HiddenInput)
    action = forms.ChoiceField(
        choices=[("draft", gettext_lazy("Save draft")), ("submit", gettext_lazy("Submit"))]
    )
    # The version the referee edited; empty for a new sheet.
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class SignForm(forms.Form):
    expected_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CorrectionForm(forms.Form):
    entry = EntryField(widget=forms.HiddenInput)
    expected_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Why the signed sheet changes; it stays in the sheet's history."),
    )


class AnswerForm(forms.Form):
    """A seated player's answer to one version of the sheet: agree, or dispute with a reason."""

    version = forms.IntegerField(min_value=1, max_value=1_000_000, widget=forms.HiddenInput)
    reason = forms.CharField(
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 500}),
        help_text=gettext_lazy("What is wrong with the sheet: a referee comes to the table."),
    )


class GameLogForm(forms.Form):
    """An online game's log (tenhou.net/6 JSON) as a file or pasted, and the names of the log mapped to
    the table's players where they differ, one ``log name = player name`` a line."""

    log_file = forms.FileField(required=False, label=gettext_lazy("Log file"))
    log_text = forms.CharField(
        required=False,
        max_length=MAX_LOG_BYTES,
        strip=False,
        label=gettext_lazy("or the log pasted"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    log_links = forms.CharField(
        required=False,
        max_length=64 * 300,
        label=gettext_lazy("or Tenhou replay links"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    mapping = forms.CharField(
        required=False,
        max_length=1000,
        label=gettext_lazy("Names that differ"),
        help_text=gettext_lazy(
            "One a line: the log's name = the player's name (names that match are found alone)."
        ),
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 1000}),
    )
    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    # The table sat as in the log, not as seated here: its winds become the log's (a head referee).
    reseat_winds = forms.BooleanField(required=False, label=gettext_lazy(RESEAT_LABEL))

    def clean_mapping(self) -> dict[str, str]:
        mapping: dict[str, str] = {}
        for number, line in enumerate(self.cleaned_data["mapping"].splitlines(), 1):
            if not line.strip():
                continue
            log_name, equals, player = line.partition("=")
            if not equals or not log_name.strip() or not player.strip():
                raise forms.ValidationError(
                    _("Line {number}: write the log's name = the player's name.").format(number=number)
                )
            mapping[log_name.strip()] = player.strip()
        return mapping

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload, text = data.get("log_file"), data.get("log_text")
        links = [line.strip() for line in (data.get("log_links") or "").splitlines() if line.strip()]
        data["links"] = links
        if [bool(upload), bool(text), bool(links)].count(True) != 1:
            raise forms.ValidationError(
                _("Give the game log as a file, pasted or as Tenhou replay links, one of the three.")
            )
        if links:
            data["log"] = None
            return data
        if upload:
            if upload.size > MAX_LOG_BYTES:
                raise forms.ValidationError(
                    _("The log file is larger than {limit} bytes.").format(limit=f"{MAX_LOG_BYTES:,}")
                )
            data["log"] = upload.read()
        else:
            data["log"] = text
        return data
