"""Players signing up themselves, the organisers' correction of a sign-up, and the registration's settings."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from tournament.forms.widgets import QuickSelect
from tournament.models import (
    RegistrationSettings,
)


class SignUpForm(forms.Form):
    """A player's own sign-up (``tournament.services.signups`` checks it, naming each field)."""

    last_name = forms.CharField(label=_("Last name (Latin letters)"), max_length=60)
    first_name = forms.CharField(label=_("First name (Latin letters)"), max_length=60)
    native_name = forms.CharField(label=_("Name in its own script"), max_length=60, required=False)
    country = CountryField(blank=True).formfield(label=_("Country"), required=False, widget=QuickSelect)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    ema_id = forms.CharField(label=_("EMA number"), max_length=8, required=False)
    email = forms.CharField(label=_("Email"), max_length=254)
    nicknames = forms.CharField(label=_("Online nicknames"), max_length=120, required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    consent = forms.BooleanField(label=_("I agree"), required=False)
    website = forms.CharField(label=_("Leave this empty"), required=False)  # the honeypot


class SignUpEditForm(SignUpForm):
    """Staff's correction of a sign-up: the sign-up form's fields, without the consent (the player's
    own) and the hidden field (``tournament.services.signups.edit`` checks them as at sign-up)."""

    consent = None
    website = None


class AnnouncementForm(forms.Form):
    """The organiser's announcement to the sign-ups (``tournament.services.announcements.announce`` checks it,
    naming each field: required, at most 150 and 5,000 characters, printable)."""

    subject = forms.CharField(
        label=_("Subject"), required=False, strip=False, widget=forms.TextInput(attrs={"maxlength": 150})
    )
    text = forms.CharField(
        label=_("Text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "maxlength": 5000}),
        help_text=_("Sent as written, after a greeting in each player's language and before their own link."),
    )
    waiting_list = forms.BooleanField(label=_("To the waiting list too"), required=False)


class RegistrationSettingsForm(forms.ModelForm):
    """The organiser's registration settings (``tournament.services.signups.configure``): its moments are
    entered and shown in the venue's time zone (the page's, ``views.base.access_tournament``)."""

    class Meta:
        model = RegistrationSettings
        fields = list(RegistrationSettings.EDITABLE)
        widgets = {
            "opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "consent_text": forms.Textarea(attrs={"rows": 3}),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens is not None and closes is not None and closes <= opens:
            self.add_error("closes_at", _("Registration closes after it opens."))
        return data
