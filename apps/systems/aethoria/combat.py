"""Aethoria actions in a running encounter: attacks (melee, ranged, cibler, attaque double),
special actions (défense, préparer, viser, autre), a lost aim, firing a prepared action,
spells, tests, fatigue dice decided after a roll (tests, spells and every roll of an attack),
and the GM's decision on a proposed severe effect.

As in ``ew_services``: a *plan* holds everything known before the dice (pools, thresholds,
turn state after the action, exact odds) and refuses impossible choices; the service locks
the encounter, takes the typed faces (physical dice) or rolls with ``SecureDice``, resolves
with ``apps.rules.aethoria`` and records every change through ``Step.set``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext

from apps.characters.models import AethoriaSkillRank
from apps.core.refusals import rules_message
from apps.encounters.fighters import is_dead, is_out
from apps.encounters.models import Combatant, DiceSource, Encounter, Event, Status
from apps.encounters.services import _combatant, _combatants, acting_combatant
from apps.encounters.steps import (
    EncounterError,
    Step,
    lock_and_refresh_pools,
    lock_encounter,
    require_status,
)
from apps.rules import aethoria
from apps.rules.dice import D10, D20, SecureDice, check_faces
from apps.rules.errors import RulesError

from .log import WORDS, location_words
from .turns import aethoria_turn_state

ATTACK_EVENT = "aethoria_attack"
TEST_EVENT = "aethoria_test"
SPELL_EVENT = "aethoria_spell"
FATIGUE_EVENT = "aethoria_fatigue"
ATTACK_FATIGUE_EVENT = "aethoria_attack_fatigue"
EFFECT_EVENT = "aethoria_effect"
AIM_LOST_EVENT = "aethoria_aim_lost"

# Attack modes of the form, and the engine's action each one is.
ATTACK = "attack"
CIBLER = "cibler"
DOUBLE = "double"
MODES = (ATTACK, CIBLER, DOUBLE)

NO_DEFENCE = "none"
DODGE = aethoria.DODGE_DEFENCE
PARRY = aethoria.PARRY_DEFENCE
SHIELD = "shield"

# Extra net successes of an attack (rules step 3): converted into damage dice, or kept to
# trigger a special capability; "" follows the campaign's house rule.
CONVERT = "convert"
KEEP = "keep"

# The special actions that take the turn without a roll.
SPECIAL_ACTIONS = (aethoria.DEFENSE, aethoria.PREPARER, aethoria.VISER, aethoria.MOVE, "other")

# What a prepared action is: fired, an attack or a spell gets its form; a free-text action is
# simply logged.
PREPARED_ATTACK = "attack"
PREPARED_SPELL = "spell"
PREPARED_OTHER = "other"
PREPARED_KINDS = (PREPARED_ATTACK, PREPARED_SPELL, PREPARED_OTHER)


def _rules(error: RulesError, field: str | None = None) -> EncounterError:
    return EncounterError(rules_message(error), field or error.field)


# --- Reading a combatant ---------------------------------------------------------------------


def load_sheet(combatant: Combatant):
    """The combatant's sheet with its skills, weapons and armour (prefetched ones are kept)."""
    sheet = combatant.character.aethoria
    prefetch_related_objects(
        [sheet],
        Prefetch("skills", queryset=AethoriaSkillRank.objects.select_related("skill")),
        "weapons",
        "armour_pieces",
    )
    return sheet


def rank_of(sheet, *, kind: str | None = None, skill_id: int | None = None) -> int:
    """Rank of a skill on the sheet, by kind (dodge, parry, magic) or by skill; 0 if absent."""
    return skill_of(sheet, kind=kind, skill_id=skill_id)[1]


def skill_of(sheet, *, kind: str | None = None, skill_id: int | None = None) -> tuple[str, int]:
    """Name and rank of a skill on the sheet, by kind or by skill; ("", 0) if absent."""
    for rank in sheet.skills.all():
        if (kind and rank.skill.kind == kind) or (skill_id and rank.skill_id == skill_id):
            return rank.skill.name, rank.rank
    return "", 0


def weapon_of(sheet, weapon_id: int | None, field: str = "weapon"):
    for weapon in sheet.weapons.all():
        if weapon.pk == weapon_id:
            return weapon
    raise EncounterError(gettext("Cette arme n'est pas dans son équipement."), field)


def armour_of(sheet) -> tuple[aethoria.ArmourPiece, ...]:
    """The sheet's armour as the engine's pieces (coverages fetched in one query)."""
    pieces = list(sheet.armour_pieces.all())
    prefetch_related_objects(pieces, "coverages")
    return tuple(rule for piece in pieces for rule in piece.as_rules_pieces())


def location_probabilities(house: aethoria.AethoriaHouseRules) -> dict[str, Fraction]:
    """Chance of each location on one d20, from the campaign's hit-location table."""
    return {loc: Fraction(high - low + 1, D20) for low, high, loc in house.hit_locations}


def cibler_probabilities(house: aethoria.AethoriaHouseRules, prefer: str) -> dict[str, Fraction]:
    """Cibler keeps the die showing the preferred location when one does, else the other
    die: the preferred location comes up with 1 − (1 − p)², the others with (1 − p)·q."""
    single = location_probabilities(house)
    if not prefer:
        return single
    p = single[prefer]
    return {loc: (1 - (1 - p) ** 2) if loc == prefer else (1 - p) * q for loc, q in single.items()}


def turn_state_after(combatant: Combatant, state: aethoria.TurnState, **extra) -> dict:
    """The combatant's stored state with a new turn state (bleeding, effects... are kept)."""
    return {**combatant.state, **asdict(state), **extra}


def fired_marker(encounter: Encounter) -> dict:
    """A fired prepared action is usable during the turn it was fired in, once."""
    return {"round": encounter.round, "turn": encounter.turn}


def fired_kind(combatant: Combatant) -> str:
    """What the fired prepared action is (states stored before kinds existed: an attack)."""
    return (combatant.state or {}).get("fired_kind", PREPARED_ATTACK)


def has_fired(encounter: Encounter, combatant: Combatant, kind: str | None = None) -> bool:
    """Its prepared action was fired this turn and not used yet (as ``kind``, if given)."""
    if (combatant.state or {}).get("fired") != fired_marker(encounter):
        return False
    return kind is None or fired_kind(combatant) == kind


def without_fired(state: dict) -> dict:
    """The state once the fired action has taken place."""
    return {k: v for k, v in state.items() if k not in ("fired", "fired_kind")}


# --- Dice ------------------------------------------------------------------------------------


class DiceBag:
    """Faces typed from physical dice (exact count checked) or rolled by the app."""

    def __init__(self) -> None:
        self.secure = SecureDice()
        self.typed = 0
        self.rolled = 0

    def take(
        self, typed: tuple[int, ...] | None, count: int, sides: int, field: str, label: str
    ) -> tuple[int, ...]:
        if typed is None:
            if count:
                self.rolled += 1
            return self.secure.d10(count) if sides == D10 else self.secure.d20(count)
        try:
            faces = check_faces(typed, sides, field=field)
        except RulesError as error:
            raise _rules(error, field) from error
        if len(faces) != count:
            raise EncounterError(
                gettext(
                    "%(label)s : il faut exactement %(count)s d%(sides)s (reçu : %(received)s)."
                )
                % {"label": label, "count": count, "sides": sides, "received": len(faces)},
                field,
            )
        self.typed += 1
        return faces

    @property
    def source(self) -> str:
        if self.typed and self.rolled:
            return "mixed"
        if self.typed:
            return DiceSource.PHYSICAL
        return DiceSource.APP if self.rolled else DiceSource.NONE


def roll_json(result: aethoria.PoolResult) -> dict:
    return {
        "kind": result.spec.kind,
        "dice": result.spec.dice,
        "threshold": result.spec.threshold,
        "fixed": result.spec.fixed,
        "fatigue": result.spec.fatigue,
        "faces": list(result.faces),
        "fatigue_faces": list(result.fatigue_faces),
        "fatigue_timing": result.fatigue_timing,
        "successes": result.successes,
        "ones_always_succeed": result.spec.ones_always_succeed,
    }


def roll_from_json(data: dict) -> aethoria.PoolResult:
    # Rolls stored before "un 1 réussit toujours" counted no 1 under a threshold below 1.
    ones = data.get("ones_always_succeed", False)
    spec = aethoria.RollSpec(
        data["kind"], data["dice"], data["threshold"], data["fatigue"], data["fixed"], ones
    )
    return aethoria.roll_pool(
        spec,
        data["faces"],
        data["fatigue_faces"],
        fatigue_timing=data["fatigue_timing"] or aethoria.BEFORE,
    )


def _spend(
    pools: aethoria.AethoriaPools, kind: str, count: int
) -> tuple[aethoria.AethoriaPools, aethoria.PoolDelta]:
    if not count:
        return pools, aethoria.PoolDelta()
    try:
        return aethoria.spend_fatigue(pools, kind, count)
    except RulesError as error:
        raise _rules(error, "fatigue") from error


def _set_pools(step: Step, sheet, pools: aethoria.AethoriaPools) -> None:
    step.set(sheet, "pv", pools.pv)
    step.set(sheet, "fatigue_physical", pools.physical)
    step.set(sheet, "fatigue_mental", pools.mental)


# --- Attacks ---------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class DefencePlan:
    kind: str  # dodge or parry
    item: str  # what parries ("" for a dodge)
    spec: aethoria.RollSpec
    skill: str = ""  # the skill a parry rolls (Parade, or the weapon's with the house rule)
    rank: int = 0


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


def _pick(encounter, combatants, combatant_id, field):
    if combatants is not None:
        for combatant in combatants:
            if combatant.pk == combatant_id:
                return combatant
        raise EncounterError(gettext("Ce combattant ne fait pas partie de la rencontre."), field)
    try:
        return _combatant(encounter, combatant_id)
    except EncounterError as error:
        raise EncounterError(error.message, field) from None


def _parry_item(
    sheet, parry_with: str, field: str, house
) -> tuple[aethoria.AethoriaWeapon, str, tuple[str, int]]:
    """What the defender parries with: the weapon's or shield's rules values, its name, and
    the skill and rank rolled (Parade; with the house rule, the better of Parade and the
    weapon's own skill)."""
    parade_name, parade = skill_of(sheet, kind="parry")
    parade_name = parade_name or gettext("Parade")
    if parry_with == SHIELD:
        if sheet.shield is None:
            raise EncounterError(gettext("Le défenseur n'a pas de bouclier."), field)
        return sheet.shield.as_rules_weapon(), sheet.shield.name, (parade_name, parade)
    try:
        weapon = weapon_of(sheet, int(parry_with), field)
    except (TypeError, ValueError):
        raise EncounterError(gettext("Choisissez l'arme ou le bouclier qui pare."), field) from None
    if weapon.parry_value is None:
        raise EncounterError(
            gettext("%(name)s ne permet pas de parer.") % {"name": weapon.name}, field
        )
    weapon_skill, weapon_rank = skill_of(sheet, skill_id=weapon.skill_id)
    rolled = aethoria.parry_rank(parade, weapon_rank, house)
    skill = weapon_skill if rolled.skill == aethoria.WEAPON_SKILL else parade_name
    return weapon.as_rules_weapon(), weapon.name, (skill, rolled.rank)


def held_items(sheet) -> list[aethoria.AethoriaWeapon]:
    items = [w.as_rules_weapon() for w in sheet.weapons.all() if not w.is_ranged]
    if sheet.shield is not None:
        items.append(sheet.shield.as_rules_weapon())
    return items


def _defence(
    kind: str,
    parry_with: str,
    malus: int,
    *,
    attacker_sheet,
    target_sheet,
    choice: AttackChoice,
    house,
    field: str,
) -> DefencePlan:
    modifiers = [malus] if malus else []
    try:
        return _defence_roll(
            kind,
            parry_with,
            modifiers,
            attacker_sheet=attacker_sheet,
            target_sheet=target_sheet,
            choice=choice,
            house=house,
            field=field,
        )
    except RulesError as error:
        message = rules_message(error)
        if error.field == "rank":
            message = gettext("Défense : %(message)s") % {"message": message}
        raise EncounterError(message, "defence" if field == "parry_with" else "defence2") from error


def _defence_roll(
    kind, parry_with, modifiers, *, attacker_sheet, target_sheet, choice, house, field
) -> DefencePlan:
    if kind == DODGE:
        spec = aethoria.dodge_roll(
            rank_of(target_sheet, kind="dodge"),
            encumbered=choice.encumbered,
            modifiers=modifiers,
            rank_zero_allowed=choice.rank_zero_allowed,
            house=house,
        )
        return DefencePlan(DODGE, "", spec)
    aethoria.check_parry_allowed(attacker_sheet.force, target_sheet.force, house)
    item, name, (skill, rank) = _parry_item(target_sheet, parry_with, field, house)
    spec = aethoria.parry_roll(
        rank,
        item.parry,
        attacker_force=attacker_sheet.force,
        defender_force=target_sheet.force,
        modifiers=modifiers,
        rank_zero_allowed=choice.rank_zero_allowed,
        house=house,
    )
    return DefencePlan(PARRY, name, spec, skill, rank)


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
    for location, chance in locations.items():
        if not chance:
            continue
        odds = aethoria.attack_odds(
            attack_dice=attack_dice,
            attack_threshold=attack_threshold,
            defence_dice=defence.spec.dice + defence_extra if defence else 0,
            defence_threshold=defence.spec.threshold if defence else aethoria.DODGE_THRESHOLD,
            weapon_dice=damage.dice + damage_extra,
            fixed=damage.fixed,
            force=damage.threshold,
            rd=rd.get(location, 0),
            convert_extra_successes=convert,
            ones_always_succeed=house.ones_always_succeed,
        )
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
    attacker = _pick(encounter, combatants, choice.attacker_id, "attacker")
    target = _pick(encounter, combatants, choice.target_id, "target")
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
            attacker_state = without_fired(attacker.state)
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
                defence = _defence(
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


def _check_actor(
    encounter: Encounter,
    combatants: list[Combatant],
    combatant_id: int,
    kind: str = PREPARED_ATTACK,
    field: str = "attacker",
) -> None:
    """The acting combatant, or one whose prepared ``kind`` of action was just fired."""
    acting = acting_combatant(encounter, combatants)
    if acting is not None and acting.pk == combatant_id:
        return
    fired = next((c for c in combatants if c.pk == combatant_id), None)
    if fired is not None and has_fired(encounter, fired, kind):
        return
    raise EncounterError(gettext("Ce n'est pas son tour d'agir."), field)


@transaction.atomic
def aethoria_attack(
    *,
    encounter_id: int,
    version: int | None,
    by,
    choice: AttackChoice,
    faces: tuple[BlowFaces, ...] = (),
    combatants: list[Combatant] | None = None,
) -> Event:
    """The acting combatant (or one firing its prepared action) attacks: attack roll and hit
    location, the defender's roll, net successes, damage against the location's RD, PV.

    ``combatants`` may be the fight as the console's form loaded it (as for an EW attack):
    the two fighters' pools are read again under the lock, and the list is updated in place.
    """
    # Only the two fighters involved are locked (and read again): the others are not touched.
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, Status.RUNNING)
    if combatants is None:
        combatants = _combatants(encounter)
    lock_and_refresh_pools(encounter, combatants, choice.attacker_id, choice.target_id)
    _check_actor(encounter, combatants, choice.attacker_id)
    plan = plan_attack(encounter, choice, combatants)
    house = encounter.campaign.house()
    attacker, target = plan.attacker, plan.target
    a_sheet, t_sheet = attacker.character.aethoria, target.character.aethoria
    bag = DiceBag()
    step = Step(
        encounter,
        ATTACK_EVENT,
        by,
        actor=attacker,
        target=target,
        public=not (attacker.hidden or target.hidden),
    )
    a_pools, _ = _spend(a_sheet.pools(house), aethoria.PHYSICAL, plan.fatigue)
    t_pools = t_sheet.pools(house)
    armour = armour_of(t_sheet)
    blows = []
    suffix = ("", "2")
    try:
        for index, blow in enumerate(plan.blows):
            typed = faces[index] if index < len(faces) else BlowFaces()
            s = suffix[index]
            attack_faces = bag.take(
                typed.attack, blow.attack.dice, D10, f"attack_faces{s}", gettext("Attaque")
            )
            fatigue_count = plan.fatigue if index == 0 else 0
            fatigue_faces = bag.take(
                typed.fatigue if index == 0 else None,
                fatigue_count,
                D10,
                "fatigue_faces",
                gettext("Dés de fatigue"),
            )
            location_count = aethoria.CIBLER_LOCATION_DICE if plan.mode == CIBLER else 1
            location_faces = bag.take(
                typed.location, location_count, D20, f"location_faces{s}", gettext("Localisation")
            )
            if plan.mode == CIBLER:
                location_face = _cibler_keep(location_faces, plan, house)
            else:
                location_face = location_faces[0]
            defence_faces: tuple[int, ...] = ()
            if blow.defence is not None:
                defence_faces = bag.take(
                    typed.defence,
                    blow.defence.spec.dice,
                    D10,
                    f"defence_faces{s}",
                    gettext("Défense"),
                )
            elif typed.defence:
                raise EncounterError(
                    gettext("Pas de défense choisie : laissez ses dés vides."), f"defence_faces{s}"
                )
            attack = aethoria.roll_pool(blow.attack, attack_faces, fatigue_faces)
            defence = None
            if blow.defence:
                extra = plan.defence_fatigue if index == 0 else 0
                extra_faces = bag.take(
                    typed.defence_fatigue if index == 0 else None,
                    extra,
                    D10,
                    "defence_fatigue_faces",
                    gettext("Dés de fatigue de la défense"),
                )
                defence = aethoria.roll_pool(blow.defence.spec, defence_faces, extra_faces)
                if extra:
                    t_pools, _ = aethoria.spend_fatigue(t_pools, aethoria.PHYSICAL, extra)
            outcome = attack_outcome(
                attack.successes,
                defence.successes if defence else 0,
                location_face=location_face,
                ranged=plan.ranged,
                covered=plan.covered,
                convert=plan.convert,
                house=house,
            )
            row = {
                "weapon": blow.snapshot,
                "second_weapon": blow.second_weapon,
                "attack": roll_json(attack),
                "defence": (
                    {"kind": blow.defence.kind, "item": blow.defence.item, **roll_json(defence)}
                    if defence
                    else None
                ),
                "location_faces": list(location_faces),
                "outcome": asdict(outcome),
                "damage": None,
                "severe": aethoria.NO_EFFECT,
                "odds": {
                    "lands": str(blow.odds.lands),
                    "expected": str(blow.odds.expected),
                    "max": blow.odds.maximum,
                },
            }
            if outcome.lands and not outcome.hits_obstacle:
                spec = aethoria.damage_roll(
                    blow.weapon,
                    a_sheet.force,
                    outcome.bonus_dice,
                    second_weapon=blow.second_weapon,
                    house=house,
                )
                label = (
                    gettext("Dégâts (%(weapon)s de l'arme + %(bonus)s bonus)")
                    % {"weapon": blow.weapon.dice, "bonus": outcome.bonus_dice}
                    if outcome.bonus_dice
                    else gettext("Dégâts")
                )
                damage_faces = bag.take(typed.damage, spec.dice, D10, f"damage_faces{s}", label)
                extra = plan.damage_fatigue if index == 0 else 0
                extra_faces = bag.take(
                    typed.damage_fatigue if index == 0 else None,
                    extra,
                    D10,
                    "damage_fatigue_faces",
                    gettext("Dés de fatigue des dégâts"),
                )
                roll = aethoria.roll_pool(spec, damage_faces, extra_faces)
                if extra:
                    # Paid only when the damage is rolled: the choice was "if it lands".
                    a_pools, _ = aethoria.spend_fatigue(a_pools, aethoria.PHYSICAL, extra)
                result = aethoria.resolve_damage(
                    roll,
                    rd=aethoria.location_rd(armour, outcome.location, house),
                    target_vitalite=t_sheet.vitalite,
                    location=outcome.location,
                    house=house,
                )
                pv_before = t_pools.pv
                t_pools, _ = aethoria.take_damage(t_pools, result.damage)
                row["damage"] = {**roll_json(roll), **asdict(result)}
                row["pv"] = {"before": pv_before, "after": t_pools.pv}
                row["severe"] = result.severe_effect
            blows.append(row)
    except RulesError as error:
        raise _rules(error) from error
    _set_pools(step, a_sheet, a_pools)
    _set_pools(step, t_sheet, t_pools)
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
            "dead": aethoria.condition(t_pools.pv, t_sheet.vitalite, house) == aethoria.DEAD,
            "out": t_pools.pv <= 0,
        }
    )


def _cibler_keep(faces: tuple[int, ...], plan: AttackPlan, house) -> int:
    """Cibler: the die showing the preferred location if one does, else the chosen die."""
    if plan.prefer_location:
        for face in faces:
            if aethoria.hit_location(face, house) == plan.prefer_location:
                return face
    return aethoria.cibler_location(faces, plan.keep)


# --- Severe effects --------------------------------------------------------------------------


def pending_effects(events) -> list[dict]:
    """Severe effects proposed by attacks and not yet confirmed or dismissed, newest first.

    ``events``: attack and effect events, not undone, newest first. Fatigue dice added after
    an attack's rolls resolve it again: its latest revision's proposals are the ones."""
    decided = {(e.data.get("of"), e.data.get("blow")) for e in events if e.kind == EFFECT_EVENT}
    revised: dict[int, list] = {}
    for event in events:
        if event.kind == ATTACK_FATIGUE_EVENT:
            revised.setdefault(event.data["of"], event.data["blows"])
    pending = []
    for event in events:
        if event.kind != ATTACK_EVENT:
            continue
        blows = revised.get(event.sequence, event.data.get("blows", []))
        for index, blow in enumerate(blows):
            effect = blow.get("severe", aethoria.NO_EFFECT)
            if effect != aethoria.NO_EFFECT and (event.sequence, index) not in decided:
                pending.append(
                    {
                        "event": event,
                        "blow": index,
                        "effect": effect,
                        "location": blow["outcome"]["location"],
                        "where": location_words(blow["outcome"]["location"]),
                        "target": event.data["target"],
                    }
                )
    return pending


def undecided_effects(encounter: Encounter) -> list[dict]:
    """The severe effects still proposed when a fight ends — neither confirmed nor
    dismissed — as the summary keeps them: whom, which effect, where (keys, put in words
    when shown)."""
    events = encounter.events.filter(
        undone=False, kind__in=(ATTACK_EVENT, EFFECT_EVENT, ATTACK_FATIGUE_EVENT)
    ).order_by("-sequence")
    return [
        {"target": pending["target"], "effect": pending["effect"], "location": pending["location"]}
        for pending in pending_effects(events)
    ]


@transaction.atomic
def aethoria_effect(
    *, encounter_id: int, version: int | None, by, event_id: int, blow: int, confirm: bool
) -> Event:
    """The GM confirms (or dismisses) the severe effect an attack proposed."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    attack = encounter.events.filter(pk=event_id, kind=ATTACK_EVENT, undone=False).first()
    blows = current_blows(encounter, attack) if attack else []
    if attack is None or not 0 <= blow < len(blows):
        raise EncounterError(gettext("Aucun effet grave à décider pour ce coup."), "event")
    effect = blows[blow].get("severe", aethoria.NO_EFFECT)
    already = encounter.events.filter(
        kind=EFFECT_EVENT, undone=False, data__of=attack.sequence, data__blow=blow
    ).exists()
    if effect == aethoria.NO_EFFECT or already:
        raise EncounterError(gettext("Cet effet a déjà été décidé."), "event")
    if attack.target_id is None:
        raise EncounterError(gettext("Ce combattant ne fait plus partie de la rencontre."), "event")
    target = _combatant(encounter, attack.target_id)
    house = encounter.campaign.house()
    location = blows[blow]["outcome"]["location"]
    step = Step(encounter, EFFECT_EVENT, by, actor=target, public=attack.public)
    if confirm:
        if effect == aethoria.BLEEDING:
            step.set(target, "state", {**target.state, "bleeding": True})
        elif effect == aethoria.FRACTURE:
            # The label is the French text, for anything that reads the state without a
            # viewer; the console shows the kind and location in the viewer's language.
            label = f"fracture : {WORDS.get(location, location.replace('_', ' '))}"
            fracture = {"kind": effect, "location": location, "label": label}
            effects = [*target.state.get("effects", []), fracture]
            step.set(target, "state", {**target.state, "effects": effects})
        elif effect == aethoria.INSTANT_DEATH:
            sheet = target.character.aethoria
            death = -house.death_threshold_factor * sheet.vitalite
            step.set(sheet, "pv", min(sheet.pv, death))
    return step.commit(
        {
            "of": attack.sequence,
            "blow": blow,
            "confirm": confirm,
            "effect": effect,
            "location": location,
            "target": target.character.name,
        }
    )


def current_blows(encounter: Encounter, attack: Event) -> list[dict]:
    """The attack's blows as its latest fatigue-after-the-roll revision resolved them."""
    revision = (
        encounter.events.filter(kind=ATTACK_FATIGUE_EVENT, undone=False, data__of=attack.sequence)
        .order_by("-sequence")
        .first()
    )
    return (revision or attack).data.get("blows", [])


# --- Special actions and prepared actions ----------------------------------------------------


@transaction.atomic
def aethoria_special(
    *,
    encounter_id: int,
    version: int | None,
    by,
    combatant_id: int,
    action: str,
    target_id: int | None = None,
    description: str = "",
    trigger: str = "",
    note: str = "",
    prepared_kind: str = PREPARED_ATTACK,
    combatants: list[Combatant] | None = None,
) -> Event:
    """Défense, préparer, viser, se déplacer or another action: the turn's one action.

    ``combatants``: the fight as the console loaded it, as for an attack (the version proves
    no step happened since; the pools of the actor and its target are read again)."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, Status.RUNNING)
    if combatants is None:
        combatants = _combatants(encounter)
    lock_and_refresh_pools(encounter, combatants, combatant_id, target_id)
    acting = acting_combatant(encounter, combatants)
    if acting is None or acting.pk != combatant_id:
        raise EncounterError(gettext("Ce n'est pas son tour d'agir."), "combatant")
    if action not in SPECIAL_ACTIONS:
        raise EncounterError(gettext("Action inconnue."), "action")
    target = None
    if action == aethoria.VISER:
        if not target_id:
            raise EncounterError(gettext("Viser demande une cible à portée."), "target")
        target = _pick(encounter, combatants, target_id, "target")
        if target.pk == acting.pk:
            raise EncounterError(gettext("Un combattant ne se vise pas lui-même."), "target")
        if is_dead(target, encounter.campaign.house()):
            raise EncounterError(
                gettext("%(name)s est déjà mort.") % {"name": target.character.name}, "target"
            )
    if action == "other" and not note.strip():
        raise EncounterError(gettext("Décrivez l'action."), "note")
    extra = {}
    if action == aethoria.PREPARER:
        extra["prepared_kind"] = _prepared_kind(acting, prepared_kind)
    try:
        after, _bonus = aethoria_turn_state(acting).act(
            aethoria.OTHER if action == "other" else action,
            target=target.pk if target else None,
            description=description,
            trigger=trigger,
        )
    except RulesError as error:
        raise _rules(error) from error
    step = Step(encounter, "aethoria_action", by, actor=acting, target=target)
    step.public = not acting.hidden
    step.set(acting, "state", turn_state_after(acting, after, **extra))
    return step.commit(
        {
            "name": acting.character.name,
            "action": action,
            "target": target.character.name if target else "",
            "description": description.strip(),
            "trigger": trigger.strip(),
            "note": note.strip(),
            **extra,
        }
    )


def _prepared_kind(acting: Combatant, kind: str) -> str:
    """What is prepared: an attack, a spell (a doué's only: a marqué prays for minutes
    first), or another action told in words."""
    if kind not in PREPARED_KINDS:
        raise EncounterError(gettext("Choisissez ce qui est préparé."), "prepared_kind")
    if kind == PREPARED_SPELL:
        try:
            aethoria.check_can_cast_in_combat(acting.character.aethoria.magic_type)
        except RulesError as error:
            raise _rules(error, "prepared_kind") from error
    return kind


@transaction.atomic
def aethoria_fire(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """The trigger happened: the prepared action takes place now, out of turn."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatant = _combatant(encounter, combatant_id)
    if is_out(combatant, encounter.campaign.house()):
        raise EncounterError(
            gettext("%(name)s est hors de combat.") % {"name": combatant.character.name},
            "combatant",
        )
    try:
        after, prepared = aethoria_turn_state(combatant).fire_prepared()
    except RulesError as error:
        raise _rules(error, "combatant") from error
    kind = combatant.state.get("prepared_kind", PREPARED_ATTACK)
    state = {k: v for k, v in turn_state_after(combatant, after).items() if k != "prepared_kind"}
    if kind != PREPARED_OTHER:
        # An attack or a spell still has its dice to roll: its form shows for this turn.
        state.update(fired=fired_marker(encounter), fired_kind=kind)
    step = Step(encounter, "aethoria_fire", by, actor=combatant, public=not combatant.hidden)
    step.set(combatant, "state", state)
    return step.commit(
        {
            "name": combatant.character.name,
            "description": prepared.description,
            "trigger": prepared.trigger,
            "kind": kind,
        }
    )


@transaction.atomic
def aethoria_lose_aim(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """Viser: the watched target got out of reach, so the aim bonus is lost."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatant = _combatant(encounter, combatant_id)
    state = aethoria_turn_state(combatant)
    if state.aim_target is None:
        raise EncounterError(
            gettext("%(name)s ne vise personne.") % {"name": combatant.character.name},
            "combatant",
        )
    target = encounter.combatants.filter(pk=state.aim_target).select_related("character").first()
    step = Step(encounter, AIM_LOST_EVENT, by, actor=combatant, target=target)
    step.public = not combatant.hidden
    step.set(combatant, "state", turn_state_after(combatant, state.lose_aim()))
    return step.commit(
        {
            "name": combatant.character.name,
            "target": target.character.name if target else "",
        }
    )


# --- Spells ----------------------------------------------------------------------------------


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


def plan_spell(
    encounter: Encounter, choice: SpellChoice, combatants: list[Combatant] | None = None
) -> SpellPlan:
    house = encounter.campaign.house()
    caster = _pick(encounter, combatants, choice.caster_id, "caster")
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
            state = without_fired(caster.state)
        else:
            after, _bonus = aethoria_turn_state(caster).act(
                aethoria.CAST, magic_type=sheet.magic_type
            )
            state = turn_state_after(caster, after)
        spec = aethoria.spell_roll(
            rank_of(sheet, kind="magic"),
            sheet.pouvoir,
            choice.invested,
            [choice.modifier] if choice.modifier else [],
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
    combatants = _combatants(encounter)
    _check_actor(encounter, combatants, choice.caster_id, PREPARED_SPELL, "caster")
    plan = plan_spell(encounter, choice, combatants)
    house = encounter.campaign.house()
    sheet = plan.caster.character.aethoria
    bag = DiceBag()
    pool_faces = bag.take(faces, plan.spec.dice, D10, "faces", gettext("Sort"))
    extra = bag.take(fatigue_faces, plan.fatigue, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = _spend(sheet.pools(house), aethoria.MENTAL, plan.fatigue)
    try:
        roll = aethoria.roll_pool(plan.spec, pool_faces, extra)
        result = aethoria.cast_spell(
            roll, pools, invested=choice.invested, difficulty=choice.difficulty, house=house
        )
    except RulesError as error:
        raise _rules(error) from error
    step = Step(
        encounter,
        SPELL_EVENT,
        by,
        actor=plan.caster,
        dice=bag.source,
        public=not plan.caster.hidden,
    )
    _set_pools(step, sheet, result.pools)
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


# --- Tests -----------------------------------------------------------------------------------


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


def plan_test(
    encounter: Encounter, choice: TestChoice, combatants: list[Combatant] | None = None
) -> TestPlan:
    house = encounter.campaign.house()
    combatant = _pick(encounter, combatants, choice.combatant_id, "combatant")
    sheet = load_sheet(combatant)
    modifiers = [choice.modifier] if choice.modifier else []
    try:
        if choice.source.startswith("skill:"):
            skill_id = int(choice.source.removeprefix("skill:"))
            rank = next((r for r in sheet.skills.all() if r.skill_id == skill_id), None)
            if rank is None:
                from apps.compendium.models import AethoriaSkill

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
    return TestPlan(combatant, spec, what, characteristic, choice.fatigue, success, much_lower)


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
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    plan = plan_test(encounter, choice)
    house = encounter.campaign.house()
    sheet = plan.combatant.character.aethoria
    bag = DiceBag()
    pool_faces = bag.take(faces, plan.spec.dice, D10, "faces", gettext("Test"))
    extra = bag.take(fatigue_faces, plan.fatigue, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = _spend(sheet.pools(house), plan.spec.fatigue, plan.fatigue)
    try:
        roll = aethoria.roll_pool(plan.spec, pool_faces, extra)
        verdict = aethoria.judge(roll.successes, choice.difficulty, house)
    except RulesError as error:
        raise _rules(error) from error
    step = Step(
        encounter,
        TEST_EVENT,
        by,
        actor=plan.combatant,
        dice=bag.source,
        public=not plan.combatant.hidden,
    )
    _set_pools(step, sheet, pools)
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
        }
    )


# --- Fatigue dice decided after the roll -----------------------------------------------------


def fatigue_after_candidate(encounter: Encounter, events=None) -> Event | None:
    """The roll that fatigue dice may still be added to: the latest step, if it is a test or
    a spell rolled without fatigue dice (the decision is made once per roll)."""
    if events is None:
        events = encounter.events.exclude(kind__in=("undo", "redo")).filter(undone=False)
        events = events.order_by("-sequence")[:1]
    latest = next(iter(events), None)
    if latest is None or latest.kind not in (TEST_EVENT, SPELL_EVENT):
        return None
    if latest.data["roll"]["fatigue_faces"]:
        return None
    return latest


@transaction.atomic
def aethoria_fatigue_after(
    *,
    encounter_id: int,
    version: int | None,
    by,
    event_id: int,
    count: int,
    faces: tuple[int, ...] | None = None,
) -> Event:
    """Fatigue dice added after seeing a test or a spell: paid, rolled, and the roll judged
    again (a spell's érys burn too, since it counts every die rolled)."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    roll_event = fatigue_after_candidate(encounter)
    if roll_event is None or roll_event.pk != event_id:
        raise EncounterError(
            gettext("Trop tard : les dés de fatigue s'ajoutent au dernier jet, une seule fois."),
            "event",
        )
    combatant = _combatant(encounter, roll_event.actor_id)
    house = encounter.campaign.house()
    sheet = combatant.character.aethoria
    original = roll_from_json(roll_event.data["roll"])
    bag = DiceBag()
    if not aethoria.FATIGUE_DICE_MIN <= count <= aethoria.FATIGUE_DICE_MAX:
        raise EncounterError(gettext("De 1 à 3 dés de fatigue."), "count")
    extra = bag.take(faces, count, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = _spend(sheet.pools(house), original.spec.fatigue, count)
    try:
        roll = aethoria.add_fatigue_dice(original, extra)
        verdict = aethoria.judge(roll.successes, roll_event.data["difficulty"], house)
    except RulesError as error:
        raise _rules(error) from error
    data = {
        "of": roll_event.sequence,
        "name": combatant.character.name,
        "count": count,
        "roll": roll_json(roll),
        "successes_before": original.successes,
        "verdict": asdict(verdict),
    }
    if roll_event.kind == SPELL_EVENT:
        burn = aethoria.is_erys_burn(roll.all_faces, roll.spec.threshold)
        was = roll_event.data["burn"]
        burn_pv = house.burn_pv_per_pouvoir * roll_event.data["invested"]
        if burn and not was:
            pools = replace(pools, pv=pools.pv - burn_pv)
        elif was and not burn:
            # The burn came from a roll that is no longer the whole roll.
            pools = replace(pools, pv=min(pools.pv_max, pools.pv + roll_event.data["burn_pv"]))
        data.update(burn=burn, burn_before=was, burn_pv=burn_pv if burn else 0)
    step = Step(
        encounter, FATIGUE_EVENT, by, actor=combatant, dice=bag.source, public=roll_event.public
    )
    _set_pools(step, sheet, pools)
    return step.commit(data)


# --- Fatigue dice decided after an attack's rolls --------------------------------------------

ATTACK_ROLL = "attack"
DEFENCE_ROLL = "defence"
DAMAGE_ROLL = "damage"
FATIGUE_COUNTS = tuple(range(aethoria.FATIGUE_DICE_MIN, aethoria.FATIGUE_DICE_MAX + 1))


@dataclass(frozen=True)
class FatigueOption:
    """A roll of the latest attack that fatigue dice may still be added to, with the exact
    odds of what 1, 2 or 3 more dice would change (``gain`` says what they are of)."""

    value: str  # "<blow>:<roll>"
    blow: int
    roll: str
    roller: str
    successes: int
    gain: str = ""  # "lands", "bonus", "avoids", "damage", or "" when nothing is sensible
    odds: tuple[Fraction, ...] = ()  # one per count; expected PV for "damage"
    now: int = 0  # the damage now, next to the expected damage


def latest_step(encounter: Encounter) -> Event | None:
    return (
        encounter.events.exclude(kind__in=("undo", "redo"))
        .filter(undone=False)
        .order_by("-sequence")
        .first()
    )


def attack_fatigue_candidate(latest: Event | None) -> Event | None:
    """The step whose attack fatigue dice may still join: the latest step, if it is an
    attack or a fatigue revision of one (each roll of it taking fatigue dice once)."""
    if latest is None or latest.kind not in (ATTACK_EVENT, ATTACK_FATIGUE_EVENT):
        return None
    return latest


def _at_least(needed: int, roll: dict) -> tuple[Fraction, ...]:
    ones = roll.get("ones_always_succeed", False)
    return tuple(
        aethoria.success_probability(n, roll["threshold"], needed, ones_always_succeed=ones)
        for n in FATIGUE_COUNTS
    )


def _expected_damage(damage: dict) -> tuple[Fraction, ...]:
    """Mean damage after RD once 1, 2 or 3 dice join the damage roll."""
    expected = []
    ones = damage.get("ones_always_succeed", False)
    for count in FATIGUE_COUNTS:
        dist = aethoria.success_distribution(count, damage["threshold"], ones_always_succeed=ones)
        total = damage["total"]
        expected.append(sum(p * max(0, total + x - damage["rd"]) for x, p in dist.items()))
    return tuple(expected)


def _attack_gain(blow: dict, convert: bool) -> dict:
    outcome = blow["outcome"]
    attack = blow["attack"]
    if not outcome["lands"]:
        return {"gain": "lands", "odds": _at_least(1 - outcome["net"], attack)}
    if convert and not outcome["hits_obstacle"]:
        next_die = 1 + aethoria.EXTRA_SUCCESSES_PER_DIE * (outcome["bonus_dice"] + 1)
        return {"gain": "bonus", "odds": _at_least(next_die - outcome["net"], attack)}
    return {}


def _defence_gain(blow: dict) -> dict:
    outcome = blow["outcome"]
    if not outcome["lands"] or outcome["hits_obstacle"]:
        return {}
    return {"gain": "avoids", "odds": _at_least(outcome["net"], blow["defence"])}


def attack_fatigue_options(data: dict) -> list[FatigueOption]:
    """The rolls of an attack still without fatigue dice (the decision is made once per
    roll), each with the exact odds of the improvement."""
    convert = data.get("convert", True)
    options = []
    for index, blow in enumerate(data["blows"]):
        rolls = [(ATTACK_ROLL, blow["attack"], data["attacker"], _attack_gain(blow, convert))]
        if blow.get("defence"):
            rolls.append((DEFENCE_ROLL, blow["defence"], data["target"], _defence_gain(blow)))
        if blow.get("damage"):
            damage = blow["damage"]
            gain = {"gain": "damage", "odds": _expected_damage(damage), "now": damage["damage"]}
            rolls.append((DAMAGE_ROLL, damage, data["attacker"], gain))
        for roll, rolled, roller, gain in rolls:
            if not rolled["fatigue_faces"]:
                options.append(
                    FatigueOption(
                        f"{index}:{roll}", index, roll, roller, rolled["successes"], **gain
                    )
                )
    return options


@dataclass
class _Revision:
    """What resolving an attack again needs, and the damage dice it used up."""

    data: dict
    house: aethoria.AethoriaHouseRules
    force: int
    vitalite: int
    armour: tuple[aethoria.ArmourPiece, ...]
    bag: DiceBag
    damage_faces: tuple[int, ...] | None
    damage_faces_used: bool = False

    def take_damage_dice(self, count: int, label: str) -> tuple[int, ...]:
        self.damage_faces_used = True
        return self.bag.take(self.damage_faces, count, D10, "damage_faces", label)


def _revise_blow(
    revision: _Revision, index: int, roll: str, extra: tuple[int, ...]
) -> tuple[dict, int]:
    """The blow with fatigue dice added to one of its rolls and resolved again, and the
    change in the attacker's damage fatigue dice paid (negative: given back)."""
    blow = revision.data["blows"][index]
    attack = roll_from_json(blow["attack"])
    defence = roll_from_json(blow["defence"]) if blow["defence"] else None
    damage = roll_from_json(blow["damage"]) if blow["damage"] else None
    if roll == ATTACK_ROLL:
        attack = aethoria.add_fatigue_dice(attack, extra)
    elif roll == DEFENCE_ROLL:
        defence = aethoria.add_fatigue_dice(defence, extra)
    else:
        damage = aethoria.add_fatigue_dice(damage, extra)
    outcome = attack_outcome(
        attack.successes,
        defence.successes if defence else 0,
        location_face=blow["outcome"]["location_face"],
        ranged=revision.data["ranged"],
        covered=revision.data["covered"],
        convert=revision.data.get("convert", True),
        house=revision.house,
    )
    row = {k: v for k, v in blow.items() if k != "pv"}
    row.update(
        attack=roll_json(attack),
        defence={**blow["defence"], **roll_json(defence)} if defence else None,
        outcome=asdict(outcome),
        damage=None,
        severe=aethoria.NO_EFFECT,
    )
    if not outcome.lands or outcome.hits_obstacle:
        # No damage roll any more: its fatigue dice ("if it lands") are not paid.
        return row, -len(damage.fatigue_faces) if damage else 0
    damage, paid = _revised_damage(revision, index, damage, outcome)
    result = aethoria.resolve_damage(
        damage,
        rd=aethoria.location_rd(revision.armour, outcome.location, revision.house),
        target_vitalite=revision.vitalite,
        location=outcome.location,
        house=revision.house,
    )
    row.update(damage={**roll_json(damage), **asdict(result)}, severe=result.severe_effect)
    return row, paid


def _revised_damage(
    revision: _Revision, index: int, old: aethoria.PoolResult | None, outcome
) -> tuple[aethoria.PoolResult, int]:
    """The damage roll with the blow's new bonus dice, and the fatigue dice it newly pays."""
    blow = revision.data["blows"][index]
    if old is None:
        # The blow lands now: its damage is rolled now, with the fatigue dice declared
        # before the attack "if it lands" (first blow only), typed after the others.
        declared = revision.data.get("damage_fatigue", 0) if index == 0 else 0
        weapon = aethoria.AethoriaWeapon(
            dice=blow["weapon"]["damage_dice"], fixed=blow["weapon"]["damage_fixed"]
        )
        spec = aethoria.damage_roll(
            weapon,
            revision.force,
            outcome.bonus_dice,
            second_weapon=blow["second_weapon"],
            house=revision.house,
        )
        label = gettext("Dégâts (dés de l'arme, bonus puis fatigue)")
        faces = revision.take_damage_dice(spec.dice + declared, label)
        return aethoria.roll_pool(spec, faces[: spec.dice], faces[spec.dice :]), declared
    weapon_dice = old.spec.dice - blow["outcome"]["bonus_dice"]
    spec = replace(old.spec, dice=weapon_dice + outcome.bonus_dice)
    # Fewer bonus dice: the last faces go (the bonus dice come after the weapon's).
    faces = old.faces[: spec.dice]
    if len(faces) < spec.dice:
        label = gettext("Dés de dégâts bonus en plus")
        faces += revision.take_damage_dice(spec.dice - len(faces), label)
    timing = old.fatigue_timing or aethoria.BEFORE
    return aethoria.roll_pool(spec, faces, old.fatigue_faces, fatigue_timing=timing), 0


def _pv_chain(blows: list[dict], pv_before_attack: int) -> int:
    """Write each landed blow's PV before and after; the PV after the attack."""
    pv = pv_before_attack
    for blow in blows:
        if blow["damage"]:
            blow["pv"] = {"before": pv, "after": pv - blow["damage"]["damage"]}
            pv -= blow["damage"]["damage"]
    return pv


def _dealt(blows: list[dict]) -> int:
    return sum(blow["damage"]["damage"] for blow in blows if blow["damage"])


@transaction.atomic
def aethoria_attack_fatigue_after(
    *,
    encounter_id: int,
    version: int | None,
    by,
    event_id: int,
    roll: str,
    count: int,
    faces: tuple[int, ...] | None = None,
    damage_faces: tuple[int, ...] | None = None,
) -> Event:
    """Fatigue dice added after seeing one roll of the last attack (attack, defence or
    damage, of either blow): paid by whoever rolled it, and the attack resolved again —
    net successes, landing, bonus damage dice, damage, RD, PV and the severe effect."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    latest = attack_fatigue_candidate(latest_step(encounter))
    if latest is None or latest.pk != event_id:
        raise EncounterError(
            gettext("Trop tard : les dés de fatigue s'ajoutent à la dernière attaque."), "roll"
        )
    option = next((o for o in attack_fatigue_options(latest.data) if o.value == roll), None)
    if option is None:
        raise EncounterError(
            gettext("Ce jet a déjà ses dés de fatigue : ils se décident une seule fois."), "roll"
        )
    if count not in FATIGUE_COUNTS:
        raise EncounterError(gettext("De 1 à 3 dés de fatigue."), "count")
    house = encounter.campaign.house()
    attacker = _combatant(encounter, latest.actor_id)
    target = _combatant(encounter, latest.target_id)
    a_sheet, t_sheet = load_sheet(attacker), load_sheet(target)
    bag = DiceBag()
    extra = bag.take(faces, count, D10, "faces", gettext("Dés de fatigue"))
    revision = _Revision(
        latest.data, house, a_sheet.force, t_sheet.vitalite, armour_of(t_sheet), bag, damage_faces
    )
    try:
        row, paid = _revise_blow(revision, option.blow, option.roll, extra)
    except RulesError as error:
        raise _rules(error, "faces") from error
    if damage_faces and not revision.damage_faces_used:
        raise EncounterError(
            gettext("Aucun dé de dégâts à lancer en plus : laissez ce champ vide."),
            "damage_faces",
        )
    blows = [dict(blow) for blow in latest.data["blows"]]
    blows[option.blow] = row
    a_pools, t_pools = _revised_pools(
        a_sheet.pools(house), t_sheet.pools(house), option.roll, count, paid
    )
    pv_before_attack = t_pools.pv + _dealt(latest.data["blows"])
    t_pools = replace(t_pools, pv=_pv_chain(blows, pv_before_attack))
    step = Step(
        encounter,
        ATTACK_FATIGUE_EVENT,
        by,
        actor=attacker,
        target=target,
        dice=bag.source,
        public=latest.public,
    )
    _set_pools(step, a_sheet, a_pools)
    _set_pools(step, t_sheet, t_pools)
    return step.commit(
        {
            **latest.data,
            "of": latest.data["of"] if latest.kind == ATTACK_FATIGUE_EVENT else latest.sequence,
            "blow": option.blow,
            "roll": option.roll,
            "roller": option.roller,
            "count": count,
            "blows": blows,
            "dead": aethoria.condition(t_pools.pv, t_sheet.vitalite, house) == aethoria.DEAD,
            "out": t_pools.pv <= 0,
        }
    )


def _revised_pools(a_pools, t_pools, roll: str, count: int, paid: int):
    """Whoever rolled pays the fatigue dice (all physical: Adresse, Force, esquive and
    parade); the attacker pays, or gets back, the damage fatigue dice of a changed landing."""
    try:
        if roll == DEFENCE_ROLL:
            t_pools, _delta = aethoria.spend_fatigue(t_pools, aethoria.PHYSICAL, count)
        else:
            a_pools, _delta = aethoria.spend_fatigue(a_pools, aethoria.PHYSICAL, count)
        if paid > 0:
            a_pools, _delta = aethoria.spend_fatigue(a_pools, aethoria.PHYSICAL, paid)
        elif paid < 0:
            a_pools = aethoria.apply_delta(a_pools, aethoria.PoolDelta(physical=-paid))
    except RulesError as error:
        raise _rules(error, "count") from error
    return a_pools, t_pools
