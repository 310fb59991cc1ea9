"""Read a combatant's character as the rules engine's plain values (the model boundary, C3)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.rules import aethoria, ew

from .models import Combatant


def ew_pools(combatant: Combatant) -> ew.EwPools:
    return combatant.character.ew.pools()


def is_out(combatant: Combatant, house) -> bool:
    """Out of the fight: unconscious or dead (EW), PV at 0 or below (Aethoria)."""
    if isinstance(house, ew.EwHouseRules):
        pools = ew_pools(combatant)
        return pools.unconscious or pools.dead
    return combatant.character.aethoria.pv <= 0


def is_dead(combatant: Combatant, house) -> bool:
    if isinstance(house, ew.EwHouseRules):
        return ew_pools(combatant).dead
    sheet = combatant.character.aethoria
    return aethoria.condition(sheet.pv, sheet.vitalite, house) == aethoria.DEAD


def condition_words(combatant: Combatant, house) -> str:
    """The state in a word or two, for screens that must not show numbers (players, NPCs)."""
    if isinstance(house, ew.EwHouseRules):
        pools = ew_pools(combatant)
        if pools.dead:
            return _("mort")
        if pools.unconscious:
            return _("inconscient")
        if pools.wound_malus == ew.QUARTER_PV_MALUS:
            return _("grièvement blessé")
        if pools.wound_malus == ew.HALF_PV_MALUS:
            return _("blessé")
        untouched = pools.superficial == pools.lethal == pools.pv
        return _("indemne") if untouched else _("égratigné")
    sheet = combatant.character.aethoria
    state = aethoria.condition(sheet.pv, sheet.vitalite, house)
    if state == aethoria.DEAD:
        return _("mort")
    if state == aethoria.OUT:
        return _("hors de combat")
    pv_max = sheet.derived(house).pv
    if sheet.pv >= pv_max:
        return _("indemne")
    return _("grièvement blessé") if 2 * sheet.pv < pv_max else _("blessé")
