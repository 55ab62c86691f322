"""The REST API's shapes for score sheets: what a referee sends, and the sheet with its history.

The entry itself is the rules engine's sheet format (``scoring.services`` documents it); these
serializers only check that it is a JSON object and pass it on: the engine is the one judge of it.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring import services
from scoring.models import ScoreSheet, SheetConfirmation, SheetVersion

ENTRY_HELP = (
    'The sheet in the rules engine\'s format, players by name: {"form": "final", "final_points": '
    '{name: points}, "riichi_sticks_left": n, "chombo": [name]} or {"form": "hands", "hands": [...], '
    '"final_points": {...}, "ended_by_time": false}, each hand an outcome or the four point changes; a win '
    'gives han and fu, or its yaku: "yaku": ["pinfu", "tanyao"], "open", "dora", "ura_dora", "aka_dora" '
    "(docs/rules-engine.md, Wins entered by their yaku)."
)


class SheetEntrySerializer(serializers.Serializer[Any]):
    entry = serializers.DictField(help_text=ENTRY_HELP)
    submit = serializers.BooleanField(
        required=False, default=False, help_text="true: submit for signing (the hanchan must be over)."
    )


class SheetUpdateSerializer(SheetEntrySerializer):
    expected_version = serializers.IntegerField(
        min_value=1, help_text="The version being edited; a sheet changed meanwhile is a conflict (409)."
    )


class SheetFromLogSerializer(serializers.Serializer[Any]):
    log = serializers.JSONField(
        required=False,
        help_text="An online game's log in the tenhou.net/6 JSON format (the JSON object, or a text "
        "holding it) or Tenhou's own mjlog XML (a text starting with <mjloggm), at most 1 MB; the answer's "
        "format says which was read. Or leave it out and give a link.",
    )
    link = serializers.CharField(
        required=False,
        max_length=300,
        help_text="Instead of the log: a Tenhou replay link (https://tenhou.net/0/?log=..., &tw= allowed) "
        "or a game id; the game's mjlog XML is fetched from Tenhou (TENHOU_LOG_URL).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("log" in attrs) == ("link" in attrs):
            raise serializers.ValidationError({"log": "give the log or a link, one of the two"})
        return attrs

    mapping = serializers.DictField(
        child=serializers.CharField(max_length=200),
        required=False,
        default=dict,
        help_text="The log's nicknames that are not the seated players' names: {log name: player name}.",
    )
    expected_version = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="The version of the table's draft to replace; left out when the table has no sheet yet.",
    )
    reseat_winds = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: the table sat as in the log, whose seats differ from the table's winds; the four "
        "players' winds become the log's (a head referee; refused once the sheet is signed).",
    )


class SheetCheckSerializer(serializers.Serializer[Any]):
    entry = serializers.DictField(help_text=ENTRY_HELP)


class SignSheetSerializer(serializers.Serializer[Any]):
    expected_version = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, default=None, help_text="The version the referee read."
    )


class CorrectSheetSerializer(serializers.Serializer[Any]):
    entry = serializers.DictField(help_text=ENTRY_HELP)
    reason = serializers.CharField(allow_blank=True, help_text="Why the signed sheet changes (required).")
    expected_version = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class SheetErrorSerializer(serializers.Serializer[Any]):
    hand = serializers.IntegerField(allow_null=True, help_text="The hand's number on the sheet, or null.")
    field = serializers.CharField(allow_null=True, required=False)
    rule = serializers.CharField()
    message = serializers.CharField()


class SheetVerdictSerializer(serializers.Serializer[Any]):
    """The rules engine's verdict. Valid: the replay (final points, ranks, uma, scores, chombo and, hand
    by hand, each hand's payments). Invalid: every error, each naming its hand and rule."""

    valid = serializers.BooleanField()
    errors = SheetErrorSerializer(many=True, required=False)
    final_points = serializers.DictField(child=serializers.IntegerField(), required=False)
    ranks = serializers.DictField(child=serializers.IntegerField(), required=False)
    uma = serializers.DictField(child=serializers.CharField(), required=False)
    scores = serializers.DictField(child=serializers.CharField(), required=False)


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class SheetVersionSerializer(serializers.ModelSerializer[SheetVersion]):
    author = serializers.SerializerMethodField()

    class Meta:
        model = SheetVersion
        fields = (
            "version",
            "action",
            "status",
            "entry",
            "replay",
            "content_hash",
            "author",
            "at",
            "reason",
            "findings",
        )
        read_only_fields = fields

    def get_author(self, version: SheetVersion) -> str | None:
        return username(version.author)


class SignatureSerializer(serializers.Serializer[Any]):
    """The history's entry that signed the sheet's current version (``ScoreSheet.signature``)."""

    version = serializers.IntegerField(read_only=True)
    action = serializers.ChoiceField(
        choices=["signed", "corrected", "confirmed"],
        read_only=True,
        help_text="signed: a referee signed; corrected: a head referee or organiser corrected the signed "
        "sheet; confirmed: the four players agreed (players' entry).",
    )
    by = serializers.CharField(
        source="author_name",
        read_only=True,
        allow_null=True,
        help_text="null: the table, or a deleted account.",
    )
    at = serializers.DateTimeField(read_only=True)


class PublicSheetSerializer(serializers.ModelSerializer[ScoreSheet]):
    """A signed sheet as anyone who can see the tournament sees it; ``signed_at`` and ``signature`` say
    when (and how) its current version was signed, from its history."""

    table = serializers.IntegerField(source="table_id", read_only=True)
    tournament = serializers.IntegerField(source="table.round.tournament_id", read_only=True)
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    signed_at = serializers.DateTimeField(source="signature.at", read_only=True, default=None)
    signature = SignatureSerializer(read_only=True, allow_null=True)

    class Meta:
        model = ScoreSheet
        fields = (
            "id",
            "tournament",
            "round",
            "table",
            "table_number",
            "status",
            "form",
            "version",
            "entry",
            "replay",
            "content_hash",
            "signed_at",
            "signature",
        )
        read_only_fields = fields


class SheetSerializer(PublicSheetSerializer):
    """A sheet as the tournament's staff see it: who did what, every version (``history``), and the
    findings of the game log its current version was read from (``findings``; null when entered by
    hand)."""

    created_by = serializers.SerializerMethodField()
    submitted_by = serializers.SerializerMethodField()
    signed_by = serializers.SerializerMethodField()
    signed_by_table = serializers.BooleanField(
        read_only=True,
        help_text="Signed because the four players agreed (players' entry); signed_by is null.",
    )
    history = SheetVersionSerializer(source="versions", many=True, read_only=True)
    findings = serializers.SerializerMethodField()

    class Meta(PublicSheetSerializer.Meta):
        fields = (
            *PublicSheetSerializer.Meta.fields,
            "created_by",
            "created_at",
            "updated_at",
            "submitted_by",
            "submitted_at",
            "signed_by",
            "signed_by_table",
            "findings",
            "history",
        )
        read_only_fields = fields

    def get_created_by(self, sheet: ScoreSheet) -> str | None:
        return username(sheet.created_by)

    def get_submitted_by(self, sheet: ScoreSheet) -> str | None:
        return username(sheet.submitted_by)

    def get_signed_by(self, sheet: ScoreSheet) -> str | None:
        return sheet.signature.author_name if sheet.signature else None

    def get_findings(self, sheet: ScoreSheet) -> list[dict[str, Any]] | None:
        return services.log_findings(sheet)


class AnswerSheetSerializer(serializers.Serializer[Any]):
    """A seated player's answer to one version of the sheet (players' entry)."""

    version = serializers.IntegerField(min_value=1, max_value=1_000_000, help_text="The version answered.")


class DisputeSheetSerializer(AnswerSheetSerializer):
    reason = serializers.CharField(
        max_length=500, allow_blank=True, help_text="What is wrong with the sheet (required, printable)."
    )


class ConfirmationSerializer(serializers.ModelSerializer[SheetConfirmation]):
    player = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = SheetConfirmation
        fields = ("player", "version", "decision", "reason", "at")
        read_only_fields = fields


class PlayerSheetSerializer(PublicSheetSerializer):
    """The sheet as a player seated at its table sees it: any status, with the answers to its current
    version (no history: that is the staff's)."""

    confirmations = serializers.SerializerMethodField()

    class Meta(PublicSheetSerializer.Meta):
        fields = (*PublicSheetSerializer.Meta.fields, "disputed_at", "confirmations")
        read_only_fields = fields

    def get_confirmations(self, sheet: ScoreSheet) -> list[dict[str, Any]]:
        answers = sheet.confirmations.filter(version=sheet.version).select_related("player")
        return list(ConfirmationSerializer(answers, many=True).data)


class SheetsFromLinksSerializer(serializers.Serializer[Any]):
    links = serializers.ListField(
        child=serializers.CharField(max_length=300),
        min_length=1,
        max_length=64,
        help_text="Tenhou replay links or game ids of the hanchan's games, one per table.",
    )
