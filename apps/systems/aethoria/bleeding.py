"""Bleeding goes on until treated (rules-aethoria.md §3: "1 PV lost at the start of each of
its turns until treated"; dead at −Vitalité, house rule): also at the turns a fighter out of
the fight no longer plays. The GM treats it from the fighter's row; the end-of-fight summary
lists the bleeding and the other lasting effects (confirmed fractures)."""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext

from apps.encounters.kit import EncounterError, Step, combatant_of, lock_encounter, require_status
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.rules import aethoria
from apps.systems.base import RowTool

from .events import TREAT_EVENT
from .state import FighterState
from .turns import is_dead


def skipped_turns(step: Step, skipped: list[Combatant]) -> dict:
    """The skipped fighters (out of the fight) that bleed lose their PV all the same, until
    they die (a dead one bleeds no more)."""
    house = step.encounter.campaign.house()
    bled = []
    for combatant in skipped:
        if not FighterState.of(combatant).bleeding or is_dead(combatant, house):
            continue
        sheet = combatant.character.aethoria
        pools, delta = aethoria.bleed(sheet.pools(house), house)
        step.set(sheet, "pv", pools.pv)
        bled.append(
            {
                "combatant": combatant.pk,
                "name": combatant.character.name,
                "pv": -delta.pv,
                "dead": is_dead(combatant, house),
            }
        )
    return {"bled": bled} if bled else {}


def row_tools(combatant: Combatant, house) -> list[RowTool]:
    if FighterState.of(combatant).bleeding and not is_dead(combatant, house):
        return [RowTool(gettext("Soigner le saignement"), "encounters:aethoria_treat_bleeding")]
    return []


@transaction.atomic
def aethoria_treat_bleeding(
    *, encounter_id: int, version: int | None, by, combatant_id: int
) -> Event:
    """Someone stops a fighter's bleeding (bandages, a healing spell): it loses no more PV."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    combatant = combatant_of(encounter, combatant_id)
    state = FighterState.of(combatant)
    if not state.bleeding:
        raise EncounterError(gettext("Ce combattant ne saigne pas."), "combatant")
    step = Step(encounter, TREAT_EVENT, by, actor=combatant, public=not combatant.hidden)
    step.set(combatant, "state", replace(state, bleeding=False).to_json())
    return step.commit({"name": combatant.character.name})


def lasting_effects(encounter: Encounter) -> list[dict]:
    """Who still bleeds and who keeps a confirmed fracture as the fight ends (one query)."""
    lasting = []
    for name, data in encounter.combatants.filter(present=True).values_list(
        "character__name", "state"
    ):
        state = FighterState.from_json(data)
        if state.bleeding or state.effects:
            effects = [
                {"effect": e.get("kind", ""), "location": e.get("location", "")}
                for e in state.effects
            ]
            lasting.append({"name": name, "bleeding": state.bleeding, "effects": effects})
    return lasting
