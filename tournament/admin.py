from django.contrib import admin

from tournament.models import Player, Round, Seat, SeatingJob, Table, Tournament


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
