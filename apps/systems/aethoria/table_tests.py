"""Aethoria tests of a skill or a characteristic asked by the GM during a fight."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext

from apps.compendium.models import AethoriaSkill
from apps.core.refusals import rules_message
from apps.encounters.kit import (
    EncounterError,
    Modifier,
    Roll,
    Step,
    close_request,
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
from .events import TEST_EVENT
from .fighters import load_skills, pick_combatant, rules_refusal


@dataclass(frozen=True)
class TestChoice:
    combatant_id: int
    source: str  # a characteristic name, or "skill:<skill pk>"
    characteristic: str = ""  # the GM's swap for a skill roll ("" = the linked one)
    difficulty: int = 1
    modifier: int = 0
    fatigue: int = 0
    label: str = ""
    rank_zero_allowed: bool = False


@dataclass(frozen=True)
class TestPlan:
    combatant: Combatant
    spec: aethoria.RollSpec
    what: str
    characteristic: str
    fatigue: int
    success: Fraction
    much_lower: Fraction
    situation: tuple[Modifier, ...] = ()  # what the situation adds to the pool, named


def plan_test(
    encounter: Encounter, choice: TestChoice, combatants: list[Combatant] | None = None
) -> TestPlan:
    house = encounter.campaign.house()
    combatant = pick_combatant(encounter, combatants, choice.combatant_id, "combatant")
    sheet = load_skills(combatant)
    situation = tuple(situational(system_of(encounter.campaign), combatant, Roll.TEST))
    modifiers = [*([choice.modifier] if choice.modifier else []), *(m.value for m in situation)]
    try:
        if choice.source.startswith("skill:"):
            skill_id = int(choice.source.removeprefix("skill:"))
            rank = next((r for r in sheet.skills.all() if r.skill_id == skill_id), None)
            if rank is None:
                skill = AethoriaSkill.objects.filter(pk=skill_id).first()
                if skill is None:
                    raise EncounterError(gettext("Compétence inconnue."), "source")
                level = 0
            else:
                skill, level = rank.skill, rank.rank
            characteristic = choice.characteristic or skill.characteristic
            spec = aethoria.skill_roll(
                level,
                characteristic,
                getattr(sheet, characteristic),
                modifiers,
                rank_zero_allowed=choice.rank_zero_allowed,
                exceptional=sheet.exceptional,
            )
            what = skill.name
        else:
            characteristic = choice.source
            if characteristic not in aethoria.CHARACTERISTICS:
                raise EncounterError(
                    gettext("Choisissez une compétence ou une caractéristique."), "source"
                )
            spec = aethoria.characteristic_roll(
                characteristic,
                getattr(sheet, characteristic),
                modifiers,
                exceptional=sheet.exceptional,
            )
            what = aethoria.CHARACTERISTIC_LABELS[characteristic]
        if choice.fatigue:
            aethoria.spend_fatigue(sheet.pools(house), spec.fatigue, choice.fatigue)
        dice = spec.dice + choice.fatigue
        success = aethoria.success_probability(dice, spec.threshold, choice.difficulty)
        low = choice.difficulty - house.much_lower_gap
        distribution = aethoria.success_distribution(dice, spec.threshold)
        much_lower = sum((p for k, p in distribution.items() if k <= low), Fraction(0))
    except RulesError as error:
        field = {"rank": "source", "characteristic": "characteristic"}.get(error.field, error.field)
        if error.field in CHARACTERISTIC_FIELDS:
            field = "characteristic"
        raise EncounterError(rules_message(error), field) from error
    except ValueError:
        raise EncounterError(
            gettext("Choisissez une compétence ou une caractéristique."), "source"
        ) from None
    return TestPlan(
        combatant, spec, what, characteristic, choice.fatigue, success, much_lower, situation
    )


CHARACTERISTIC_FIELDS = set(aethoria.CHARACTERISTICS)


@transaction.atomic
def aethoria_test(
    *,
    encounter_id: int,
    version: int | None,
    by,
    choice: TestChoice,
    faces: tuple[int, ...] | None = None,
    fatigue_faces: tuple[int, ...] | None = None,
) -> Event:
    """Any test on the table (not an action): a skill or a characteristic, vs a difficulty."""
    encounter = lock_encounter(encounter_id, version)
    return aethoria_test_step(
        encounter, by=by, choice=choice, faces=faces, fatigue_faces=fatigue_faces
    )


def aethoria_test_step(
    encounter: Encounter,
    *,
    by,
    choice: TestChoice,
    faces: tuple[int, ...] | None = None,
    fatigue_faces: tuple[int, ...] | None = None,
    request_of: Combatant | None = None,
) -> Event:
    """``aethoria_test`` on an encounter already locked. ``request_of``: the fighter (locked,
    its sheet read) whose player answered the request of this test, closed in this step —
    its fatigue dice paid in it too, so one undo takes all back."""
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    plan = plan_test(encounter, choice, [request_of] if request_of is not None else None)
    house = encounter.campaign.house()
    sheet = plan.combatant.character.aethoria
    bag = DiceBag()
    pool_faces = bag.take(faces, plan.spec.dice, D10, "faces", gettext("Test"))
    extra = bag.take(fatigue_faces, plan.fatigue, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = spend_fatigue_dice(sheet.pools(house), plan.spec.fatigue, plan.fatigue)
    try:
        roll = aethoria.roll_pool(plan.spec, pool_faces, extra)
        verdict = aethoria.judge(roll.successes, choice.difficulty, house)
    except RulesError as error:
        raise rules_refusal(error) from error
    step = Step(
        encounter,
        TEST_EVENT,
        by,
        actor=plan.combatant,
        dice=bag.source,
        public=not plan.combatant.hidden,
    )
    if request_of is not None:
        close_request(step, request_of)
    set_pools(step, sheet, pools)
    return step.commit(
        {
            "name": plan.combatant.character.name,
            "label": choice.label,
            "what": plan.what,
            "characteristic": plan.characteristic,
            "difficulty": choice.difficulty,
            "roll": roll_json(roll),
            "verdict": asdict(verdict),
            "odds": {"success": str(plan.success), "much_lower": str(plan.much_lower)},
            "asked": request_of.character.name if request_of is not None else "",
        }
    )
