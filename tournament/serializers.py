"""The REST API's shapes for tournaments, players, staff, rounds, tables and seating jobs.

Serializers here check the form of what comes in (types, required fields, ids that belong to the
tournament) and render what goes out; the rules themselves live in ``tournament.services``, which the
views in ``tournament.api`` call. No serializer here saves anything.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournament.core.inputs import RULE_PRINTABLE, control_problem
from tournament.core.player_files import MAX_FILE_BYTES
from tournament.core.standings import MAX_TIE_BREAKS, tie_breaks_problem
from tournament.models import (
    SERIES_FIELDS,
    TOURNAMENT_FIELDS,
    Absence,
    Phase,
    Player,
    Round,
    Seat,
    SeatingJob,
    Series,
    StaffRole,
    Table,
    Tournament,
)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.TieBreak.choices),
        max_length=MAX_TIE_BREAKS,
        required=False,
        help_text="Tie-breaks in the order applied to equal overall scores (most_firsts, best_hanchan, "
        "best_placements, head_to_head), each at most once; [] for shared ranks.",
    )

    awards = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.Award.choices),
        max_length=len(Tournament.Award.choices),
        required=False,
        help_text="The awards shown on the awards page and the projector (best_hand, most_wins, "
        "fewest_deal_ins, most_riichi, longest_dealer_streak, best_comeback, most_yakuman), each at most "
        "once; docs/awards.md defines them.",
    )

    def validate_awards(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Awards: each award at most once."), code="awards")
        return value

    def validate_tie_breaks(self, value: list[str]) -> list[str]:
        problem = tie_breaks_problem(value)
        if problem is not None:
            raise serializers.ValidationError(
                _("Tie-breaks: {problem}.").format(problem=problem), code="tie-breaks"
            )
        return value

    class Meta:
        model = Tournament
        fields = ("id", *TOURNAMENT_FIELDS, "created_at")
        read_only_fields = ("id", "created_at")


class PublicPlayerSerializer(serializers.ModelSerializer[Player]):
    """What anyone who can see the tournament sees of a player."""

    country = serializers.CharField(
        source="country.code", read_only=True, help_text="ISO 3166 alpha-2 code, or empty."
    )
    participation = serializers.SerializerMethodField(
        help_text="The player's state in the tournament now (tournament.participation): registered, "
        "checked_in, playing, absent, withdrawn, disqualified, did_not_start or substitute."
    )

    class Meta:
        model = Player
        fields = (
            "id",
            "name",
            "first_name",
            "last_name",
            "native_name",
            "country",
            "club",
            "team",
            "status",
            "participation",
        )
        read_only_fields = fields

    def get_participation(self, player: Player) -> str | None:
        states = self.context.get("states")  # the tournament's states, read once for a page of players
        if states is None:
            return None
        state = states.get(player.pk)
        return str(state) if state is not None else None


class PlayerSerializer(PublicPlayerSerializer):
    """A player as the tournament's staff see them; anyone else gets the public fields only (id, name,
    country, club, team, status)."""

    class Meta(PublicPlayerSerializer.Meta):
        fields = (
            *PublicPlayerSerializer.Meta.fields,
            "ema_id",
            "is_substitute",
            "disqualified",
            "checked_in_at",
            "registered_at",
        )
        read_only_fields = fields


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ("id", "name")
        read_only_fields = fields


class RegisterPlayerSerializer(serializers.Serializer[Any]):
    """One player registered by hand; ``tournament.services.register_player`` checks it like a file row."""

    name = serializers.CharField(
        max_length=200, allow_blank=True, required=False, default="", help_text="Empty: first and last name."
    )
    first_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    last_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    native_name = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    country = serializers.CharField(max_length=80, allow_blank=True, required=False, default="")
    club = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    ema_id = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    team = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    is_substitute = serializers.BooleanField(required=False, default=False)


class UpdatePlayerSerializer(serializers.Serializer[Any]):
    """A correction of a registration: any of its fields; ``tournament.services.update_player`` checks it."""

    name = serializers.CharField(max_length=200, required=False)
    first_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    last_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    native_name = serializers.CharField(max_length=120, allow_blank=True, required=False)
    country = serializers.CharField(max_length=80, allow_blank=True, required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    ema_id = serializers.CharField(max_length=40, allow_blank=True, required=False)
    team = serializers.CharField(max_length=120, allow_blank=True, required=False)
    is_substitute = serializers.BooleanField(required=False)


class PlayerFileSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="A CSV (UTF-8, comma or semicolon) or XLSX player list.")
    dry_run = serializers.BooleanField(
        required=False, default=False, help_text="true: check the file and show its rows, store nothing."
    )

    def validate_file(self, upload: Any) -> Any:
        if upload.size > MAX_FILE_BYTES:
            raise serializers.ValidationError(
                _("the file has {size} bytes; a player list is at most {most}").format(
                    size=number_format(upload.size, force_grouping=True),
                    most=number_format(MAX_FILE_BYTES, force_grouping=True),
                ),
                code="file-size",
            )
        return upload


class PlayerRowSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    club = serializers.CharField()
    ema_id = serializers.CharField()
    team = serializers.CharField()
    is_substitute = serializers.BooleanField()


class RowErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    line = serializers.IntegerField(help_text="The file's line (the header is line 1).")


class PlayerImportSerializer(serializers.Serializer[Any]):
    """The preview (``dry_run``) or the result of an import: every good row and every bad one."""

    valid = serializers.BooleanField()
    dry_run = serializers.BooleanField()
    imported = serializers.IntegerField(help_text="Players stored (0 on a dry run or a refused file).")
    rows = PlayerRowSerializer(many=True)
    errors = RowErrorSerializer(many=True)


class CheckInPlanQuerySerializer(serializers.Serializer[Any]):
    prefer = serializers.ChoiceField(
        choices=["substitutes", "sit_out"],
        default="substitutes",
        help_text="substitutes: substitutes complete the last table; sit_out: the last to check in sit out.",
    )


class CheckInPlanSerializer(serializers.Serializer[Any]):
    checked_in = serializers.IntegerField()
    tables = serializers.IntegerField()
    substitutes_needed = serializers.IntegerField()
    substitutes_available = serializers.IntegerField()
    short_of_substitutes = serializers.IntegerField()
    substitutes_not_checked_in = serializers.IntegerField(
        help_text="Substitutes registered but not checked in yet (check-in in use)."
    )
    substitutes_to_check_in = serializers.IntegerField(
        help_text="How many of the shortfall the substitutes not checked in yet cover: check them in."
    )
    substitutes_to_register = serializers.IntegerField(
        help_text="The shortfall left once every registered substitute is checked in: register more."
    )
    sitting_out = PlayerRefSerializer(many=True)


class TournamentPlayerField(serializers.PrimaryKeyRelatedField[Player]):
    """A player id, looked up among the players of the view's tournament (context ``tournament``)."""

    queryset = Player.objects.all()

    def get_queryset(self) -> Any:
        return Player.objects.filter(tournament=self.context["tournament"])


class RoundNumberField(serializers.SlugRelatedField[Round]):
    """A hanchan given by its number in the view's tournament (context ``tournament``)."""

    queryset = Round.objects.all()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="number", **kwargs)

    def get_queryset(self) -> Any:
        return Round.objects.filter(tournament=self.context["tournament"]).select_related("tournament")


class WithdrawSerializer(serializers.Serializer[Any]):
    from_round = serializers.IntegerField(min_value=1, help_text="The first hanchan the player misses.")
    substitute = TournamentPlayerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A substitute who takes the seat in every seated hanchan not started; without one, "
        "re-seat from from_round with a seating job.",
    )


class SubstituteSerializer(serializers.Serializer[Any]):
    round = RoundNumberField(help_text="The hanchan number.")
    substitute = TournamentPlayerField(help_text="The substitute's player id.")
    reason = serializers.ChoiceField(choices=Absence.Reason.choices, default=Absence.Reason.ABSENT)


class AbsenceSerializer(serializers.ModelSerializer[Absence]):
    round = serializers.IntegerField(source="round.number", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    substitute = PlayerRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Absence
        fields = ("id", "round", "player", "substitute", "reason", "recorded_at")
        read_only_fields = fields


class WithdrawalSerializer(serializers.Serializer[Any]):
    player = PlayerSerializer()
    absences = AbsenceSerializer(many=True)


class StaffRoleSerializer(serializers.ModelSerializer[StaffRole]):
    username = serializers.CharField(source="user.get_username", read_only=True)
    granted_by = serializers.SerializerMethodField()

    class Meta:
        model = StaffRole
        fields = ("id", "user", "username", "role", "granted_by", "granted_at")
        read_only_fields = fields

    def get_granted_by(self, staff: StaffRole) -> str | None:
        return staff.granted_by.get_username() if staff.granted_by else None


class PrintableSlugField(serializers.SlugRelatedField[Any]):
    """A slug looked up only when it is printable text: a NUL in it would reach the database's query."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            why = control_problem(data)
            if why is not None:
                raise serializers.ValidationError(f"{self.field_name}: {why}", code=RULE_PRINTABLE)
        return super().to_internal_value(data)


class GrantRoleSerializer(serializers.Serializer[Any]):
    username = PrintableSlugField(
        slug_field="username", queryset=get_user_model().objects.all(), help_text="The user's login name."
    )
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class InviteStaffSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, help_text="The new account's login name.")
    email = serializers.EmailField(required=False, default="")
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class InvitedStaffSerializer(serializers.Serializer[Any]):
    """The invited account: its role, and its password, given in this answer only."""

    username = serializers.CharField()
    role = serializers.CharField()
    password = serializers.CharField(help_text="Shown once: only its hash is stored.")


class ChangeRoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class ClockSerializer(serializers.Serializer[Any]):
    """``tournament.core.clock.Clock.as_dict``: state, when it runs out (while running), seconds left."""

    state = serializers.ChoiceField(choices=["stopped", "running", "paused", "over"])
    ends_at = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField()


class SeatSerializer(serializers.ModelSerializer[Seat]):
    wind_name = serializers.CharField(source="get_wind_display", read_only=True)
    player = PlayerRefSerializer(read_only=True)
    replaces = PlayerRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Seat
        fields = ("wind", "wind_name", "player", "replaces")
        read_only_fields = fields


class SheetStateSerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    version = serializers.IntegerField()


class TableSerializer(serializers.ModelSerializer[Table]):
    """A table of a hanchan: its seating, its extra minutes, the state of its score sheet."""

    round = serializers.IntegerField(source="round.number", read_only=True)
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    sheet = serializers.SerializerMethodField()
    seconds_left = serializers.SerializerMethodField(
        help_text="The hanchan clock's seconds left at this table, its extra minutes included."
    )

    class Meta:
        model = Table
        fields = ("id", "tournament", "round", "number", "extra_minutes", "seconds_left", "seats", "sheet")
        read_only_fields = fields

    @extend_schema_field(SheetStateSerializer(allow_null=True))
    def get_sheet(self, table: Table) -> dict[str, Any] | None:
        sheet = getattr(table, "sheet", None)
        return None if sheet is None else {"status": sheet.status, "version": sheet.version}

    def get_seconds_left(self, table: Table) -> float:
        return round(table.round.clock().seconds_left(timezone.now(), table.extra_minutes), 1)


class RoundTableSerializer(TableSerializer):
    class Meta(TableSerializer.Meta):
        fields = ("id", "number", "extra_minutes", "seconds_left", "seats", "sheet")
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A hanchan with its clock and its seating: every table, every seat."""

    clock = serializers.SerializerMethodField()
    seating_published = serializers.SerializerMethodField(
        help_text="Whether the public sees this hanchan's seating; without it, others get no tables."
    )
    tables = RoundTableSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ("number", "status", "mode", "starts_at", "clock", "seating_published", "tables")
        read_only_fields = fields

    @extend_schema_field(ClockSerializer())
    def get_clock(self, round_: Round) -> dict[str, object]:
        return round_.clock().as_dict(timezone.now())

    def get_seating_published(self, round_: Round) -> bool:
        return round_.seating_is_public

    def to_representation(self, round_: Round) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(round_)
        visible = self.context.get("visible_rounds")  # None: this user sees every hanchan's seating
        if visible is not None and round_.number not in visible:
            data["tables"] = []
        return data


class PublishSeatingSerializer(serializers.Serializer[Any]):
    published = serializers.BooleanField(
        default=True, help_text="true: the public sees the seating; false: staff only (before it starts)."
    )


class SwissSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-(2**31),
        max_value=2**31 - 1,
        help_text="Breaks ties between equal moves.",
    )


class ClockActionSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=["start", "pause", "extend"])
    minutes = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-24 * 60,
        max_value=24 * 60,
        help_text="For extend: minutes to add (negative to shorten).",
    )


class ExtraTimeSerializer(serializers.Serializer[Any]):
    minutes = serializers.IntegerField(
        min_value=-32768, max_value=32767, help_text="This table's extra minutes (replaces the last value)."
    )


class TakenBackSerializer(serializers.Serializer[Any]):
    """A club session's table taken back (``services.take_back_table``)."""

    round = serializers.IntegerField(source="hanchan", help_text="The hanchan the table was.")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Its four players, East to North, free again."
    )


class SeatingRequestSerializer(serializers.Serializer[Any]):
    from_round = serializers.IntegerField(
        required=False, default=1, help_text="The first hanchan to (re)generate; earlier ones are kept."
    )
    seed = serializers.IntegerField(required=False, default=0, min_value=-(2**31), max_value=2**31 - 1)
    prefer = serializers.ChoiceField(
        choices=["substitutes", "sit_out"],
        default="substitutes",
        help_text="A field not a multiple of four: substitutes complete the last table, or the last players "
        "to check in sit out (no penalty).",
    )


class SeatingChoiceSerializer(serializers.Serializer[Any]):
    choice = serializers.ChoiceField(
        choices=list(SeatingJob.PROPOSALS),
        default=SeatingJob.PROPOSALS[0],
        help_text="Which proposal of the re-seating to put in place: the fewest players moved from the "
        "published seating (the default), or the best schedule for the hanchan left.",
    )


class SeatingJobSerializer(serializers.ModelSerializer[SeatingJob]):
    """``SeatingJob.as_dict`` (state, progress, quality report, error) with when it was asked for."""

    report = serializers.JSONField(read_only=True, help_text="The quality report once done.")
    awaiting_confirmation = serializers.BooleanField(
        read_only=True,
        help_text="A re-seating done and not in place yet: POST .../apply/ puts it in place.",
    )
    alternatives = serializers.JSONField(
        read_only=True,
        help_text="A re-seating's two proposals, fewest_moves and best_schedule: each with its rounds "
        "(tables of player ids, East to North), report, moved, joined and sitting_out (player ids per "
        "hanchan) and moves; lower_bound (the fewest moves any re-seating can make, proven) and left "
        "(player ids leaving, per hanchan).",
    )

    class Meta:
        model = SeatingJob
        fields = (
            "id",
            "state",
            "progress",
            "from_round",
            "seed",
            "prefer",
            "report",
            "before_report",
            "proposal",
            "awaiting_confirmation",
            "alternatives",
            "choice",
            "applied_at",
            "error",
            "requested_at",
            "finished_at",
        )
        read_only_fields = fields

    def to_representation(self, job: SeatingJob) -> dict[str, Any]:
        data = super().to_representation(job)
        return {**data, **job.as_dict()}


class PendingTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    sheet_status = serializers.CharField(allow_null=True, help_text="null: no sheet yet.")


class HanchanResultSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    points = serializers.IntegerField()
    rank = serializers.IntegerField()
    score = serializers.CharField()


class StandingRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    ranked = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    total = serializers.CharField(help_text="Exact decimal, as text.")
    hanchan_total = serializers.CharField()
    penalties = serializers.CharField()
    played = serializers.IntegerField()
    firsts = serializers.IntegerField()
    by_round = serializers.DictField(child=HanchanResultSerializer(), help_text="Keyed by hanchan number.")
    rank_history = serializers.ListField(child=serializers.IntegerField(allow_null=True))


class LiveSeatSerializer(serializers.Serializer[Any]):
    wind = serializers.IntegerField(help_text="0 East, 1 South, 2 West, 3 North.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField(allow_null=True, help_text="Running points; final once handed in.")


class LiveFlagSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=["hands-behind", "no-entry"])
    hands = serializers.IntegerField(required=False, help_text="hands-behind: how many hands behind.")
    median = serializers.IntegerField(required=False, help_text="hands-behind: the median table's hands.")
    minutes = serializers.IntegerField(required=False, help_text="no-entry: minutes since the last entry.")


class LiveTableSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(help_text="The table's hanchan (a club session's tables: each its own).")
    table = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["waiting", "playing", "over", "submitted", "signed", "disputed"],
        help_text="waiting: no entry yet; over: the hands entered end the hanchan, not submitted yet.",
    )
    seats = LiveSeatSerializer(many=True)
    riichi_sticks = serializers.IntegerField()
    honba = serializers.IntegerField()
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand being played: 0 is East 1, 7 South 4; null once over."
    )
    hands_played = serializers.IntegerField(allow_null=True, help_text="null: a sheet of final points only.")
    last_entry_at = serializers.DateTimeField(allow_null=True)
    flags = LiveFlagSerializer(many=True, required=False, help_text="Staff only: why the table is slow.")


class LiveTablesSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        allow_null=True, help_text="The current hanchan; null when none shown, and in a club session."
    )
    club = serializers.BooleanField(
        help_text="A club session: the tables are every table in play, each its own hanchan, by hanchan."
    )
    shown = serializers.BooleanField(help_text="false: the current hanchan is hidden from this reader.")
    now = serializers.DateTimeField()
    tables = LiveTableSerializer(many=True)
    hands_behind = serializers.IntegerField(required=False, help_text="Staff only: the slow-table rule.")
    idle_minutes = serializers.IntegerField(required=False, help_text="Staff only: the slow-table rule.")


class StandingsSerializer(serializers.Serializer[Any]):
    """``tournament.queries.standings_db.cached_standings`` and the tables still waiting for a signed
    sheet."""

    rounds = serializers.IntegerField()
    as_of = serializers.IntegerField(
        allow_null=True,
        help_text="The standings after this hanchan, as the tournament publishes them; null: live and whole "
        "(always, for its staff).",
    )
    rows = StandingRowSerializer(many=True)
    pending_tables = PendingTableSerializer(many=True)


class TeamMemberSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True, help_text="The individual rank; null: not ranked.")
    total = serializers.CharField(help_text="The individual total, penalties in (exact decimal).")
    contribution = serializers.CharField(help_text="What the member adds to the team total.")
    counted = serializers.BooleanField(help_text="Whether any of the member's scores count.")
    counted_hanchan = serializers.ListField(
        child=serializers.IntegerField(), help_text="best_per_hanchan: the hanchan whose score counts."
    )


class TeamRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.CharField(help_text="Exact decimal.")
    penalties = serializers.CharField(help_text="The members' penalties, already in the total.")
    counted = serializers.IntegerField(help_text="Members of whom something counts.")
    played = serializers.IntegerField(help_text="Hanchan in which at least one member played.")
    best_member_rank = serializers.IntegerField(allow_null=True)
    members = TeamMemberSerializer(many=True)


class TeamStandingsSerializer(serializers.Serializer[Any]):
    """``tournament.queries.teams_db.cached_team_standings``: the teams under the tournament's rule."""

    rule = serializers.CharField(
        help_text="The tournament's team_ranking: none, sum, best_per_hanchan or best_overall."
    )
    best_n = serializers.IntegerField(allow_null=True)
    substitutes_count = serializers.BooleanField()
    rounds = serializers.IntegerField()
    as_of = serializers.IntegerField(
        allow_null=True,
        help_text="The team standings after this hanchan, as the tournament publishes the standings; "
        "null: live and whole (always, for its staff).",
    )
    rows = TeamRowSerializer(many=True)


class ClubTableSerializer(serializers.Serializer[Any]):
    """A club session's table (``tournament.core.club``): the players East to North, or with the winds
    drawn."""

    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=8,
        help_text="Four player ids, East, South, West, North (the service refuses another count, naming "
        "`players`, and each seat at fault by its wind: `east`, `south`, `west`, `north`).",
    )
    draw_winds = serializers.BooleanField(
        default=False, help_text="true: the four draw their winds at random."
    )


class RevealSerializer(serializers.Serializer[Any]):
    revealed = serializers.BooleanField(default=True, help_text="false: hide the last hanchan again.")


class PhasePlanSerializer(serializers.Serializer[Any]):
    """One phase (``tournament.core.phases.PhasePlan``); ``advance`` and ``carry_over`` from the second on."""

    name = serializers.CharField(max_length=80)
    hanchan = serializers.IntegerField(min_value=1, max_value=40)
    seating = serializers.ChoiceField(choices=Phase.Seating.choices, default=Phase.Seating.OPTIMISED)
    carry_over = serializers.ChoiceField(choices=Phase.CarryOver.choices, default=Phase.CarryOver.KEEP)
    advance = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=4,
        max_value=10_000,
        help_text="How many players the cut before this phase keeps (a multiple of 4); none for the first.",
    )


class SetPhasesSerializer(serializers.Serializer[Any]):
    phases = PhasePlanSerializer(many=True, max_length=6, help_text="Every phase in order; [] for one phase.")


class PhaseEntrySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(help_text="The rank brought from the previous phase (1 the best).")
    replaces = serializers.CharField(allow_null=True, help_text="Called up in place of this player.")
    left = serializers.BooleanField(help_text="Left the phase before it started; ranked in the one before.")


class PhaseSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    first_hanchan = serializers.IntegerField()
    last_hanchan = serializers.IntegerField()
    seating = serializers.CharField()
    carry_over = serializers.CharField(allow_null=True)
    advance = serializers.IntegerField(allow_null=True)
    cut_at = serializers.DateTimeField(allow_null=True)
    reached = serializers.BooleanField(help_text="The cut into it is made (always, for the first phase).")
    entries = PhaseEntrySerializer(many=True)
    standings = serializers.ListField(child=serializers.DictField(), help_text="Rows as in the standings.")


class PhasesSerializer(serializers.Serializer[Any]):
    phases = PhaseSerializer(many=True)
    as_of = serializers.IntegerField(allow_null=True)


class CutSerializer(serializers.Serializer[Any]):
    chosen = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=1000,
        required=False,
        default=list,
        help_text="Players equal across the line after every tie-break: the ones who advance.",
    )


class CallUpSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1, help_text="The player who leaves the phase.")


# -- Series and persons --------------------------------------------------------------------------------


class SeriesSerializer(serializers.ModelSerializer[Series]):
    """A series as anyone sees it: its rule and the ids of its tournaments this user may see."""

    tournaments = serializers.SerializerMethodField(help_text="The ids of its tournaments this user sees.")

    class Meta:
        model = Series
        fields = ("id", *SERIES_FIELDS, "tournaments", "created_at")
        read_only_fields = fields

    def get_tournaments(self, series: Series) -> list[int]:
        visible = self.context["visible"]
        return [t.pk for t in series.tournaments.all() if t.pk in visible]


class SeriesInputSerializer(serializers.Serializer[Any]):
    """A new series, or the fields of one to change (PATCH: only those given)."""

    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    rule = serializers.ChoiceField(choices=Series.Rule.choices)
    best_n = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    min_events = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    points = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        max_length=200,
        help_text="The points of each final rank, first place first (numbers or decimal strings).",
    )
    tournaments = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=200,
        help_text="Tournament ids.",
    )
    awards = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.Award.choices),
        max_length=len(Tournament.Award.choices),
        required=False,
        help_text="The awards shown on the series' awards page and projector, over the hands of its "
        "tournaments the public sees (the tournament's award names), each at most once.",
    )

    def validate_awards(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Awards: each award at most once."), code="awards")
        return value


class PersonEventSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    slug = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    starts_on = serializers.DateField(source="tournament.starts_on")
    player = serializers.IntegerField(source="player.pk")
    rank = serializers.IntegerField(allow_null=True)
    ranked_count = serializers.IntegerField()
    total = serializers.CharField()
    played = serializers.IntegerField()
