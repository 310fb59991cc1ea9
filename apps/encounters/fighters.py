"""Read a combatant's character as the rules engine's plain values (the model boundary, C3)."""

from __future__ import annotations

from apps.systems import system_of_rules

from .models import Combatant


def is_out(combatant: Combatant, house) -> bool:
    """Out of the fight, as its system says (unconscious or dead, PV at 0...)."""
    return system_of_rules(house).is_out(combatant, house)


def is_dead(combatant: Combatant, house) -> bool:
    return system_of_rules(house).is_dead(combatant, house)


def attack_target(
    form, attacker: Combatant, others: list[Combatant], house, last: int | None = None
) -> Combatant | None:
    """The target an attack form is drawn for: the one posted; else, as first offered, the
    one it attacked ``last`` if still alive, else the first fighter of the other side still
    alive (PCs strike NPCs and the reverse), else the first one alive (a dead one cannot be
    attacked), else the first."""
    if form.is_bound:
        wanted = str(form.data.get("target", ""))
        return next((c for c in others if str(c.pk) == wanted), others[0] if others else None)
    alive = [c for c in others if not is_dead(c, house)]
    if again := next((c for c in alive if c.pk == last), None):
        return again
    other_side = [c for c in alive if c.character.kind != attacker.character.kind]
    return next(iter(other_side or alive or others), None)
