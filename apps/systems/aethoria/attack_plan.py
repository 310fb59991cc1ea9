"""Planning an Aethoria attack before its dice: the form's modes and choice, each blow's pools
and thresholds, the defender's defences, the turn states after, and the exact odds — what the
console shows before the roll and what the step resolves (``attack.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext

from apps.core.refusals import rules_message
from apps.encounters.kit import EncounterError, Modifier, Roll, is_dead, is_out, situational
from apps.encounters.models import Combatant, Encounter
from apps.rules import aethoria
from apps.rules.errors import RulesError
from apps.systems import system_of

from .conditions import encumbered
from .defences import NO_DEFENCE, PARRY, DefencePlan, held_items, plan_defence
from .fighters import (
    armour_of,
    cibler_probabilities,
    load_sheet,
    pick_combatant,
    rank_of,
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
    situation: Situation


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
    _check_fighters(attacker, target, choice, house)
    convert = converts(choice.extra_successes, house)
    a_sheet, t_sheet = load_sheet(attacker), load_sheet(target)
    weapons = _weapons(a_sheet, choice)
    rules_weapons = [w.as_rules_weapon() for w in weapons]
    ranged = weapons[0].is_ranged
    action = _action(choice.mode, ranged)
    defences = (choice.defence, choice.defence2 if choice.mode == DOUBLE else NO_DEFENCE)
    try:
        if choice.mode == DOUBLE:
            _check_double(rules_weapons)
        fired, aim_bonus, attacker_state = _attacker_turn(encounter, attacker, target, action)
        if ranged and (choice.defence != NO_DEFENCE):
            raise EncounterError(
                gettext("La cible d'une attaque à distance ne peut pas se défendre."), "defence"
            )
        target_state, maluses = _target_turn(target, t_sheet, choice, defences, house)
        armour = armour_of(t_sheet)
        rd = {loc: aethoria.location_rd(armour, loc, house) for loc in house.locations}
        covered = tuple(choice.covered) if ranged else ()
        for location in covered:
            aethoria.check_location(location, house)
        prefer = choice.prefer_location if choice.mode == CIBLER else ""
        if prefer:
            aethoria.check_location(prefer, house)
        locations = cibler_probabilities(house, prefer)
        situation = Situation.of(encounter, attacker, target)
        odds_of = _OddsInputs(rd, locations, covered, convert, house, situation)
        blows = [
            _blow(
                index,
                weapon,
                rules_weapon,
                choice=choice,
                action=action,
                aim_bonus=aim_bonus,
                ranged=ranged,
                defences=defences,
                maluses=maluses,
                a_sheet=a_sheet,
                t_sheet=t_sheet,
                odds_of=odds_of,
            )
            for index, (weapon, rules_weapon) in enumerate(zip(weapons, rules_weapons, strict=True))
        ]
        _check_fatigue(choice, blows, a_sheet, t_sheet, target, house)
    except RulesError as error:
        raise EncounterError(rules_message(error), _form_field(error.field)) from error
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
        situation=situation,
    )


def _form_field(field: str | None) -> str | None:
    """The attack form's field an engine refusal belongs to."""
    if field in ("rank", "faces", "dice"):
        return "weapon"
    if field == "defences":
        return "defence"
    return field


def _check_fighters(attacker: Combatant, target: Combatant, choice: AttackChoice, house) -> None:
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


def _weapons(a_sheet, choice: AttackChoice) -> list:
    """The weapon, and the second one of an attaque double, from the attacker's own gear."""
    weapons = [weapon_of(a_sheet, choice.weapon_id)]
    if choice.mode == DOUBLE:
        if not choice.second_weapon_id or choice.second_weapon_id == choice.weapon_id:
            raise EncounterError(
                gettext("L'attaque double demande une seconde arme."), "second_weapon"
            )
        weapons.append(weapon_of(a_sheet, choice.second_weapon_id, "second_weapon"))
    return weapons


def _action(mode: str, ranged: bool) -> str:
    """The engine's action for the form's mode."""
    if mode == ATTACK:
        return aethoria.RANGED_ATTACK if ranged else aethoria.ATTACK_ACTION
    return {CIBLER: aethoria.CIBLER, DOUBLE: aethoria.DOUBLE_ATTACK}[mode]


def _check_double(rules_weapons: list) -> None:
    aethoria.check_double_attack(rules_weapons)
    if any(w.ranged for w in rules_weapons):
        raise EncounterError(
            gettext("L'attaque double se fait avec deux armes de mêlée."), "weapon"
        )


def _attacker_turn(encounter, attacker: Combatant, target: Combatant, action: str):
    """Whether it fires a prepared attack, its aim bonus, and its stored state after."""
    if has_fired(encounter, attacker, PREPARED_ATTACK):
        # The prepared action happens now: it was the action of an earlier turn.
        return True, 0, without_fired(attacker)
    after, aim_bonus = aethoria_turn_state(attacker).act(action, target=target.pk)
    return False, aim_bonus, turn_state_after(attacker, after)


def _target_turn(target: Combatant, t_sheet, choice: AttackChoice, defences, house):
    """The defender's stored state after its defences (None without any), and the malus of
    each blow's defence (an attaque double splits the defences)."""
    used = sum(d != NO_DEFENCE for d in defences)
    if not used:
        return None, (0, 0)
    if is_out(target, house):
        raise EncounterError(
            gettext("%(name)s est hors de combat : pas de défense.")
            % {"name": target.character.name},
            "defence",
        )
    t_state = aethoria_turn_state(target)
    maluses = (0, 0)
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
                gettext("Parer les deux coups demande deux objets différents."), "parry_with2"
            )
    return turn_state_after(target, t_state.use_defences(used)), maluses


@dataclass(frozen=True)
class Situation:
    """What the situation adds to the attack's rolls (``kit.situational``: the fighters'
    conditions, then the system's hook), named for the odds line; in dice."""

    attack: tuple[Modifier, ...] = ()
    defence: tuple[Modifier, ...] = ()
    damage: tuple[Modifier, ...] = ()
    encumbered: bool = False  # the target bears "encombré": its dodge takes the rule's malus

    @classmethod
    def of(cls, encounter: Encounter, attacker: Combatant, target: Combatant) -> Situation:
        system = system_of(encounter.campaign)
        return cls(
            tuple(situational(system, attacker, Roll.ATTACK, against=target)),
            tuple(situational(system, target, Roll.DEFENCE, against=attacker)),
            tuple(situational(system, attacker, Roll.DAMAGE, against=target)),
            encumbered(target),
        )

    @staticmethod
    def values(modifiers: tuple[Modifier, ...]) -> list[int]:
        return [m.value for m in modifiers]


@dataclass(frozen=True)
class _OddsInputs:
    """What every blow's odds share: the target's armour, the locations, the cover."""

    rd: dict[str, int]
    locations: dict[str, Fraction]
    covered: tuple[str, ...]
    convert: bool
    house: aethoria.AethoriaHouseRules
    situation: Situation


def _blow(
    index: int,
    weapon,
    rules_weapon,
    *,
    choice: AttackChoice,
    action: str,
    aim_bonus: int,
    ranged: bool,
    defences: tuple[str, str],
    maluses: tuple[int, int],
    a_sheet,
    t_sheet,
    odds_of: _OddsInputs,
) -> BlowPlan:
    """One blow of the attack (the second is an attaque double's second weapon)."""
    house = odds_of.house
    first = index == 0
    situation = odds_of.situation
    attack = aethoria.attack_roll(
        rank_of(a_sheet, skill_id=weapon.skill_id),
        a_sheet.adresse,
        [*([choice.modifier] if choice.modifier else []), *situation.values(situation.attack)],
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
            choice.parry_with if first else choice.parry_with2,
            [*([maluses[index]] if maluses[index] else []), *situation.values(situation.defence)],
            attacker_sheet=a_sheet,
            target_sheet=t_sheet,
            choice=choice,
            house=house,
            field="parry_with" if first else "parry_with2",
            encumbered=situation.encumbered,
        )
    # The engine adds dice to a damage roll, it takes none away: a malus there is the
    # system's to say otherwise (by armour, by a condition's own rule).
    bonus = max(0, sum(situation.values(situation.damage)))
    damage = aethoria.damage_roll(
        rules_weapon, a_sheet.force, bonus, second_weapon=index == 1, house=house
    )
    odds = blow_odds(
        attack.dice + (choice.fatigue if first else 0),
        attack.threshold,
        defence,
        damage,
        rd=odds_of.rd,
        locations=odds_of.locations,
        covered=odds_of.covered,
        house=house,
        convert=odds_of.convert,
        defence_extra=choice.defence_fatigue if first else 0,
        damage_extra=choice.damage_fatigue if first else 0,
    )
    return BlowPlan(
        weapon=rules_weapon,
        snapshot=weapon.rules_snapshot(),
        second_weapon=index == 1,
        attack=attack,
        defence=defence,
        damage=damage,
        odds=odds,
    )


def _check_fatigue(choice: AttackChoice, blows, a_sheet, t_sheet, target, house) -> None:
    """Each roll's fatigue is decided once: the pools must be able to pay them all."""
    if choice.defence_fatigue and blows[0].defence is None:
        raise EncounterError(
            gettext("Pas de défense choisie : pas de dés de fatigue de défense."),
            "defence_fatigue",
        )
    pools = a_sheet.pools(house)
    for count, field in ((choice.fatigue, "fatigue"), (choice.damage_fatigue, "damage_fatigue")):
        if count:
            try:
                pools, _ = aethoria.spend_fatigue(pools, aethoria.PHYSICAL, count)
            except RulesError as error:
                raise EncounterError(rules_message(error), field) from error
    if choice.defence_fatigue:
        try:
            aethoria.spend_fatigue(t_sheet.pools(house), aethoria.PHYSICAL, choice.defence_fatigue)
        except RulesError as error:
            raise EncounterError(
                gettext("%(name)s : %(message)s")
                % {"name": target.character.name, "message": rules_message(error)},
                "defence_fatigue",
            ) from error


def converts(extra_successes: str, house) -> bool:
    """Whether an attack's extra net successes become damage dice: the GM's choice for this
    attack, else the campaign's house rule."""
    if extra_successes not in ("", CONVERT, KEEP):
        message = gettext("Choix inconnu pour les réussites en plus.")
        raise EncounterError(message, "extra_successes")
    if not extra_successes:
        return house.convert_extra_successes
    return extra_successes == CONVERT
