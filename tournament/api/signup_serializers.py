"""The REST API's shapes for players' sign-ups (``tournament.api.signups``): what comes in is checked for
its form only (types, bounded sizes); every rule of a sign-up (required fields, Latin letters, the EMA
number, the email, the consent, printable text) is ``tournament.core.signups``', applied by the services the
views call, so the page and the API refuse the same input in the same words."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournament.core.signups import LIVE
from tournament.models import RegistrationSettings, SignUp
from tournament.services.signups import MOVES

# Bounds of the input's size, well above the rules' own limits (60 characters for a name, 1,000 for the
# note: ``tournament.core.signups``), which refuse with their own words.
LINE = 1000
TEXT = 20000


def _text(help_text: str = "", *, limit: int = LINE) -> serializers.CharField:
    return serializers.CharField(
        max_length=limit, allow_blank=True, required=False, trim_whitespace=False, help_text=help_text
    )


class SignUpFieldsSerializer(serializers.Serializer[Any]):
    """A sign-up's own fields, as the sign-up form has them."""

    last_name = _text("Last name, in Latin letters (required at sign-up).")
    first_name = _text("First name, in Latin letters (required at sign-up).")
    native_name = _text("The name in its own script.")
    country = _text("ISO 3166 alpha-2 code, or empty.")
    club = _text()
    ema_id = _text("The EMA number: 8 digits, or empty.")
    email = _text("Required at sign-up; the confirmation link is sent there.")
    nicknames = _text("Online nicknames (events played online).")
    note = _text("A note to the organiser.", limit=TEXT)


class SignUpInputSerializer(SignUpFieldsSerializer):
    """A player's own sign-up: the form's fields, the consent and the form's hidden field."""

    consent = serializers.BooleanField(
        required=False, default=False, help_text="Consent to the registration's consent text (required)."
    )
    website = _text("Leave empty (a field people never fill; a filled one stores nothing).")


class SignUpEditSerializer(SignUpFieldsSerializer):
    """Staff's correction of a sign-up: any of its fields; those left out stay as they are."""


class MoveSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(choices=[(state, state) for state in MOVES])


class PaidSerializer(serializers.Serializer[Any]):
    paid = serializers.BooleanField(required=False, default=True)


class CountsSerializer(serializers.Serializer[Any]):
    """What anyone sees of a registration's figures."""

    registered = serializers.IntegerField()
    places_left = serializers.IntegerField(allow_null=True, help_text="null: no limit.")
    waiting_list = serializers.IntegerField()


class RegistrationSerializer(serializers.Serializer[Any]):
    """A tournament's registration, as its public page shows it."""

    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    is_open = serializers.BooleanField(help_text="Whether sign-ups are taken now.")
    is_closed = serializers.BooleanField(help_text="Whether the closing moment has passed.")
    capacity = serializers.IntegerField(allow_null=True, help_text="The places; null: no limit.")
    needs_approval = serializers.BooleanField()
    waiting_list = serializers.BooleanField()
    entry_fee = serializers.CharField()
    consent_text = serializers.CharField(help_text="Empty: the site's own text (the sign-up page's).")
    online = serializers.BooleanField(help_text="Played online: the sign-up asks for nicknames.")
    accept_hours = serializers.IntegerField(
        allow_null=True,
        help_text="Hours the first on the waiting list has to accept a freed place; null: given at once.",
    )
    counts = CountsSerializer()


class RegistrationSettingsSerializer(serializers.ModelSerializer[RegistrationSettings]):
    """The organiser's settings of the registration, as the organisers' page sets them; those left out
    stay as they are. A moment without its offset is the venue's time."""

    class Meta:
        model = RegistrationSettings
        fields = RegistrationSettings.EDITABLE


class PublicSignUpSerializer(serializers.ModelSerializer[SignUp]):
    """A registered player on the public list: only what the player consented to publish."""

    country = serializers.CharField(source="country.code", read_only=True)

    class Meta:
        model = SignUp
        fields = ("name", "first_name", "last_name", "native_name", "country", "club")
        read_only_fields = fields


class OwnSignUpSerializer(serializers.ModelSerializer[SignUp]):
    """A player's own sign-up, read with its link's token."""

    country = serializers.CharField(source="country.code", read_only=True)
    waiting_position = serializers.SerializerMethodField(help_text="From 1; null when not waiting.")
    can_cancel = serializers.SerializerMethodField()

    class Meta:
        model = SignUp
        fields: tuple[str, ...] = (
            "name",
            "first_name",
            "last_name",
            "native_name",
            "country",
            "club",
            "ema_id",
            "email",
            "nicknames",
            "note",
            "state",
            "waiting_position",
            "can_cancel",
            "paid",
            "confirmed_at",
            "offer_expires_at",
        )
        read_only_fields: tuple[str, ...] = fields

    def get_waiting_position(self, signup: SignUp) -> int | None:
        position: int | None = self.context.get("positions", {}).get(signup.pk)
        return position

    def get_can_cancel(self, signup: SignUp) -> bool:
        return signup.state in LIVE


class StaffSignUpSerializer(OwnSignUpSerializer):
    """A sign-up as the organisers see it."""

    class Meta(OwnSignUpSerializer.Meta):
        fields = (
            "id",
            *OwnSignUpSerializer.Meta.fields,
            "language",
            "created_at",
            "player",
        )
        read_only_fields = fields


class CountryCountSerializer(serializers.Serializer[Any]):
    country = serializers.CharField(help_text="ISO 3166 alpha-2 code; empty: none given.")
    count = serializers.IntegerField()


class StaffCountsSerializer(serializers.Serializer[Any]):
    """The sign-ups by state, the places left and the sign-ups still in the event by country."""

    unconfirmed = serializers.IntegerField()
    registered = serializers.IntegerField()
    awaiting_approval = serializers.IntegerField()
    offered = serializers.IntegerField(help_text="Offered a place, to accept before the deadline.")
    waiting_list = serializers.IntegerField()
    cancelled = serializers.IntegerField()
    rejected = serializers.IntegerField()
    places_left = serializers.IntegerField(allow_null=True, help_text="null: no limit.")
    by_country = CountryCountSerializer(many=True)


class SentSerializer(serializers.Serializer[Any]):
    """The answer to a sign-up, the same whether the email was known or not."""

    sent = serializers.BooleanField()
    detail = serializers.CharField()


class MadePlayersSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(child=serializers.IntegerField(), help_text="The new players' ids.")


class AnnouncementInputSerializer(serializers.Serializer[Any]):
    """The organiser's announcement to the sign-ups (its rules, and their words, are the service's)."""

    subject = _text("One line, at most 150 characters (required).")
    text = _text("At most 5,000 characters, sent as written (required).", limit=TEXT)
    waiting_list = serializers.BooleanField(
        required=False, default=False, help_text="To the waiting list too, not only the registered."
    )


class AnnouncementSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    subject = serializers.CharField()
    text = serializers.CharField()
    waiting_list = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    recipients = serializers.IntegerField(help_text="The messages written, one per recipient.")
    sent = serializers.IntegerField(help_text="Of those, the ones the mail server has taken so far.")
