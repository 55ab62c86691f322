"""The REST API's shapes for penalties and disqualifications (WRCR 2015 §7).

Anyone who can see the tournament sees who has which active penalty for which hanchan; its staff also
see why, who gave it, and what was revoked, when and why.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from penalties.models import Disqualification, Penalty
from tournament.api.base import PlayerRefSerializer, RoundNumberField, TournamentPlayerField


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class PublicPenaltySerializer(serializers.ModelSerializer[Penalty]):
    player = PlayerRefSerializer(read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True, allow_null=True)

    class Meta:
        model = Penalty
        fields = ("id", "player", "kind", "points", "round")
        read_only_fields = fields


class PenaltySerializer(PublicPenaltySerializer):
    given_by = serializers.SerializerMethodField()
    reason = serializers.CharField(
        source="shown_reason",
        read_only=True,
        help_text="Why it was given: a score sheet's chombo described in the reader's language, any other "
        "reason in the words of the referee who gave it.",
    )
    revoked_by = serializers.SerializerMethodField()

    class Meta(PublicPenaltySerializer.Meta):
        fields = (
            *PublicPenaltySerializer.Meta.fields,
            "minutes_late",
            "reason",
            "sheet",
            "hand",
            "given_by",
            "given_at",
            "is_active",
            "revoked_by",
            "revoked_at",
            "revoke_reason",
        )
        read_only_fields = fields

    def get_given_by(self, penalty: Penalty) -> str | None:
        return username(penalty.given_by)

    def get_revoked_by(self, penalty: Penalty) -> str | None:
        return username(penalty.revoked_by)


class GivePenaltySerializer(serializers.Serializer[Any]):
    """The amount follows from the kind (chombo: the ruleset's; lateness: 1 a minute; missed hanchan: 30);
    ``points`` is the referee's amount for the discretionary kinds, which also need a ``reason``."""

    player = TournamentPlayerField(help_text="The player's id.")
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    round = RoundNumberField(required=False, allow_null=True, default=None, help_text="The hanchan number.")
    points = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        help_text='Discretionary kinds: a positive decimal with at most two places, e.g. "2.5".',
    )
    minutes_late = serializers.IntegerField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class RevokePenaltySerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(allow_blank=True, help_text="Why the penalty is revoked (required).")


class PublicDisqualificationSerializer(serializers.ModelSerializer[Disqualification]):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Disqualification
        fields = ("id", "player", "given_at")
        read_only_fields = fields


class DisqualificationSerializer(PublicDisqualificationSerializer):
    given_by = serializers.SerializerMethodField()

    class Meta(PublicDisqualificationSerializer.Meta):
        fields = (*PublicDisqualificationSerializer.Meta.fields, "reason", "given_by")
        read_only_fields = fields

    def get_given_by(self, record: Disqualification) -> str | None:
        return username(record.given_by)


class DisqualifySerializer(serializers.Serializer[Any]):
    player = TournamentPlayerField(help_text="The player's id.")
    reason = serializers.CharField(allow_blank=True, help_text="Why (required).")
