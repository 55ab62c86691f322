from django.contrib import admin

from penalties.models import Disqualification, Penalty


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read-only here: penalties are given and revoked through the head referee's pages (audited)."""

    list_display = ["player", "kind", "points", "round", "given_by", "given_at", "revoked_at"]
    list_filter = ["tournament", "kind"]
    search_fields = ["player__name", "reason"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Disqualification)
class DisqualificationAdmin(admin.ModelAdmin):
    list_display = ["player", "given_by", "given_at"]

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
