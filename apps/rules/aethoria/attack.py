"""An Aethoria attack's whole sequence of rolls, from its prepared pools to the PV it leaves.

The caller plans the attack (pools, thresholds, weapons, what the defender does) and passes
a source of faces: ``dice(DiceAsked(...))`` answers each roll the sequence needs, in order,
with the faces a player typed or the app rolled (tests script them). Rules steps 1-5 of the
attack: attack roll and fatigue dice, hit location (cibler: the kept die), the defender's
roll, net successes and extra damage dice, damage against the location's RD, PV lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from apps.rules.aethoria.character import AethoriaPools, condition, take_damage
from apps.rules.aethoria.combat import (
    AethoriaWeapon,
    ArmourPiece,
    AttackOutcome,
    DamageResult,
    attack_outcome,
    cibler_location,
    damage_roll,
    hit_location,
    location_rd,
    resolve_damage,
)
from apps.rules.aethoria.constants import CIBLER_LOCATION_DICE, DEAD, PHYSICAL
from apps.rules.aethoria.house import AethoriaHouseRules
from apps.rules.aethoria.rolls import PoolResult, RollSpec, roll_pool, spend_fatigue
from apps.rules.dice import D10, D20

# The rolls an attack asks faces for (``DiceAsked.role``).
ATTACK_ROLL = "attack"
FATIGUE_ROLL = "fatigue"
LOCATION_ROLL = "location"
DEFENCE_ROLL = "defence"
DEFENCE_FATIGUE_ROLL = "defence_fatigue"
DAMAGE_ROLL = "damage"
DAMAGE_FATIGUE_ROLL = "damage_fatigue"


@dataclass(frozen=True)
class DiceAsked:
    """One roll of the sequence: ``count`` dice of ``sides`` faces for blow ``blow``."""

    role: str
    blow: int
    count: int
    sides: int
    bonus: int = 0  # damage: how many of the dice are bonus dice (extra successes)


@dataclass(frozen=True)
class Blow:
    """One blow as planned: its attack roll, the defender's (None: no defence), its weapon."""

    attack: RollSpec
    weapon: AethoriaWeapon
    defence: RollSpec | None = None
    second_weapon: bool = False
    fatigue: int = 0  # the attacker's fatigue dice on this attack roll
    defence_fatigue: int = 0  # the defender's, on this defence roll
    damage_fatigue: int = 0  # the attacker's, on this damage roll if it lands


@dataclass(frozen=True)
class BlowResult:
    """One blow rolled: the attack and defence rolls, where it landed, and its damage."""

    attack: PoolResult
    defence: PoolResult | None
    location_faces: tuple[int, ...]
    outcome: AttackOutcome
    damage_roll: PoolResult | None = None  # rolled only when the blow reaches the target
    damage: DamageResult | None = None
    pv_before: int | None = None
    pv_after: int | None = None


@dataclass(frozen=True)
class AttackResult:
    """The whole attack: each blow, and the pools it leaves both fighters."""

    blows: tuple[BlowResult, ...]
    attacker_pools: AethoriaPools  # after the fatigue dice it spent
    target_pools: AethoriaPools  # after its fatigue dice and the damage taken
    dead: bool
    out: bool


@dataclass(frozen=True)
class AttackTarget:
    """What the attack rolls against: the target's pools, vitalité and armour."""

    pools: AethoriaPools
    vitalite: int
    armour: tuple[ArmourPiece, ...] = ()


def resolve_attack(
    *,
    blows: Sequence[Blow],
    attacker_pools: AethoriaPools,
    attacker_force: int,
    target: AttackTarget,
    dice: Callable[[DiceAsked], tuple[int, ...]],
    ranged: bool = False,
    covered: Sequence[str] = (),
    cibler: bool = False,
    prefer_location: str = "",
    keep: int = 0,
    convert: bool | None = None,
    house: AethoriaHouseRules,
) -> AttackResult:
    """Roll and resolve every blow of an attack (``convert``: the extra net successes
    become damage dice; None: as the house rules say)."""
    if convert is not None:
        house = replace(house, convert_extra_successes=convert)
    a_pools = _spend(attacker_pools, blows[0].fatigue if blows else 0)
    t_pools = target.pools
    results = []
    for index, blow in enumerate(blows):
        result, a_pools, t_pools = _resolve_blow(
            index,
            blow,
            a_pools,
            t_pools,
            attacker_force=attacker_force,
            target=target,
            dice=dice,
            where=_Where(ranged, tuple(covered), cibler, prefer_location, keep),
            house=house,
        )
        results.append(result)
    return AttackResult(
        blows=tuple(results),
        attacker_pools=a_pools,
        target_pools=t_pools,
        dead=condition(t_pools.pv, target.vitalite, house) == DEAD,
        out=t_pools.pv <= 0,
    )


@dataclass(frozen=True)
class _Where:
    """How the attack picks where it lands."""

    ranged: bool
    covered: tuple[str, ...]
    cibler: bool
    prefer_location: str
    keep: int


def _spend(pools: AethoriaPools, count: int) -> AethoriaPools:
    return spend_fatigue(pools, PHYSICAL, count)[0] if count else pools


def _resolve_blow(
    index: int,
    blow: Blow,
    a_pools: AethoriaPools,
    t_pools: AethoriaPools,
    *,
    attacker_force: int,
    target: AttackTarget,
    dice: Callable[[DiceAsked], tuple[int, ...]],
    where: _Where,
    house: AethoriaHouseRules,
) -> tuple[BlowResult, AethoriaPools, AethoriaPools]:
    attack_faces = dice(DiceAsked(ATTACK_ROLL, index, blow.attack.dice, D10))
    fatigue_faces = dice(DiceAsked(FATIGUE_ROLL, index, blow.fatigue, D10))
    location_count = CIBLER_LOCATION_DICE if where.cibler else 1
    location_faces = tuple(dice(DiceAsked(LOCATION_ROLL, index, location_count, D20)))
    location_face = _location_face(location_faces, where, house)
    defence_faces = ()
    if blow.defence is not None:
        defence_faces = dice(DiceAsked(DEFENCE_ROLL, index, blow.defence.dice, D10))
    attack = roll_pool(blow.attack, attack_faces, fatigue_faces)
    defence = None
    if blow.defence is not None:
        extra = dice(DiceAsked(DEFENCE_FATIGUE_ROLL, index, blow.defence_fatigue, D10))
        defence = roll_pool(blow.defence, defence_faces, extra)
        t_pools = _spend(t_pools, blow.defence_fatigue)
    outcome = attack_outcome(
        attack.successes,
        defence.successes if defence else 0,
        location_face=location_face,
        ranged=where.ranged,
        covered=where.covered,
        house=house,
    )
    result = BlowResult(attack, defence, location_faces, outcome)
    if outcome.lands and not outcome.hits_obstacle:
        result, a_pools, t_pools = _damage(
            index, blow, result, a_pools, t_pools, attacker_force, target, dice, house
        )
    return result, a_pools, t_pools


def _location_face(faces: tuple[int, ...], where: _Where, house: AethoriaHouseRules) -> int:
    """Cibler: the die showing the preferred location if one does, else the chosen die."""
    if not where.cibler:
        return faces[0]
    if where.prefer_location:
        for face in faces:
            if hit_location(face, house) == where.prefer_location:
                return face
    return cibler_location(faces, where.keep)


def _damage(
    index: int,
    blow: Blow,
    result: BlowResult,
    a_pools: AethoriaPools,
    t_pools: AethoriaPools,
    attacker_force: int,
    target: AttackTarget,
    dice: Callable[[DiceAsked], tuple[int, ...]],
    house: AethoriaHouseRules,
) -> tuple[BlowResult, AethoriaPools, AethoriaPools]:
    """The damage roll of a blow that reached the target, and the PV it costs."""
    outcome = result.outcome
    spec = damage_roll(
        blow.weapon,
        attacker_force,
        outcome.bonus_dice,
        second_weapon=blow.second_weapon,
        house=house,
    )
    faces = dice(DiceAsked(DAMAGE_ROLL, index, spec.dice, D10, bonus=outcome.bonus_dice))
    extra = dice(DiceAsked(DAMAGE_FATIGUE_ROLL, index, blow.damage_fatigue, D10))
    roll = roll_pool(spec, faces, extra)
    # Paid only when the damage is rolled: the choice was "if it lands".
    a_pools = _spend(a_pools, blow.damage_fatigue)
    damage = resolve_damage(
        roll,
        rd=location_rd(target.armour, outcome.location, house),
        target_vitalite=target.vitalite,
        location=outcome.location,
        house=house,
    )
    pv_before = t_pools.pv
    t_pools, _ = take_damage(t_pools, damage.damage)
    result = replace(
        result, damage_roll=roll, damage=damage, pv_before=pv_before, pv_after=t_pools.pv
    )
    return result, a_pools, t_pools
