"""The organisers' forms: players by hand or by file, check-in, staff and invitations, awards, series."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.core.spreadsheets import MAX_FILE_BYTES
from tournament.forms.fields import PlayersChoiceField, country_choices, printable_line
from tournament.forms.widgets import QuickSelect
from tournament.models import (
    Player,
    Series,
    StaffRole,
    Tournament,
)


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=120, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=120, required=False)
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        required=False,
        help_text=_("As shown everywhere; empty: the first and last name."),
    )
    native_name = forms.CharField(
        label=_("Name in its own script"),
        max_length=120,
        required=False,
        help_text=_("Optional, e.g. 山田 太郎."),
    )
    country = forms.ChoiceField(
        label=_("Country"), choices=country_choices, required=False, widget=QuickSelect
    )
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    ema_id = forms.CharField(label=_("EMA id"), max_length=8, required=False, help_text=_("8 digits"))
    team = forms.CharField(label=_("Team"), max_length=120, required=False)
    is_substitute = forms.BooleanField(
        label=_("Substitute (plays when needed, never ranked)"), required=False
    )


class PlayerFileForm(forms.Form):
    file = forms.FileField(
        label=_("Player list (.csv or .xlsx)"),
        help_text=_(
            "Columns: name (or first name + last name), native name, country, club, ema id, team, "
            "substitute. At most 2 MB and 5,000 players."
        ),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                gettext("The file has %(size)s bytes; a player list is at most %(limit)s (2 MB).")
                % {
                    "size": number_format(upload.size, force_grouping=True),
                    "limit": number_format(MAX_FILE_BYTES, force_grouping=True),
                },
                code="file-size",
            )
        return upload


class ImportConfirmForm(forms.Form):
    token = forms.CharField(max_length=64, widget=forms.HiddenInput)


class CheckInForm(forms.Form):
    checked_in = forms.BooleanField(required=False)


class CheckInManyForm(forms.Form):
    """The players ticked at the door, checked in at once."""

    players = PlayersChoiceField(label=_("Players"), queryset=Player.objects.none())

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = tournament.players.exclude(status=Player.Status.WITHDRAWN)


class StaffForm(forms.Form):
    """Give an existing account a role, or change it (removing is a button of its own)."""

    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])


class RemoveStaffForm(forms.Form):
    username = forms.CharField(max_length=150)


class InviteStaffForm(forms.Form):
    """A new account for a referee (or head referee, or organiser), its password shown once."""

    username = forms.CharField(
        label=_("User name"), max_length=150, help_text=_("Letters, digits and @ . + - _ (no spaces).")
    )
    email = forms.EmailField(label=_("Email"), required=False, help_text=_("Optional."))
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])


class InviteOrganiserForm(forms.Form):
    """A site admin invites an organiser: an account found by its user name or e-mail, else a new one
    whose owner sets its password through a link shown once."""

    name = forms.CharField(
        label=_("Name"),
        max_length=150,
        required=False,
        help_text=_("Optional: the person's name, as the admin's list of accounts shows it."),
    )
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_(
            "The new organiser's e-mail address. An account with this address is reused, not doubled."
        ),
    )
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        required=False,
        help_text=_(
            "What they sign in with: letters, digits and @ . + - _ (no spaces). Empty: made from the "
            "e-mail address. An existing account's name gives that account the organiser's permission."
        ),
    )

    def clean_name(self) -> str:
        return printable_line(self.cleaned_data["name"]).strip()

    def clean_username(self) -> str:
        return printable_line(self.cleaned_data["username"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("email") and not cleaned.get("username") and not self.errors:
            raise forms.ValidationError(
                gettext("Give an e-mail address or a user name."), code="organiser-invitation"
            )
        return cleaned


class AwardsForm(forms.Form):
    """The awards the organisers show (``Tournament.awards``; docs/awards.md defines each)."""

    awards = forms.MultipleChoiceField(
        label=_("Awards shown"),
        choices=Tournament.Award.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Shown on the awards page and the projector, computed from the score sheets entered hand by "
            "hand; the hanchan hidden from the public standings stay out of them until you reveal them."
        ),
    )


class SeriesForm(forms.Form):
    """A series' name, address, rule, tournaments and awards (the service checks the rule:
    tournament.series)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Address"), max_length=80, required=False, help_text=_("Empty: made from the name.")
    )
    rule = forms.ChoiceField(label=_("Rule"), choices=Series.Rule.choices)
    best_n = forms.IntegerField(
        label=_("Best N events"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("For the best-N rule."),
    )
    min_events = forms.IntegerField(
        label=_("Minimum number of events"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("For the average: fewer events are listed, not ranked."),
    )
    points = forms.CharField(
        label=_("Points per rank"),
        required=False,
        max_length=2000,
        help_text=_("For points per rank: the points of 1st, 2nd, 3rd… place, separated by commas."),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    awards = forms.MultipleChoiceField(
        label=_("Awards shown"),
        choices=Tournament.Award.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Shown on the series' awards page and projector, computed from the score sheets its tournaments "
            "entered hand by hand, as the public sees them."
        ),
    )

    def __init__(self, *args: Any, visible: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = visible  # type: ignore[attr-defined]

    def points_list(self) -> list[str]:
        return [part.strip() for part in self.cleaned_data.get("points", "").split(",") if part.strip()]
