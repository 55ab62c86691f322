from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from tournament.models import Player, RatingRun, RatingSnapshot, Round, Seat, SeatingJob, Table, Tournament
from tournament.services.ratings import retry_now


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "country", "club", "ema_id", "team", "status", "is_substitute", "disqualified"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "venue", "ruleset_preset", "hanchan_count", "is_public"]
    list_filter = ["ruleset_preset", "is_public"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "country", "club", "ema_id", "team", "status", "is_substitute"]
    list_filter = ["tournament", "status", "is_substitute", "disqualified"]
    search_fields = ["name", "ema_id", "club", "team"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["wind", "player", "replaces"]
    raw_id_fields = ["player", "replaces"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "status", "mode", "starts_at"]
    list_filter = ["tournament", "status"]


@admin.register(SeatingJob)
class SeatingJobAdmin(admin.ModelAdmin):
    list_display = ["__str__", "requested_at", "state", "progress"]
    readonly_fields = ["report", "error"]


@admin.register(RatingRun)
class RatingRunAdmin(admin.ModelAdmin):
    """Each rating list's background recompute: under way (its heartbeat), the last failure and its
    cause, and when it is tried again (docs/ratings.md, "When a recompute fails")."""

    list_display = ["scope", "failures", "failed_at", "retry_at", "heartbeat_at", "succeeded_at", "error"]
    list_filter = ["failures"]
    readonly_fields = [
        "scope",
        "series",
        "heartbeat_at",
        "started_at",
        "finished_at",
        "succeeded_at",
        "failures",
        "failed_at",
        "error",
        "retry_at",
    ]
    actions = ["recompute_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Recompute now (end the wait after a failure)")
    def recompute_now(self, request: HttpRequest, queryset: QuerySet[RatingRun]) -> None:
        for run in queryset:
            retry_now(run.scope)


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(admin.ModelAdmin):
    """The stored lists, with the results left out of each because they cannot be rated."""

    list_display = ["scope", "computed_at", "as_of", "left_out_count"]
    fields = ["scope", "series", "computed_at", "as_of", "digest", "version", "left_out_count", "left_out"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
