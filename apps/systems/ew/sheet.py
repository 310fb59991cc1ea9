"""An EW-System character sheet as the generic pages show it: its state in words, its pools
as bars, what the full sheet lists, and what a rest or an NPC's copy does to it."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from apps.characters.bars import Bar
from apps.characters.models import EwPowerRank, EwSheet, EwSpecialtyRank
from apps.rules import ew
from apps.systems.base import PoolField

from .sheet_spend import EclatSpendForm

# The rules engine names the specialty levels in French (ew.SPECIALTY_LABELS); the sheet shows
# them in the viewer's language.
SPECIALTY_LEVEL_WORDS = {
    "néophyte": gettext_lazy("néophyte"),
    "entraîné": gettext_lazy("entraîné"),
    "professionnel": gettext_lazy("professionnel"),
    "éminent": gettext_lazy("éminent"),
    "expert": gettext_lazy("expert"),
    "sommité": gettext_lazy("sommité"),
    "expert mondial": gettext_lazy("expert mondial"),
}


def specialty_words(level: int) -> str:
    label = ew.specialty_label(level)
    return str(SPECIALTY_LEVEL_WORDS.get(label, label))


def health(pools: ew.EwPools) -> str:
    """The wound malus of the rules, in words; any damage at all is a scratch. Words that
    agree with nobody's gender ("Maëlle : blessure grave", not "grièvement blessé")."""
    if pools.dead:
        return gettext("sans vie")
    if pools.unconscious:
        return gettext("sans connaissance")
    if pools.wound_malus == ew.QUARTER_PV_MALUS:
        return gettext("blessure grave")
    if pools.wound_malus == ew.HALF_PV_MALUS:
        return gettext("blessure légère")
    untouched = pools.superficial == pools.lethal == pools.pv
    return gettext("indemne") if untouched else gettext("égratignures")


def pool_bars(sheet: EwSheet) -> list[Bar]:
    pools = sheet.pools()
    return [
        Bar("superficial", _("Points superficiels"), pools.superficial, pools.pv),
        Bar("lethal", _("Points létaux"), pools.lethal, pools.pv),
        Bar("eclat", _("Points d'éclat"), sheet.eclat, sheet.eclat_max),
    ]


def sheet_context(sheet: EwSheet, house: ew.EwHouseRules) -> dict:
    """The full sheet: characteristics, fields, derived values, ranks, gear, the éclat form."""
    derived = sheet.derived(house.rounding)
    malus = sheet.pools().wound_malus
    return {
        "subtitle": str(sheet.archetype) if sheet.archetype else "",
        "health_note": (
            gettext("malus %(malus)s à toutes les actions") % {"malus": malus} if malus else ""
        ),
        "derived": derived,
        "characteristics": [
            (ew.CHARACTERISTIC_LABELS[name], getattr(sheet, name)) for name in ew.CHARACTERISTICS
        ],
        "fields": [(name, getattr(derived, name)) for name in ew.FIELDS],
        "specialties": [
            (rank, specialty_words(rank.level))
            for rank in sheet.specialties.select_related("specialty")
        ],
        "powers": list(sheet.powers.select_related("power")),
        "traits": list(sheet.traits.all()),
        "aptitudes": list(sheet.aptitudes.all()),
        "weapons": list(sheet.weapons.all()),
        "eclat_form": EclatSpendForm(),
    }


def rest(sheet: EwSheet, *, health: bool, resources: bool) -> None:
    """Both PV pools to full; the points d'éclat to their maximum."""
    if health:
        sheet.set_pools(ew.EwPools.full(ew.hit_points(sheet.phy)))
    if resources:
        sheet.eclat = sheet.eclat_max
        sheet.save(update_fields=["eclat"])


def copy_gear(source: EwSheet, sheet: EwSheet) -> None:
    sheet.weapons.set(source.weapons.all())
    sheet.traits.set(source.traits.all())
    sheet.aptitudes.set(source.aptitudes.all())
    EwSpecialtyRank.objects.bulk_create(
        EwSpecialtyRank(sheet=sheet, specialty_id=r.specialty_id, level=r.level)
        for r in source.specialties.all()
    )
    EwPowerRank.objects.bulk_create(
        EwPowerRank(sheet=sheet, power_id=r.power_id, level=r.level) for r in source.powers.all()
    )


def correctable_pools(sheet: EwSheet) -> list[PoolField]:
    """Both damage pools up to the PV (3 × PHY), the éclat up to its maximum."""
    pv = ew.hit_points(sheet.phy)
    return [
        PoolField("superficial_left", gettext("Points superficiels"), 0, pv),
        PoolField("lethal_left", gettext("Points létaux"), 0, pv),
        PoolField("eclat", gettext("Points d'éclat"), 0, sheet.eclat_max),
    ]
