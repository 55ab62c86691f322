from django.contrib import admin

from scoring.models import ScoreSheet, SeatResult, SheetVersion


class SeatResultInline(admin.TabularInline):
    model = SeatResult
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player", "points", "rank", "uma", "score"]


class SheetVersionInline(admin.TabularInline):
    model = SheetVersion
    extra = 0
    can_delete = False
    readonly_fields = ["version", "action", "status", "author", "at", "reason", "content_hash"]
    fields = readonly_fields


@admin.register(ScoreSheet)
class ScoreSheetAdmin(admin.ModelAdmin):
    """Read-only here: sheets change only through the referee pages and their checks."""

    list_display = ["__str__", "status", "form", "version", "signed_by", "signed_at"]
    list_filter = ["status", "table__round__tournament"]
    inlines = [SeatResultInline, SheetVersionInline]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
