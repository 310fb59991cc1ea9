from django.contrib import admin

from .models import Campaign, LogEntry, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "created_at"]
    list_filter = ["system"]
    search_fields = ["name"]
    inlines = [MembershipInline]
    readonly_fields = ["version", "created_at"]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["campaign", "kind", "text", "created_at"]
    list_filter = ["kind"]
    search_fields = ["text"]
