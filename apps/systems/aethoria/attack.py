"""Aethoria attacks in a running encounter: melee, ranged, cibler and attaque double.

A *plan* holds everything known before the dice (each blow's pools and thresholds, the turn
state after the attack, the exact odds) and refuses impossible choices; the service locks the
encounter, takes the typed faces (physical dice) or rolls with ``SecureDice``, resolves with
``apps.rules.aethoria`` and records every change through ``Step.set``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext

from apps.core.refusals import rules_message
from apps.encounters.fighters import is_dead, is_out
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.encounters.services import prefetch_gear
from apps.encounters.steps import (
    EncounterError,
    Fight,
    Step,
    lock_fight,
    require_status,
)
from apps.rules import aethoria
from apps.rules.errors import RulesError
from apps.systems import get_system

from .defences import NO_DEFENCE, PARRY, DefencePlan, held_items, plan_defence
from .dice import DiceBag, roll_json, set_pools
from .events import ATTACK_EVENT
from .fighters import (
    armour_of,
    cibler_probabilities,
    load_sheet,
    pick_combatant,
    rank_of,
    rules_refusal,
    turn_state_after,
    weapon_of,
)
from .specials import has_fired, without_fired
from .state import PREPARED_ATTACK
from .turns import aethoria_turn_state

# Attack modes of the form, and the engine's action each one is.
ATTACK = "attack"
CIBLER = "cibler"
DOUBLE = "double"
MODES = (ATTACK, CIBLER, DOUBLE)

# Extra net successes of an attack (rules step 3): converted into damage dice, or kept to
# trigger a special capability; "" follows the campaign's house rule.
CONVERT = "convert"
KEEP = "keep"


@dataclass(frozen=True)
class AttackChoice:
    attacker_id: int
    target_id: int
    mode: str = ATTACK
    weapon_id: int | None = None
    second_weapon_id: int | None = None
    range_band: str = ""
    covered: tuple[str, ...] = ()
    defence: str = NO_DEFENCE
    parry_with: str = ""  # "<weapon pk>" or "shield"
    defence2: str = NO_DEFENCE
    parry_with2: str = ""
    split: tuple[int, int] = (0, 0)
    encumbered: bool = False
    modifier: int = 0
    fatigue: int = 0  # attacker's fatigue dice on the (first) attack roll
    defence_fatigue: int = 0  # defender's fatigue dice on its (first) defence roll
    damage_fatigue: int = 0  # attacker's fatigue dice on the (first) damage roll, if it lands
    rank_zero_allowed: bool = False
    prefer_location: str = ""
    keep: int = 0
    extra_successes: str = ""  # CONVERT, KEEP, or "" for the campaign's house rule

    REMEMBERED = ("target_id", "mode", "weapon_id", "second_weapon_id", "modifier")
    REMEMBERED += ("range_band", "extra_successes", "defence", "parry_with")

    def remembered(self) -> dict:
        """What the fighter's next attack opens on (stored in the event as ``choice``)."""
        return {name: getattr(self, name) for name in self.REMEMBERED}


@dataclass(frozen=True)
class BlowOdds:
    lands: Fraction
    hits_target: Fraction
    expected: Fraction
    maximum: int
    rd_min: int
    rd_max: int


@dataclass(frozen=True)
class BlowPlan:
    weapon: aethoria.AethoriaWeapon
    snapshot: dict
    second_weapon: bool
    attack: aethoria.RollSpec
    defence: DefencePlan | None
    damage: aethoria.RollSpec  # without bonus dice
    odds: BlowOdds


@dataclass(frozen=True)
class AttackPlan:
    """An Aethoria attack before its dice: who, how, each blow's pools, and the exact odds."""

    attacker: Combatant
    target: Combatant
    mode: str
    action: str
    fired: bool
    aim_bonus: int
    fatigue: int
    defence_fatigue: int
    damage_fatigue: int
    ranged: bool
    covered: tuple[str, ...]
    attacker_state: dict
    target_state: dict | None
    blows: tuple[BlowPlan, ...]
    rd: dict[str, int]
    locations: dict[str, Fraction]
    prefer_location: str
    keep: int
    convert: bool  # extra net successes become damage dice (else kept for a capability)


def blow_odds(
    attack_dice: int,
    attack_threshold: int,
    defence: DefencePlan | None,
    damage: aethoria.RollSpec,
    *,
    rd: dict[str, int],
    locations: dict[str, Fraction],
    covered: tuple[str, ...],
    house,
    convert: bool,
    defence_extra: int = 0,
    damage_extra: int = 0,
) -> BlowOdds:
    """Exact odds of one blow, damage after RD averaged over where it can land (a covered
    location takes the shot on the obstacle: 0 damage)."""
    mixed: dict[int, Fraction] = {}
    lands = Fraction(0)
    # The odds differ between locations only by their RD: computed once per distinct RD
    # (two to four of them against twelve locations).
    by_rd: dict[int, aethoria.AttackOdds] = {}
    for location, chance in locations.items():
        if not chance:
            continue
        location_rd = rd.get(location, 0)
        if location_rd not in by_rd:
            by_rd[location_rd] = aethoria.attack_odds(
                attack_dice=attack_dice,
                attack_threshold=attack_threshold,
                defence_dice=defence.spec.dice + defence_extra if defence else 0,
                defence_threshold=defence.spec.threshold if defence else aethoria.DODGE_THRESHOLD,
                weapon_dice=damage.dice + damage_extra,
                fixed=damage.fixed,
                force=damage.threshold,
                rd=location_rd,
                convert_extra_successes=convert,
                ones_always_succeed=house.ones_always_succeed,
            )
        odds = by_rd[location_rd]
        lands = odds.lands
        dist = {0: Fraction(1)} if location in covered else odds.damage
        for value, p in dist.items():
            mixed[value] = mixed.get(value, Fraction(0)) + chance * p
    covered_chance = sum((locations[loc] for loc in covered if loc in locations), Fraction(0))
    rds = [rd.get(loc, 0) for loc, chance in locations.items() if chance]
    return BlowOdds(
        lands=lands,
        hits_target=lands * (1 - covered_chance),
        expected=sum((value * p for value, p in mixed.items()), Fraction(0)),
        maximum=max((value for value, p in mixed.items() if p), default=0),
        rd_min=min(rds, default=0),
        rd_max=max(rds, default=0),
    )


def plan_attack(
    encounter: Encounter, choice: AttackChoice, combatants: list[Combatant] | None = None
) -> AttackPlan:
    """Everything about an attack known before rolling (raises EncounterError)."""
    house = encounter.campaign.house()
    attacker = pick_combatant(encounter, combatants, choice.attacker_id, "attacker")
    target = pick_combatant(encounter, combatants, choice.target_id, "target")
    if attacker.pk == target.pk:
        raise EncounterError(gettext("Un combattant ne s'attaque pas lui-même."), "target")
    if is_out(attacker, house):
        raise EncounterError(
            gettext("%(name)s est hors de combat.") % {"name": attacker.character.name}, "attacker"
        )
    if is_dead(target, house):
        raise EncounterError(
            gettext("%(name)s est déjà mort.") % {"name": target.character.name}, "target"
        )
    if choice.mode not in MODES:
        raise EncounterError(gettext("Mode d'attaque inconnu."), "mode")
    convert = converts(choice.extra_successes, house)
    a_sheet, t_sheet = load_sheet(attacker), load_sheet(target)
    first = weapon_of(a_sheet, choice.weapon_id)
    weapons = [first]
    if choice.mode == DOUBLE:
        if not choice.second_weapon_id or choice.second_weapon_id == choice.weapon_id:
            raise EncounterError(
                gettext("L'attaque double demande une seconde arme."), "second_weapon"
            )
        weapons.append(weapon_of(a_sheet, choice.second_weapon_id, "second_weapon"))
    rules_weapons = [w.as_rules_weapon() for w in weapons]
    ranged = first.is_ranged
    action = {
        ATTACK: aethoria.RANGED_ATTACK if ranged else aethoria.ATTACK_ACTION,
        CIBLER: aethoria.CIBLER,
        DOUBLE: aethoria.DOUBLE_ATTACK,
    }[choice.mode]
    defences = (choice.defence, choice.defence2 if choice.mode == DOUBLE else NO_DEFENCE)
    try:
        if choice.mode == DOUBLE:
            aethoria.check_double_attack(rules_weapons)
            if any(w.ranged for w in rules_weapons):
                raise EncounterError(
                    gettext("L'attaque double se fait avec deux armes de mêlée."), "weapon"
                )
        fired = has_fired(encounter, attacker, PREPARED_ATTACK)
        state = aethoria_turn_state(attacker)
        if fired:
            # The prepared action happens now: it was the action of an earlier turn.
            aim_bonus = 0
            attacker_state = without_fired(attacker)
        else:
            after, aim_bonus = state.act(action, target=target.pk)
            attacker_state = turn_state_after(attacker, after)
        if ranged and (choice.defence != NO_DEFENCE):
            raise EncounterError(
                gettext("La cible d'une attaque à distance ne peut pas se défendre."), "defence"
            )
        used = sum(d != NO_DEFENCE for d in defences)
        target_state = None
        maluses = (0, 0)
        if used:
            if is_out(target, house):
                raise EncounterError(
                    gettext("%(name)s est hors de combat : pas de défense.")
                    % {"name": target.character.name},
                    "defence",
                )
            t_state = aethoria_turn_state(target)
            if choice.mode == DOUBLE:
                plan = aethoria.plan_double_defence(
                    *(d if d != NO_DEFENCE else None for d in defences),
                    defences_left=t_state.defences,
                    held=held_items(t_sheet),
                    split=choice.split if used == 2 else (0, 0),
                )
                maluses = (plan.first_malus, plan.second_malus)
                if defences == (PARRY, PARRY) and choice.parry_with == choice.parry_with2:
                    raise EncounterError(
                        gettext("Parer les deux coups demande deux objets différents."),
                        "parry_with2",
                    )
            t_after = t_state.use_defences(used)
            target_state = turn_state_after(target, t_after)
        rd = {loc: aethoria.location_rd(armour_of(t_sheet), loc, house) for loc in house.locations}
        covered = tuple(choice.covered) if ranged else ()
        for location in covered:
            aethoria.check_location(location, house)
        prefer = choice.prefer_location if choice.mode == CIBLER else ""
        if prefer:
            aethoria.check_location(prefer, house)
        locations = cibler_probabilities(house, prefer)
        blows = []
        rank_field = "weapon"
        for index, (weapon, rules_weapon) in enumerate(zip(weapons, rules_weapons, strict=True)):
            rank = rank_of(a_sheet, skill_id=weapon.skill_id)
            attack = aethoria.attack_roll(
                rank,
                a_sheet.adresse,
                [choice.modifier] if choice.modifier else [],
                action=action,
                range_band=(choice.range_band or None) if ranged else None,
                aim_bonus=aim_bonus,
                rank_zero_allowed=choice.rank_zero_allowed,
                house=house,
            )
            defence = None
            if defences[index] != NO_DEFENCE:
                defence = plan_defence(
                    defences[index],
                    choice.parry_with if index == 0 else choice.parry_with2,
                    maluses[index],
                    attacker_sheet=a_sheet,
                    target_sheet=t_sheet,
                    choice=choice,
                    house=house,
                    field="parry_with" if index == 0 else "parry_with2",
                )
            damage = aethoria.damage_roll(
                rules_weapon, a_sheet.force, 0, second_weapon=index == 1, house=house
            )
            fatigue = choice.fatigue if index == 0 else 0
            blows.append(
                BlowPlan(
                    weapon=rules_weapon,
                    snapshot=weapon.rules_snapshot(),
                    second_weapon=index == 1,
                    attack=attack,
                    defence=defence,
                    damage=damage,
                    odds=blow_odds(
                        attack.dice + fatigue,
                        attack.threshold,
                        defence,
                        damage,
                        rd=rd,
                        locations=locations,
                        covered=covered,
                        house=house,
                        convert=convert,
                        defence_extra=choice.defence_fatigue if index == 0 else 0,
                        damage_extra=choice.damage_fatigue if index == 0 else 0,
                    ),
                )
            )
        if choice.defence_fatigue and blows[0].defence is None:
            raise EncounterError(
                gettext("Pas de défense choisie : pas de dés de fatigue de défense."),
                "defence_fatigue",
            )
        # Each roll's fatigue is decided once; the pool must be able to pay them all.
        pools = a_sheet.pools(house)
        for count, field in (
            (choice.fatigue, "fatigue"),
            (choice.damage_fatigue, "damage_fatigue"),
        ):
            if count:
                try:
                    pools, _ = aethoria.spend_fatigue(pools, aethoria.PHYSICAL, count)
                except RulesError as error:
                    raise EncounterError(rules_message(error), field) from error
        if choice.defence_fatigue:
            try:
                aethoria.spend_fatigue(
                    t_sheet.pools(house), aethoria.PHYSICAL, choice.defence_fatigue
                )
            except RulesError as error:
                raise EncounterError(
                    gettext("%(name)s : %(message)s")
                    % {"name": target.character.name, "message": rules_message(error)},
                    "defence_fatigue",
                ) from error
    except RulesError as error:
        field = error.field
        if field in ("rank", "faces", "dice"):
            field = rank_field
        elif field in ("defences",):
            field = "defence"
        raise EncounterError(rules_message(error), field) from error
    return AttackPlan(
        attacker=attacker,
        target=target,
        mode=choice.mode,
        action=action,
        fired=fired,
        aim_bonus=aim_bonus,
        fatigue=choice.fatigue,
        defence_fatigue=choice.defence_fatigue,
        damage_fatigue=choice.damage_fatigue,
        ranged=ranged,
        covered=covered,
        attacker_state=attacker_state,
        target_state=target_state,
        blows=tuple(blows),
        rd=rd,
        locations=locations,
        prefer_location=prefer,
        keep=choice.keep,
        convert=convert,
    )


def converts(extra_successes: str, house) -> bool:
    """Whether an attack's extra net successes become damage dice: the GM's choice for this
    attack, else the campaign's house rule."""
    if extra_successes not in ("", CONVERT, KEEP):
        message = gettext("Choix inconnu pour les réussites en plus.")
        raise EncounterError(message, "extra_successes")
    if not extra_successes:
        return house.convert_extra_successes
    return extra_successes == CONVERT


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
    fight: Fight, *, by, choice: AttackChoice, faces: tuple[BlowFaces, ...] = ()
) -> Event:
    """``aethoria_attack`` on a fight already locked with its two fighters (``lock_fight``),
    in the caller's transaction: the gear of those two only is read."""
    encounter = fight.encounter
    require_status(encounter, Status.RUNNING)
    _check_attacker(fight, choice.attacker_id)
    combatants = list(fight.fighters.values())
    prefetch_gear(encounter, combatants)
    plan = plan_attack(encounter, choice, combatants)
    house = encounter.campaign.house()
    attacker, target = plan.attacker, plan.target
    a_sheet, t_sheet = attacker.character.aethoria, target.character.aethoria
    _check_no_defence_faces(plan, faces)
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
