from django.contrib import admin

from .models import ScreenLink


@admin.register(ScreenLink)
class ScreenLinkAdmin(admin.ModelAdmin):
    """The links a GM made (their tokens are not kept: only their digest)."""

    list_display = ["label", "campaign", "created_by", "created_at"]
    search_fields = ["label", "campaign__name"]
    fields = ["campaign", "label", "created_by", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False  # a link's token is shown once, to the GM who makes it
