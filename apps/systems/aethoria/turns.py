"""An Aethoria fighter's turn state (defences left, aim, prepared action) read from and
written to the combatant's JSON state, and what the start of its own turn changes."""

from __future__ import annotations

from dataclasses import asdict

from apps.encounters.models import Combatant
from apps.encounters.steps import Step
from apps.rules import aethoria


def aethoria_turn_state(combatant: Combatant) -> aethoria.TurnState:
    state = dict(combatant.state)
    prepared = state.get("prepared")
    return aethoria.TurnState(
        defences=state.get("defences", aethoria.BASE_DEFENCES),
        acted=state.get("acted", False),
        aim_target=state.get("aim_target"),
        aim_ready=state.get("aim_ready", False),
        prepared=aethoria.PreparedAction(**prepared) if prepared else None,
    )


def turn_state_json(state: aethoria.TurnState) -> dict:
    return asdict(state)


def is_dead(combatant: Combatant, house: aethoria.AethoriaHouseRules) -> bool:
    sheet = combatant.character.aethoria
    return aethoria.condition(sheet.pv, sheet.vitalite, house) == aethoria.DEAD


def begin_turn(step: Step, combatants: list[Combatant]) -> dict:
    """The acting combatant's own turn starts: its defences come back, a prepared action
    expires, an aim matures, and bleeding costs PV."""
    encounter = step.encounter
    acting = combatants[encounter.turn]
    house = encounter.campaign.house()
    state = aethoria_turn_state(acting).start_turn()
    step.set(acting, "state", {**acting.state, **turn_state_json(state)})
    if not acting.state.get("bleeding") or is_dead(acting, house):
        return {}
    sheet = acting.character.aethoria
    pools, delta = aethoria.bleed(sheet.pools(house), house)
    step.set(sheet, "pv", pools.pv)
    return {"bleeding": -delta.pv}
