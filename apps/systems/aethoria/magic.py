"""Aethoria spells in a running encounter: the plan (Pouvoir invested, érys burnt, fatigue, odds)
and the cast.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext

from apps.core.refusals import rules_message
from apps.encounters.kit import (
    EncounterError,
    Modifier,
    Roll,
    Step,
    combatants_of,
    is_out,
    lock_encounter,
    require_status,
    situational,
)
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.rules import aethoria
from apps.rules.dice import D10
from apps.rules.errors import RulesError
from apps.systems import system_of

from .dice import DiceBag, roll_json, set_pools, spend_fatigue_dice
from .events import SPELL_EVENT
from .fighters import load_sheet, pick_combatant, rank_of, rules_refusal, turn_state_after
from .specials import check_actor, has_fired, without_fired
from .state import PREPARED_SPELL
from .turns import aethoria_turn_state


@dataclass(frozen=True)
class SpellChoice:
    caster_id: int
    invested: int
    difficulty: int = 1
    modifier: int = 0
    fatigue: int = 0
    label: str = ""
    rank_zero_allowed: bool = False


@dataclass(frozen=True)
class SpellPlan:
    caster: Combatant
    spec: aethoria.RollSpec
    state: dict
    fired: bool
    fatigue: int
    fatigue_cost: int
    success: Fraction
    burn: Fraction
    burn_pv: int
    situation: tuple[Modifier, ...] = ()  # what the situation adds to the pool, named


def plan_spell(
    encounter: Encounter, choice: SpellChoice, combatants: list[Combatant] | None = None
) -> SpellPlan:
    house = encounter.campaign.house()
    caster = pick_combatant(encounter, combatants, choice.caster_id, "caster")
    sheet = load_sheet(caster)
    if is_out(caster, house):
        raise EncounterError(
            gettext("%(name)s est hors de combat.") % {"name": caster.character.name}, "caster"
        )
    fired = has_fired(encounter, caster, PREPARED_SPELL)
    try:
        if fired:
            # The prepared spell happens now: it was the action of an earlier turn.
            aethoria.check_can_cast_in_combat(sheet.magic_type)
            state = without_fired(caster)
        else:
            after, _bonus = aethoria_turn_state(caster).act(
                aethoria.CAST, magic_type=sheet.magic_type
            )
            state = turn_state_after(caster, after)
        situation = tuple(situational(system_of(encounter.campaign), caster, Roll.MAGIC))
        spec = aethoria.spell_roll(
            rank_of(sheet, kind="magic"),
            sheet.pouvoir,
            choice.invested,
            [*([choice.modifier] if choice.modifier else []), *(m.value for m in situation)],
            rank_zero_allowed=choice.rank_zero_allowed,
        )
        if choice.fatigue:
            aethoria.spend_fatigue(sheet.pools(house), aethoria.MENTAL, choice.fatigue)
        dice = spec.dice + choice.fatigue
        success = aethoria.success_probability(dice, spec.threshold, choice.difficulty)
        burn = aethoria.burn_probability(dice, spec.threshold)
        cost = aethoria.spell_fatigue_cost(choice.invested, house)
    except RulesError as error:
        field = {"rank": "invested", "magic_type": "caster"}.get(error.field, error.field)
        raise EncounterError(rules_message(error), field) from error
    return SpellPlan(
        caster=caster,
        spec=spec,
        state=state,
        fired=fired,
        fatigue=choice.fatigue,
        fatigue_cost=cost,
        success=success,
        burn=burn,
        burn_pv=house.burn_pv_per_pouvoir * choice.invested,
        situation=situation,
    )


@transaction.atomic
def aethoria_spell(
    *,
    encounter_id: int,
    version: int | None,
    by,
    choice: SpellChoice,
    faces: tuple[int, ...] | None = None,
    fatigue_faces: tuple[int, ...] | None = None,
) -> Event:
    """A doué casts: magic skill under the Pouvoir invested; fatigue cost; érys burn."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatants = combatants_of(encounter)
    check_actor(encounter, combatants, choice.caster_id, PREPARED_SPELL, "caster")
    plan = plan_spell(encounter, choice, combatants)
    house = encounter.campaign.house()
    sheet = plan.caster.character.aethoria
    bag = DiceBag()
    pool_faces = bag.take(faces, plan.spec.dice, D10, "faces", gettext("Sort"))
    extra = bag.take(fatigue_faces, plan.fatigue, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = spend_fatigue_dice(sheet.pools(house), aethoria.MENTAL, plan.fatigue)
    try:
        roll = aethoria.roll_pool(plan.spec, pool_faces, extra)
        result = aethoria.cast_spell(
            roll, pools, invested=choice.invested, difficulty=choice.difficulty, house=house
        )
    except RulesError as error:
        raise rules_refusal(error) from error
    step = Step(
        encounter,
        SPELL_EVENT,
        by,
        actor=plan.caster,
        dice=bag.source,
        public=not plan.caster.hidden,
    )
    set_pools(step, sheet, result.pools)
    step.set(plan.caster, "state", plan.state)
    return step.commit(
        {
            "name": plan.caster.character.name,
            "label": choice.label,
            "fired": plan.fired,
            "invested": choice.invested,
            "difficulty": choice.difficulty,
            "roll": roll_json(roll),
            "verdict": asdict(result.verdict),
            "fatigue_cost": result.fatigue_cost,
            "physical_paid": result.physical_paid,
            "mental_paid": result.mental_paid,
            "pv_from_fatigue": result.pv_from_fatigue,
            "burn": result.burn,
            "burn_pv": result.burn_pv,
            "odds": {"success": str(plan.success), "burn": str(plan.burn)},
        }
    )
