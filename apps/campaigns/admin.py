from django.contrib import admin

from .models import Campaign, LogEntry, Membership
from .services import campaigns_delete


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

    # Through the service: the handouts' images go with the campaign.
    def delete_model(self, request, obj):
        campaigns_delete(campaigns=Campaign.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        campaigns_delete(campaigns=queryset)


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["campaign", "kind", "text", "created_at"]
    list_filter = ["kind"]
    search_fields = ["text"]
