"""An Aethoria fighter's turn state (defences left, aim, prepared action) read from and
written to the combatant's JSON state, and what the start of its own turn changes."""

from __future__ import annotations

from apps.encounters.kit import Step
from apps.encounters.models import Combatant
from apps.rules import aethoria

from .state import FighterState


def aethoria_turn_state(combatant: Combatant) -> aethoria.TurnState:
    return FighterState.of(combatant).turn


def is_dead(combatant: Combatant, house: aethoria.AethoriaHouseRules) -> bool:
    sheet = combatant.character.aethoria
    return aethoria.condition(sheet.pv, sheet.vitalite, house) == aethoria.DEAD


def begin_turn(step: Step, combatants: list[Combatant]) -> dict:
    """The acting combatant's own turn starts: its defences come back, a prepared action
    expires, an aim matures, and bleeding costs PV."""
    encounter = step.encounter
    acting = combatants[encounter.turn]
    house = encounter.campaign.house()
    state = FighterState.of(acting)
    step.set(acting, "state", state.with_turn(state.turn.start_turn()).to_json())
    if not state.bleeding or is_dead(acting, house):
        return {}
    sheet = acting.character.aethoria
    pools, delta = aethoria.bleed(sheet.pools(house), house)
    step.set(sheet, "pv", pools.pv)
    return {"bleeding": -delta.pv}
