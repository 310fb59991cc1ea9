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


def attack_target(form, attacker: Combatant, others: list[Combatant], house) -> Combatant | None:
    """The target an attack form is drawn for: the one posted; else, as first offered, the
    first fighter of the other side still alive (PCs strike NPCs and the reverse), else the
    first one alive (a dead one cannot be attacked), else the first."""
    if form.is_bound:
        wanted = str(form.data.get("target", ""))
        return next((c for c in others if str(c.pk) == wanted), others[0] if others else None)
    alive = [c for c in others if not is_dead(c, house)]
    other_side = [c for c in alive if c.character.kind != attacker.character.kind]
    return next(iter(other_side or alive or others), None)
