"""An Aethoria character sheet as the generic pages show it: its state in words, its pools
as bars, what the full sheet lists, and what a rest or an NPC's copy does to it."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.characters.bars import Bar
from apps.characters.models import AethoriaSheet, AethoriaSkillRank
from apps.rules import aethoria
from apps.systems.base import PoolField

from .creation import BASE_CHARACTERISTICS
from .sheet_spend import FatigueSpendForm


def health(sheet: AethoriaSheet, house: aethoria.AethoriaHouseRules) -> str:
    """Aethoria has no wound malus: under half the PV maximum is a grave wound (words that
    agree with nobody's gender, as EW's)."""
    state = aethoria.condition(sheet.pv, sheet.vitalite, house)
    if state == aethoria.DEAD:
        return gettext("sans vie")
    if state == aethoria.OUT:
        return gettext("hors de combat")
    pv_max = sheet.derived(house).pv
    if sheet.pv >= pv_max:
        return gettext("indemne")
    return gettext("blessure grave") if 2 * sheet.pv < pv_max else gettext("blessure légère")


def pool_bars(sheet: AethoriaSheet, house: aethoria.AethoriaHouseRules) -> list[Bar]:
    pools = sheet.pools(house)
    return [
        Bar("pv", _("PV"), pools.pv, pools.pv_max),
        Bar("physical", _("Fatigue physique"), pools.physical, pools.physical_max),
        Bar("mental", _("Fatigue mentale"), pools.mental, pools.mental_max),
    ]


def sheet_context(sheet: AethoriaSheet, house: aethoria.AethoriaHouseRules) -> dict:
    """The full sheet: characteristics, derived maxima, magic, skills, gear, the fatigue form."""
    return {
        "derived": sheet.derived(house),
        "characteristics": [
            (aethoria.CHARACTERISTIC_LABELS[name], getattr(sheet, name))
            for name in BASE_CHARACTERISTICS
        ],
        "short_labels": True,
        "skills": list(sheet.skills.select_related("skill")),
        "weapons": list(sheet.weapons.all()),
        "armour_pieces": list(sheet.armour_pieces.prefetch_related("coverages")),
        "fatigue_form": FatigueSpendForm(),
    }


def rest(sheet: AethoriaSheet, house, *, health: bool, resources: bool) -> None:
    """PV to full (health); both fatigues to full (resources)."""
    full = aethoria.AethoriaPools.full(sheet.derived(house))
    current = sheet.pools(house)
    sheet.set_pools(
        aethoria.AethoriaPools(
            full.pv_max,
            full.pv if health else current.pv,
            full.physical_max,
            full.physical if resources else current.physical,
            full.mental_max,
            full.mental if resources else current.mental,
        )
    )


def copy_gear(source: AethoriaSheet, sheet: AethoriaSheet) -> None:
    sheet.weapons.set(source.weapons.all())
    sheet.armour_pieces.set(source.armour_pieces.all())
    AethoriaSkillRank.objects.bulk_create(
        AethoriaSkillRank(sheet=sheet, skill_id=r.skill_id, rank=r.rank)
        for r in source.skills.all()
    )


def correctable_pools(sheet: AethoriaSheet, house: aethoria.AethoriaHouseRules) -> list[PoolField]:
    """PV from death (−Vitalité, by the house rule) to the maximum; fatigues from 0."""
    derived = sheet.derived(house)
    death = -house.death_threshold_factor * sheet.vitalite
    return [
        PoolField("pv", gettext("PV"), death, derived.pv),
        PoolField("fatigue_physical", gettext("Fatigue physique"), 0, derived.physical_fatigue),
        PoolField("fatigue_mental", gettext("Fatigue mentale"), 0, derived.mental_fatigue),
    ]
