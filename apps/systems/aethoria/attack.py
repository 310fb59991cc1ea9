"""Aethoria attacks in a running encounter: melee, ranged, cibler and attaque double.

The plan (``attack_plan``) holds everything known before the dice and refuses impossible
choices; the step locks the fight, takes the typed faces (physical dice) or rolls with
``SecureDice``, resolves once with ``aethoria.resolve_attack`` and records every change
through ``Step.set``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from django.db import transaction
from django.utils.translation import gettext

from apps.encounters.kit import (
    EncounterError,
    Fight,
    Step,
    close_request,
    lock_fight,
    require_status,
)
from apps.encounters.models import Combatant, Event, Status
from apps.rules import aethoria
from apps.rules.errors import RulesError
from apps.systems import get_system

from .attack_plan import CIBLER, AttackChoice, AttackPlan, BlowPlan, plan_attack
from .dice import DiceBag, roll_json, set_pools
from .events import ATTACK_EVENT
from .fighters import armour_of, load_sheets, rules_refusal
from .specials import has_fired
from .state import PREPARED_ATTACK


def attack_outcome(
    attack_successes: int,
    defence_successes: int,
    *,
    location_face: int,
    ranged: bool,
    covered,
    convert: bool,
    house,
) -> aethoria.AttackOutcome:
    """The engine's outcome, with this attack's choice about its extra successes."""
    return aethoria.attack_outcome(
        attack_successes,
        defence_successes,
        location_face=location_face,
        ranged=ranged,
        covered=covered,
        house=replace(house, convert_extra_successes=convert),
    )


@dataclass(frozen=True)
class BlowFaces:
    """Typed faces of one blow (None: the app rolls)."""

    attack: tuple[int, ...] | None = None
    fatigue: tuple[int, ...] | None = None
    location: tuple[int, ...] | None = None
    defence: tuple[int, ...] | None = None
    damage: tuple[int, ...] | None = None
    defence_fatigue: tuple[int, ...] | None = None
    damage_fatigue: tuple[int, ...] | None = None
    # ``damage`` holds the weapon's own dice only, the bonus dice of extra successes are the
    # app's: a player's phone types the damage before knowing whether (and how well) it lands.
    damage_bonus_by_app: bool = False


@transaction.atomic
def aethoria_attack(
    *,
    encounter_id: int,
    version: int | None,
    by,
    choice: AttackChoice,
    faces: tuple[BlowFaces, ...] = (),
) -> Event:
    """The acting combatant (or one firing its prepared action) attacks: attack roll and hit
    location, the defender's roll, net successes, damage against the location's RD, PV."""
    fighters = (choice.attacker_id, choice.target_id)
    fight = lock_fight(encounter_id, fighters, system=get_system("aethoria"), version=version)
    if fight is None:
        raise EncounterError(gettext("Ce combattant ne fait pas partie de la rencontre."))
    return aethoria_attack_step(fight, by=by, choice=choice, faces=faces)


def aethoria_attack_step(
    fight: Fight,
    *,
    by,
    choice: AttackChoice,
    faces: tuple[BlowFaces, ...] = (),
    request_of: Combatant | None = None,
) -> Event:
    """``aethoria_attack`` on a fight already locked with its two fighters (``lock_fight``),
    in the caller's transaction: the gear of those two only is read. ``request_of``: the
    fighter whose player answered this attack's request (its defence), closed in this step."""
    encounter = fight.encounter
    require_status(encounter, Status.RUNNING)
    _check_attacker(fight, choice.attacker_id)
    combatants = list(fight.fighters.values())
    # Their skills and weapons, two queries for both; their armour came with the lock.
    load_sheets(combatants)
    plan = plan_attack(encounter, choice, combatants)
    house = encounter.campaign.house()
    attacker, target = plan.attacker, plan.target
    a_sheet, t_sheet = attacker.character.aethoria, target.character.aethoria
    _check_no_defence_faces(plan, faces)
    _check_weapon_damage_faces(plan, faces)
    bag = DiceBag()
    step = Step(
        encounter,
        ATTACK_EVENT,
        by,
        actor=attacker,
        target=target,
        public=not (attacker.hidden or target.hidden),
    )
    try:
        result = aethoria.resolve_attack(
            blows=[_rules_blow(plan, index) for index in range(len(plan.blows))],
            attacker_pools=a_sheet.pools(house),
            attacker_force=a_sheet.force,
            target=aethoria.AttackTarget(
                t_sheet.pools(house), t_sheet.vitalite, armour_of(t_sheet)
            ),
            dice=_faces_source(bag, faces, plan),
            ranged=plan.ranged,
            covered=plan.covered,
            cibler=plan.mode == CIBLER,
            prefer_location=plan.prefer_location,
            keep=plan.keep,
            convert=plan.convert,
            house=house,
        )
    except RulesError as error:
        raise rules_refusal(error) from error
    blows = [_blow_json(blow, row) for blow, row in zip(plan.blows, result.blows, strict=True)]
    a_pools, t_pools = result.attacker_pools, result.target_pools
    if request_of is not None:
        close_request(step, request_of)
    set_pools(step, a_sheet, a_pools)
    set_pools(step, t_sheet, t_pools)
    step.set(attacker, "state", plan.attacker_state)
    if plan.target_state is not None:
        step.set(target, "state", plan.target_state)
    step.dice = bag.source
    return step.commit(
        {
            "attacker": attacker.character.name,
            "target": target.character.name,
            "mode": plan.mode,
            "action": plan.action,
            "ranged": plan.ranged,
            "range_band": choice.range_band if plan.ranged else "",
            "covered": list(plan.covered),
            "fired": plan.fired,
            "aim_bonus": plan.aim_bonus,
            "fatigue": plan.fatigue,
            "defence_fatigue": plan.defence_fatigue,
            "damage_fatigue": plan.damage_fatigue,
            "encumbered": choice.encumbered,
            "prefer_location": plan.prefer_location,
            "convert": plan.convert,
            "blows": blows,
            "choice": choice.remembered(),
            "dead": result.dead,
            "out": result.out,
            "asked": request_of.character.name if request_of is not None else "",
        }
    )


def _check_attacker(fight: Fight, attacker_id: int) -> None:
    """The acting combatant, or one whose prepared attack was just fired."""
    if fight.acting is not None and fight.acting.pk == attacker_id:
        return
    fired = fight.fighters.get(attacker_id)
    if fired is not None and has_fired(fight.encounter, fired, PREPARED_ATTACK):
        return
    raise EncounterError(gettext("Ce n'est pas son tour d'agir."), "attacker")


def _check_no_defence_faces(plan: AttackPlan, faces: tuple[BlowFaces, ...]) -> None:
    for index, blow in enumerate(plan.blows):
        if blow.defence is None and index < len(faces) and faces[index].defence:
            raise EncounterError(
                gettext("Pas de défense choisie : laissez ses dés vides."),
                f"defence_faces{('', '2')[index]}",
            )


def _check_weapon_damage_faces(plan: AttackPlan, faces: tuple[BlowFaces, ...]) -> None:
    """Damage faces typed before the roll (``damage_bonus_by_app``) are checked before it:
    a wrong count refused after the dice would tell whether the blow landed."""
    for index, (blow, typed) in enumerate(zip(plan.blows, faces, strict=False)):
        typed_count = len(typed.damage) if typed.damage is not None else None
        if typed.damage_bonus_by_app and typed_count not in (None, blow.weapon.dice):
            raise EncounterError(
                gettext("Dégâts : il faut exactement %(count)s d10 (reçu : %(received)s).")
                % {"count": blow.weapon.dice, "received": typed_count},
                f"damage_faces{('', '2')[index]}",
            )


def _rules_blow(plan: AttackPlan, index: int) -> aethoria.Blow:
    """A planned blow as the engine resolves it (the fatigue dice go with the first)."""
    blow = plan.blows[index]
    first = index == 0
    return aethoria.Blow(
        attack=blow.attack,
        weapon=blow.weapon,
        defence=blow.defence.spec if blow.defence else None,
        second_weapon=blow.second_weapon,
        fatigue=plan.fatigue if first else 0,
        defence_fatigue=plan.defence_fatigue if first and blow.defence else 0,
        damage_fatigue=plan.damage_fatigue if first else 0,
    )


# Each roll the engine asks for: the typed faces it takes (a ``BlowFaces`` field), the form
# field a refusal goes next to, and whether only the first blow has it.
TYPED_ROLLS = {
    aethoria.ATTACK_ROLL: ("attack", "attack_faces", False),
    aethoria.FATIGUE_ROLL: ("fatigue", "fatigue_faces", True),
    aethoria.LOCATION_ROLL: ("location", "location_faces", False),
    aethoria.DEFENCE_ROLL: ("defence", "defence_faces", False),
    aethoria.DEFENCE_FATIGUE_ROLL: ("defence_fatigue", "defence_fatigue_faces", True),
    aethoria.DAMAGE_ROLL: ("damage", "damage_faces", False),
    aethoria.DAMAGE_FATIGUE_ROLL: ("damage_fatigue", "damage_fatigue_faces", True),
}


def _faces_source(bag: DiceBag, faces: tuple[BlowFaces, ...], plan: AttackPlan):
    """The engine's source of faces: those typed from physical dice for a roll, else rolled
    by the app, through the bag that tells the step's dice source."""

    def take(asked: aethoria.DiceAsked) -> tuple[int, ...]:
        name, field, first_only = TYPED_ROLLS[asked.role]
        typed = faces[asked.blow] if asked.blow < len(faces) else BlowFaces()
        value = None if first_only and asked.blow else getattr(typed, name)
        if not first_only:
            field += ("", "2")[asked.blow]
        label = _roll_label(asked, plan)
        if name == "damage" and typed.damage_bonus_by_app and value is not None:
            own = bag.take(value, asked.count - asked.bonus, asked.sides, field, label)
            return own + bag.take(None, asked.bonus, asked.sides, field, label)
        return bag.take(value, asked.count, asked.sides, field, label)

    return take


def _roll_label(asked: aethoria.DiceAsked, plan: AttackPlan) -> str:
    if asked.role == aethoria.DAMAGE_ROLL and asked.bonus:
        return gettext("Dégâts (%(weapon)s de l'arme + %(bonus)s bonus)") % {
            "weapon": plan.blows[asked.blow].weapon.dice,
            "bonus": asked.bonus,
        }
    return {
        aethoria.ATTACK_ROLL: gettext("Attaque"),
        aethoria.FATIGUE_ROLL: gettext("Dés de fatigue"),
        aethoria.LOCATION_ROLL: gettext("Localisation"),
        aethoria.DEFENCE_ROLL: gettext("Défense"),
        aethoria.DEFENCE_FATIGUE_ROLL: gettext("Dés de fatigue de la défense"),
        aethoria.DAMAGE_ROLL: gettext("Dégâts"),
        aethoria.DAMAGE_FATIGUE_ROLL: gettext("Dés de fatigue des dégâts"),
    }[asked.role]


def _blow_json(blow: BlowPlan, result: aethoria.BlowResult) -> dict:
    """One blow as the event stores it (the log, undo and the fatigue dice added after read
    it back)."""
    row = {
        "weapon": blow.snapshot,
        "second_weapon": blow.second_weapon,
        "attack": roll_json(result.attack),
        "defence": (
            {"kind": blow.defence.kind, "item": blow.defence.item, **roll_json(result.defence)}
            if result.defence
            else None
        ),
        "location_faces": list(result.location_faces),
        "outcome": asdict(result.outcome),
        "damage": None,
        "severe": aethoria.NO_EFFECT,
        "odds": {
            "lands": str(blow.odds.lands),
            "expected": str(blow.odds.expected),
            "max": blow.odds.maximum,
        },
    }
    if result.damage is not None:
        row["damage"] = {**roll_json(result.damage_roll), **asdict(result.damage)}
        row["pv"] = {"before": result.pv_before, "after": result.pv_after}
        row["severe"] = result.damage.severe_effect
    return row
