"""Read a combatant's character as the rules engine's plain values (the model boundary, C3)."""

from __future__ import annotations

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
