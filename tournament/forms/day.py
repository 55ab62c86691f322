"""The forms of the event's day: seating and re-seating, the clock, substitutes and withdrawals, phases and
cuts, a club session's tables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.core.club import WINDS
from tournament.forms.fields import PlayerChoiceField, RoundChoiceField
from tournament.models import (
    Absence,
    Phase,
    Player,
    Round,
    Seat,
    Tournament,
)


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


class PhaseForm(forms.Form):
    """One row of the phases page: a phase (``tournament.core.phases.PhasePlan``); a row left without a name
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


class ClubTableForm(forms.Form):
    """A club session's table: the player at each wind, East to North (``tournament.core.club``), or the four
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
