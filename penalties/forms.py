"""Forms of the penalties page; the amounts and their rules are ``penalties.services``'s."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from penalties.models import Penalty
from tournament.forms.fields import PlayerChoiceField, RoundChoiceField
from tournament.models import Player, Round, Tournament


class PenaltyForm(forms.Form):
    player = PlayerChoiceField(queryset=Player.objects.none(), label=_("Player"))
    kind = forms.ChoiceField(choices=Penalty.Kind.choices, label=_("Kind of penalty"))
    round = RoundChoiceField(queryset=Round.objects.none(), required=False, label=_("Hanchan"))
    points = forms.DecimalField(
        required=False,
        max_digits=7,
        decimal_places=2,
        label=_("Points"),
        help_text=_("Only for the referee's discretion (obstruction, information, phone, other)."),
    )
    minutes_late = forms.IntegerField(
        required=False, min_value=1, label=_("Minutes late"), help_text=_("Only for lateness: 1 to 10.")
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, label=_("Reason"))

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = tournament.players.order_by("name")
        self.fields["round"].queryset = tournament.rounds.order_by("number")


class RevokeForm(forms.Form):
    reason = forms.CharField(max_length=500, label=_("Reason"))


class DisqualifyForm(forms.Form):
    player = PlayerChoiceField(queryset=Player.objects.none(), label=_("Player"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = tournament.players.filter(disqualified=False).order_by("name")
