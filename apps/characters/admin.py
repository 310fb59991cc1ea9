from django.contrib import admin

from .models import (
    AethoriaSheet,
    AethoriaSkillRank,
    Character,
    EwPowerRank,
    EwSheet,
    EwSpecialtyRank,
    XpEntry,
)


class EwSheetInline(admin.StackedInline):
    model = EwSheet
    extra = 0


class AethoriaSheetInline(admin.StackedInline):
    model = AethoriaSheet
    extra = 0


class XpEntryInline(admin.TabularInline):
    model = XpEntry
    fk_name = "character"
    extra = 0
    raw_id_fields = ["cancels", "created_by"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "kind", "owner", "is_template", "revealed"]
    list_filter = ["kind", "campaign__system", "is_template"]
    search_fields = ["name", "campaign__name"]
    raw_id_fields = ["owner"]
    inlines = [EwSheetInline, AethoriaSheetInline, XpEntryInline]


class EwSpecialtyRankInline(admin.TabularInline):
    model = EwSpecialtyRank
    extra = 0


class EwPowerRankInline(admin.TabularInline):
    model = EwPowerRank
    extra = 0


@admin.register(EwSheet)
class EwSheetAdmin(admin.ModelAdmin):
    inlines = [EwSpecialtyRankInline, EwPowerRankInline]


class AethoriaSkillRankInline(admin.TabularInline):
    model = AethoriaSkillRank
    extra = 0


@admin.register(AethoriaSheet)
class AethoriaSheetAdmin(admin.ModelAdmin):
    inlines = [AethoriaSkillRankInline]
