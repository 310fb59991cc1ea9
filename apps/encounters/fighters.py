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
    one it attacked ``last`` if still standing, else the first fighter of the other side
    still standing (PCs strike NPCs and the reverse) — one knocked out is finished off only
    when the GM picks it —, else the first foe still alive, else the first one alive (a dead
    one cannot be attacked), else the first."""
    if form.is_bound:
        wanted = str(form.data.get("target", ""))
        return next((c for c in others if str(c.pk) == wanted), others[0] if others else None)

    # Looked at one by one, in order, until one fits: a big fight's far rows cost nothing.
    def alive(c: Combatant) -> bool:
        return not is_dead(c, house)

    def standing(c: Combatant) -> bool:
        return alive(c) and not is_out(c, house)

    again = next((c for c in others if c.pk == last), None) if last is not None else None
    if again is not None and standing(again):
        return again
    foes = [c for c in others if c.character.kind != attacker.character.kind]
    return (
        next(filter(standing, foes), None)
        or next(filter(alive, foes), None)
        or next(filter(alive, others), None)
        or next(iter(others), None)
    )


def next_in_view(everyone: list[Combatant], acting: Combatant | None, house) -> Combatant | None:
    """The fighter the players see who acts after ``acting`` this round (None: the round
    ends first). A hidden fighter between them is passed over, never named."""
    if acting is None:
        return None
    after = everyone[everyone.index(acting) + 1 :]
    return next((c for c in after if not c.hidden and not is_out(c, house)), None)
