"""EW-System tests on the table: a skill, a characteristic, an opposed roll — its plan (NA,
ND, modifiers and the exact chance, shown while the GM fills the form) and its step."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core.refusals import rules_message
from apps.encounters.kit import (
    EncounterError,
    Modifier,
    Roll,
    Step,
    close_request,
    combatant_of,
    lock_encounter,
    require_status,
    situational,
)
from apps.encounters.models import Combatant, DiceSource, Encounter, Event, Status
from apps.rules import ew
from apps.rules.dice import SecureDice
from apps.rules.errors import RulesError
from apps.systems import system_of

from .combat import round_actions, specialty_level


@dataclass(frozen=True)
class TestChoice:
    """A test on the table: NA from a characteristic or field + specialty, against a
    difficulty or an opponent's level."""

    combatant_id: int
    na_source: str  # "phy"/"men"/"per"/"pre", or "con"/"com"/"hab"/"soc" (+ specialty)
    specialty_id: int | None = None
    nd: int | None = None
    opponent_id: int | None = None
    opponent_source: str = ""
    opponent_specialty_id: int | None = None
    modifier: int = 0
    label: str = ""


@dataclass(frozen=True)
class TestPlan:
    combatant: Combatant
    opponent: Combatant | None
    na: int
    nd: int
    modifiers: tuple[int, ...]
    situation: tuple[Modifier, ...]  # what of ``modifiers`` the situation adds, named
    chance: Fraction


def _level(combatant: Combatant, source: str, specialty_id: int | None, rounding: str) -> int:
    sheet = combatant.character.ew
    if source in ew.CHARACTERISTICS:
        return getattr(sheet, source)
    if source in ew.FIELDS:
        return (
            getattr(sheet.derived(rounding), source) + specialty_level(combatant, specialty_id)[0]
        )
    raise EncounterError(_("Choisissez une caractéristique ou un champ."), "na_source")


def plan_test(encounter: Encounter, choice: TestChoice) -> TestPlan:
    house = encounter.campaign.house()
    combatant = combatant_of(encounter, choice.combatant_id)
    na = _level(combatant, choice.na_source, choice.specialty_id, house.rounding)
    opponent = None
    if choice.opponent_id:
        opponent = combatant_of(encounter, choice.opponent_id)
        # The opponent resists with its maluses too (wounds, the round's extra actions), as a
        # defender does in an attack: they weigh on all its actions, so the ND may go below 0.
        nd = (
            _level(
                opponent,
                choice.opponent_source or choice.na_source,
                choice.opponent_specialty_id,
                house.rounding,
            )
            + opponent.character.ew.pools().wound_malus
            + round_actions(opponent).malus(house)
        )
    elif choice.nd is None:
        raise EncounterError(_("Donnez une difficulté ou un adversaire."), "nd")
    else:
        nd = choice.nd
    # Wounds and the round's extra attacks/defences weigh on every action, tests included.
    situation = tuple(situational(system_of(encounter.campaign), combatant, Roll.TEST))
    modifiers = (
        combatant.character.ew.pools().wound_malus,
        round_actions(combatant).malus(house),
        choice.modifier,
        *(m.value for m in situation),
    )
    try:
        chance = ew.success_probability(na, nd, modifiers, house.table)
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    return TestPlan(combatant, opponent, na, nd, modifiers, situation, chance)


@transaction.atomic
def ew_test(
    *, encounter_id: int, version: int | None, by, choice: TestChoice, face: int | None = None
) -> Event:
    """Any test on the table (a skill, a characteristic, an opposed roll)."""
    encounter = lock_encounter(encounter_id, version)
    return ew_test_step(encounter, by=by, choice=choice, face=face)


def ew_test_step(
    encounter: Encounter,
    *,
    by,
    choice: TestChoice,
    face: int | None = None,
    request_of: Combatant | None = None,
    eclat_if_failed: bool = False,
) -> Event:
    """``ew_test`` on an encounter already locked. ``request_of``: the fighter whose player
    answered the request of this test, closed in this step; ``eclat_if_failed``: they spend
    1 point d'éclat should the roll fail (in this step too)."""
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    plan = plan_test(encounter, choice)
    house = encounter.campaign.house()
    source = DiceSource.PHYSICAL if face is not None else DiceSource.APP
    roll = face if face is not None else SecureDice().d20(1)[0]
    spend = None
    try:
        result = ew.resolve_test(plan.na, plan.nd, roll, plan.modifiers, house.table)
        if eclat_if_failed and not result.success:
            result, spend = ew.rescue_with_eclat(result, plan.combatant.character.ew.eclat)
    except RulesError as error:
        raise EncounterError(
            rules_message(error), "face" if error.field == "roll" else error.field
        ) from error
    step = Step(
        encounter,
        "ew_test",
        by,
        actor=plan.combatant,
        target=plan.opponent,
        dice=source,
        public=not plan.combatant.hidden,
    )
    if request_of is not None:
        close_request(step, request_of)
    if spend is not None:
        step.set(plan.combatant.character.ew, "eclat", spend.after)
    return step.commit(
        {
            "name": plan.combatant.character.name,
            "label": choice.label,
            "opponent": plan.opponent.character.name if plan.opponent else "",
            "result": asdict(result),
            "odds": {"success": str(plan.chance)},
            "rescuable": not result.success and plan.combatant.character.is_pc,
            "asked": request_of.character.name if request_of is not None else "",
        }
    )
