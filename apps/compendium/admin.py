"""The compendium in the Django admin: lists, search, filters, inlines, whole-table checks."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .forms import AethoriaHitLocationForm, EwResolutionTableForm, HitTableFormSet
from .models import (
    AethoriaArmourCoverage,
    AethoriaArmourPiece,
    AethoriaGod,
    AethoriaHitLocation,
    AethoriaLocation,
    AethoriaMagicDomain,
    AethoriaShield,
    AethoriaSkill,
    AethoriaWeapon,
    EwAptitude,
    EwArchetype,
    EwArmour,
    EwPower,
    EwResolutionTable,
    EwSpecialty,
    EwTrait,
    EwWeapon,
)

# --- EW-System --------------------------------------------------------------------------------


@admin.register(EwSpecialty)
class EwSpecialtyAdmin(admin.ModelAdmin):
    list_display = ("name", "field")
    list_filter = ("field",)
    search_fields = ("name", "description")


class EwAptitudeInline(admin.TabularInline):
    model = EwAptitude
    fields = ("name", "cost", "effect")
    extra = 0
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 2})}}


@admin.register(EwArchetype)
class EwArchetypeAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "con_factor",
        "com_factor",
        "hab_factor",
        "soc_factor",
        "starting_specialty",
        "aptitude_count",
    )
    list_select_related = ("starting_specialty",)
    search_fields = ("name", "description", "aptitudes__name")
    autocomplete_fields = ("starting_specialty",)
    filter_horizontal = ("starting_weapons", "starting_armours")
    inlines = (EwAptitudeInline,)
    fieldsets = (
        (None, {"fields": ("name", "description")}),
        (
            _("Coût des spécialités par champ"),
            {"fields": (("con_factor", "com_factor", "hab_factor", "soc_factor"),)},
        ),
        (
            _("Départ"),
            {
                "fields": (
                    ("starting_specialty", "starting_specialty_level"),
                    "starting_weapons",
                    "starting_armours",
                    "starting_gear",
                )
            },
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[EwArchetype]:
        # distinct: a search on aptitude names joins them a second time.
        aptitudes = Count("aptitudes", distinct=True)
        return super().get_queryset(request).annotate(aptitude_count=aptitudes)

    @admin.display(description=_("aptitudes"), ordering="aptitude_count")
    def aptitude_count(self, archetype: EwArchetype) -> int:
        return archetype.aptitude_count


@admin.register(EwAptitude)
class EwAptitudeAdmin(admin.ModelAdmin):
    list_display = ("name", "archetype", "cost")
    list_select_related = ("archetype",)
    list_filter = ("archetype",)
    search_fields = ("name", "effect", "archetype__name")
    ordering = ("archetype__name", "name")


@admin.register(EwTrait)
class EwTraitAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "cost")
    list_filter = ("kind",)
    search_fields = ("name", "effect")


@admin.register(EwPower)
class EwPowerAdmin(admin.ModelAdmin):
    list_display = ("name", "cost_per_level")
    search_fields = ("name", "effect")


@admin.register(EwWeapon)
class EwWeaponAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "kind",
        "specialty",
        "damage_bonus",
        "impact",
        "range_m",
        "reload_rounds",
        "magazine",
    )
    list_select_related = ("specialty",)
    list_filter = ("kind",)
    search_fields = ("name", "notes")
    autocomplete_fields = ("specialty",)
    fieldsets = (
        (None, {"fields": ("name", "kind", "specialty")}),
        (_("Armes de contact"), {"fields": ("damage_bonus",)}),
        (_("Armes à distance"), {"fields": ("impact", "range_m", "reload_rounds", "magazine")}),
        (None, {"fields": ("notes",)}),
    )


@admin.register(EwArmour)
class EwArmourAdmin(admin.ModelAdmin):
    list_display = ("name", "protection")
    search_fields = ("name", "description")


@admin.register(EwResolutionTable)
class EwResolutionTableAdmin(admin.ModelAdmin):
    form = EwResolutionTableForm
    list_display = ("name", "is_default")
    list_filter = ("is_default",)
    search_fields = ("name",)


# --- Aethoria ---------------------------------------------------------------------------------


@admin.register(AethoriaSkill)
class AethoriaSkillAdmin(admin.ModelAdmin):
    list_display = ("name", "characteristic", "kind")
    list_filter = ("kind", "characteristic")
    search_fields = ("name", "description")


@admin.register(AethoriaWeapon)
class AethoriaWeaponAdmin(admin.ModelAdmin):
    list_display = ("name", "damage", "parry_value", "hands", "is_ranged", "skill")
    list_select_related = ("skill",)
    list_filter = ("is_ranged", "hands", "skill")
    search_fields = ("name", "description")
    autocomplete_fields = ("skill",)
    fieldsets = (
        (None, {"fields": ("name", "skill", "hands", "is_ranged")}),
        (
            _("Dégâts « X+Nd » et parade"),
            {"fields": ("damage_fixed", "damage_dice", "parry_value")},
        ),
        (
            _("Portées (armes à distance)"),
            {"fields": ("range_short", "range_medium", "range_long", "range_extreme")},
        ),
        (None, {"fields": ("description",)}),
    )

    @admin.display(description=_("dégâts"), ordering="damage_fixed")
    def damage(self, weapon: AethoriaWeapon) -> str:
        return weapon.damage


@admin.register(AethoriaShield)
class AethoriaShieldAdmin(admin.ModelAdmin):
    list_display = ("name", "parry_value")
    search_fields = ("name", "description")


class AethoriaArmourCoverageInline(admin.TabularInline):
    model = AethoriaArmourCoverage
    fields = ("location", "rd")
    extra = 0


@admin.register(AethoriaArmourPiece)
class AethoriaArmourPieceAdmin(admin.ModelAdmin):
    list_display = ("name", "protection")
    list_filter = ("coverages__location",)
    search_fields = ("name", "description")
    inlines = (AethoriaArmourCoverageInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[AethoriaArmourPiece]:
        return super().get_queryset(request).prefetch_related("coverages")

    @admin.display(description=_("RD par localisation"))
    def protection(self, piece: AethoriaArmourPiece) -> str:
        labels = dict(AethoriaLocation.choices)
        return ", ".join(f"{labels[loc]} {rd}" for loc, rd in piece.rd_by_location().items())


@admin.register(AethoriaHitLocation)
class AethoriaHitLocationAdmin(admin.ModelAdmin):
    """The table is edited as a whole in the list (a gap or overlap is refused)."""

    form = AethoriaHitLocationForm
    list_display = ("location", "low", "high")
    list_editable = ("low", "high")
    list_display_links = ("location",)
    ordering = ("low",)

    def get_changelist_formset(self, request: HttpRequest, **kwargs):
        return super().get_changelist_formset(request, formset=HitTableFormSet, **kwargs)

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # Deleting a row would leave d20 faces that hit nothing: move the limits instead.
        return False


@admin.register(AethoriaGod)
class AethoriaGodAdmin(admin.ModelAdmin):
    list_display = ("name", "domain", "pouvoir")
    search_fields = ("name", "domain", "way_of_life")


@admin.register(AethoriaMagicDomain)
class AethoriaMagicDomainAdmin(admin.ModelAdmin):
    list_display = ("name",)
    search_fields = ("name", "description")
