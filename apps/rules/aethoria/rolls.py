"""Aethoria rolls: successes of d10 faces, pool sizes, roll specs, fatigue dice, verdicts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from apps.rules.aethoria.character import (
    AethoriaPools,
    PoolDelta,
    apply_delta,
    check_characteristic,
    check_skill_rank,
)
from apps.rules.aethoria.constants import (
    ACTION_DICE,
    AFTER,
    ATTACK,
    ATTACK_ACTION,
    ATTACK_ACTIONS,
    BEFORE,
    CHARACTERISTIC,
    CHARACTERISTIC_TEST_THRESHOLD,
    CHARACTERISTICS,
    DODGE,
    DODGE_THRESHOLD,
    FATIGUE_DICE_MAX,
    FATIGUE_DICE_MIN,
    FATIGUE_KIND_OF,
    FATIGUE_KINDS,
    FATIGUE_TIMINGS,
    PARRY,
    PHYSICAL,
    RANGED_ATTACK,
    RANK_ZERO_DICE,
    ROLL_KINDS,
    SKILL,
    VISER_BONUS,
)
from apps.rules.aethoria.house import DEFAULT_HOUSE_RULES, AethoriaHouseRules
from apps.rules.checks import (
    require_bool,
    require_choice,
    require_int,
    require_ints,
)
from apps.rules.dice import D10, Dice, check_dice_count, check_faces
from apps.rules.errors import (
    InvalidAction,
    InvalidCharacteristic,
    InvalidDefence,
    InvalidFatigueSpend,
    InvalidValue,
    InvalidWeapon,
    RollNotAllowed,
    fr,
)

# --- Rolls ------------------------------------------------------------------------------------


def _check_threshold(threshold: object, field_name: str = "threshold") -> int:
    # Any integer is meaningful: >= 10 every die succeeds, < 1 none does.
    return require_int(threshold, field=field_name, label=fr("Le seuil"))


def count_successes(
    faces: Sequence[int], threshold: int, *, ones_always_succeed: bool = True
) -> int:
    """Successes of d10 faces: a die at or under the threshold succeeds, a 1 counts twice.

    The source counts the 1s double without condition, so a 1 gives 2 successes even when the
    threshold is 0 or below (house rule "un 1 réussit toujours", on by default; off, a 1 then
    succeeds only when it is at or under the threshold, like any die).
    """
    checked = check_faces(faces, D10)
    _check_threshold(threshold)
    require_bool(
        ones_always_succeed, field="ones_always_succeed", label=fr("Un 1 réussit toujours")
    )
    return sum(_face_successes(face, threshold, ones_always_succeed) for face in checked)


def _face_successes(face: int, threshold: int, ones_always_succeed: bool) -> int:
    if face == 1:
        return 2 if ones_always_succeed or threshold >= 1 else 0
    return 1 if face <= threshold else 0


def _dice_modifiers(modifiers: Iterable[int]) -> tuple[int, ...]:
    return require_ints(modifiers, field="modifiers", label=fr("Les modificateurs de dés"))


def _sum_dice_modifiers(modifiers: Iterable[int]) -> int:
    return sum(_dice_modifiers(modifiers))


def pool_size(rank: int, modifiers: Iterable[int] = (), *, rank_zero_allowed: bool = False) -> int:
    """Dice to roll: the rank plus dice bonuses/maluses, never below 0 (0 dice = 0 successes)."""
    check_skill_rank(rank)
    if rank == 0 and not rank_zero_allowed:
        raise RollNotAllowed(
            fr("Rang 0 : le personnage ne peut pas tenter ce jet sans l'accord du MJ."),
            field="rank",
        )
    base = RANK_ZERO_DICE if rank == 0 else rank
    # A pool that drops to 0 dice is a rule of the game (it gives 0 successes), not a clamp.
    return max(0, base + _sum_dice_modifiers(modifiers))


@dataclass(frozen=True)
class RollSpec:
    """What to roll: how many d10, the threshold, a fixed part, and which fatigue pays extras."""

    kind: str
    dice: int
    threshold: int
    fatigue: str
    fixed: int = 0
    ones_always_succeed: bool = True  # the campaign's "un 1 réussit toujours"

    def __post_init__(self) -> None:
        require_choice(self.kind, ROLL_KINDS, field="kind", label=fr("Le type de jet"))
        check_dice_count(self.dice)
        _check_threshold(self.threshold)
        require_choice(self.fatigue, FATIGUE_KINDS, field="fatigue", label=fr("La fatigue"))
        require_int(self.fixed, field="fixed", label=fr("La partie fixe"), low=0)
        require_bool(
            self.ones_always_succeed,
            field="ones_always_succeed",
            label=fr("Un 1 réussit toujours"),
        )


def fatigue_kind(characteristic: str) -> str:
    """Physical for Force, Adresse, Vitalité; mental for the others."""
    require_choice(
        characteristic,
        CHARACTERISTICS,
        field="characteristic",
        label=fr("La caractéristique"),
        error=InvalidCharacteristic,
    )
    return FATIGUE_KIND_OF[characteristic]


def skill_roll(
    rank: int,
    characteristic: str,
    value: int,
    modifiers: Iterable[int] = (),
    *,
    rank_zero_allowed: bool = False,
    exceptional: bool = False,
) -> RollSpec:
    """Skill test: rank dice under the linked characteristic (the GM may swap it for a roll)."""
    kind = fatigue_kind(characteristic)
    check_characteristic(value, characteristic, exceptional=exceptional)
    dice = pool_size(rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(SKILL, dice, value, kind)


def characteristic_roll(
    characteristic: str, value: int, modifiers: Iterable[int] = (), *, exceptional: bool = False
) -> RollSpec:
    """Characteristic test: as many dice as the value, threshold 6."""
    kind = fatigue_kind(characteristic)
    check_characteristic(value, characteristic, exceptional=exceptional)
    dice = max(0, value + _sum_dice_modifiers(modifiers))
    return RollSpec(CHARACTERISTIC, dice, CHARACTERISTIC_TEST_THRESHOLD, kind)


def dodge_roll(
    rank: int,
    *,
    encumbered: bool = False,
    modifiers: Iterable[int] = (),
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Dodge: esquive rank dice, threshold 6; fewer dice when encumbered."""
    require_bool(encumbered, field="encumbered", label=fr("Encombré"))
    extra = [house.encumbered_dodge_malus] if encumbered else []
    dice = pool_size(
        rank, [*_dice_modifiers(modifiers), *extra], rank_zero_allowed=rank_zero_allowed
    )
    return RollSpec(DODGE, dice, DODGE_THRESHOLD, PHYSICAL)


def check_parry_allowed(
    attacker_force: int, defender_force: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> None:
    """Refuse a parry against an attacker whose Force is too high (>= defender's + gap)."""
    a = check_characteristic(attacker_force, "force", exceptional=True)
    d = check_characteristic(defender_force, "force", exceptional=True)
    if a >= d + house.parry_force_gap:
        raise InvalidDefence(
            fr(
                "Parade impossible : la Force de l'attaquant (%(attacker_force)s) dépasse de "
                "%(gap)s ou plus celle du défenseur (%(defender_force)s). Il faut esquiver."
            ),
            field="defence",
            params={"attacker_force": a, "defender_force": d, "gap": house.parry_force_gap},
        )


def parry_roll(
    rank: int,
    parry_value: int,
    *,
    attacker_force: int,
    defender_force: int,
    modifiers: Iterable[int] = (),
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Parry: "jet de parade" dice (see `parry_rank`) under the parry value of the item used."""
    check_parry_allowed(attacker_force, defender_force, house)
    require_int(
        parry_value,
        field="parry",
        label=fr("La valeur de parade"),
        low=0,
        high=D10,
        error=InvalidWeapon,
    )
    dice = pool_size(rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(PARRY, dice, parry_value, PHYSICAL, 0, house.ones_always_succeed)


PARADE_SKILL = "parade"
WEAPON_SKILL = "weapon"


@dataclass(frozen=True)
class ParryRank:
    """The rank a parry rolls and whose it is: the Parade skill, or the weapon's skill."""

    rank: int
    skill: str  # PARADE_SKILL or WEAPON_SKILL


def parry_rank(
    parade: int,
    weapon_skill: int | None = None,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> ParryRank:
    """A parry is a roll of the Parade skill ("jet de parade"), whatever parries.

    With the house rule "parade : meilleur de Parade et de la compétence d'arme", a weapon's
    parry rolls the better of Parade and that weapon's skill (`weapon_skill`; None for a
    shield, which has no skill of its own). On a tie, Parade is the rank named.
    """
    check_skill_rank(parade, "parade")
    if weapon_skill is None or not house.parry_best_of_weapon_skill:
        return ParryRank(parade, PARADE_SKILL)
    check_skill_rank(weapon_skill, "weapon_skill")
    if weapon_skill > parade:
        return ParryRank(weapon_skill, WEAPON_SKILL)
    return ParryRank(parade, PARADE_SKILL)


def attack_roll(
    rank: int,
    adresse: int,
    modifiers: Iterable[int] = (),
    *,
    action: str = ATTACK_ACTION,
    range_band: str | None = None,
    aim_bonus: int = 0,
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Attack: weapon skill under Adresse, with the action's, range's and aim's dice."""
    require_choice(
        action, ATTACK_ACTIONS, field="action", label=fr("L'action"), error=InvalidAction
    )
    check_characteristic(adresse, "adresse", exceptional=True)
    require_int(
        aim_bonus, field="aim_bonus", label=fr("Le bonus de visée"), low=0, high=VISER_BONUS
    )
    extra = [ACTION_DICE.get(action, 0), aim_bonus]
    if range_band is not None:
        extra.append(house.range_malus(range_band))
    elif action == RANGED_ATTACK:
        raise InvalidValue(fr("Une attaque à distance demande une portée."), field="range_band")
    dice = pool_size(
        rank, [*_dice_modifiers(modifiers), *extra], rank_zero_allowed=rank_zero_allowed
    )
    return RollSpec(ATTACK, dice, adresse, PHYSICAL)


@dataclass(frozen=True)
class PoolResult:
    """The faces of a roll (fatigue dice apart) and its successes (fixed part included)."""

    spec: RollSpec
    faces: tuple[int, ...]
    fatigue_faces: tuple[int, ...] = ()
    fatigue_timing: str | None = None
    successes: int = field(init=False)

    def __post_init__(self) -> None:
        dice = self.faces + self.fatigue_faces
        counted = count_successes(
            dice, self.spec.threshold, ones_always_succeed=self.spec.ones_always_succeed
        )
        successes = self.spec.fixed + counted
        object.__setattr__(self, "successes", successes)

    @property
    def all_faces(self) -> tuple[int, ...]:
        """Pool faces then fatigue faces."""
        return self.faces + self.fatigue_faces


def _check_fatigue_count(count: object) -> int:
    return require_int(
        count,
        field="fatigue",
        label=fr("Les dés de fatigue"),
        low=FATIGUE_DICE_MIN,
        high=FATIGUE_DICE_MAX,
        error=InvalidFatigueSpend,
    )


def roll_pool(
    spec: RollSpec,
    faces: Sequence[int],
    fatigue_faces: Sequence[int] = (),
    *,
    fatigue_timing: str = BEFORE,
) -> PoolResult:
    """Evaluate a roll from its faces (and fatigue dice decided before rolling, if any)."""
    checked = check_faces(faces, D10, field="faces", count=spec.dice)
    extra = check_faces(fatigue_faces, D10, field="fatigue_faces")
    if not extra:
        return PoolResult(spec, checked)
    _check_fatigue_count(len(extra))
    require_choice(
        fatigue_timing,
        FATIGUE_TIMINGS,
        field="fatigue_timing",
        label=fr("Le moment de la dépense"),
        error=InvalidFatigueSpend,
    )
    return PoolResult(spec, checked, extra, fatigue_timing)


def roll_with(dice: Dice, spec: RollSpec, fatigue_dice: int = 0) -> PoolResult:
    """Roll a spec with an injected roller (fatigue dice, if any, decided before rolling)."""
    if fatigue_dice:
        _check_fatigue_count(fatigue_dice)
    return roll_pool(spec, dice.d10(spec.dice), dice.d10(fatigue_dice))


def add_fatigue_dice(result: PoolResult, fatigue_faces: Sequence[int]) -> PoolResult:
    """Fatigue dice decided after seeing the roll; allowed once per roll."""
    if result.fatigue_faces:
        raise InvalidFatigueSpend(
            fr("Les dés de fatigue se décident en une seule fois par jet."), field="fatigue"
        )
    extra = check_faces(fatigue_faces, D10, field="fatigue_faces")
    _check_fatigue_count(len(extra))
    return PoolResult(result.spec, result.faces, extra, AFTER)


def spend_fatigue(pools: AethoriaPools, kind: str, count: int) -> tuple[AethoriaPools, PoolDelta]:
    """Pay 1 to 3 fatigue points for as many extra dice; the pool must be able to pay."""
    _check_fatigue_count(count)
    left = pools.fatigue(kind)
    if count > left:
        message = (
            fr("Fatigue physique insuffisante : %(asked)s demandé(s), %(left)s restant(s).")
            if kind == PHYSICAL
            else fr("Fatigue mentale insuffisante : %(asked)s demandé(s), %(left)s restant(s).")
        )
        raise InvalidFatigueSpend(
            message, field="fatigue", params={"kind": kind, "asked": count, "left": left}
        )
    delta = PoolDelta(physical=-count) if kind == PHYSICAL else PoolDelta(mental=-count)
    return apply_delta(pools, delta), delta


@dataclass(frozen=True)
class Verdict:
    """Successes against a difficulty: success, margin and the "much lower" flag."""

    successes: int
    difficulty: int
    success: bool
    margin: int
    much_lower: bool


def judge(
    successes: int, difficulty: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> Verdict:
    """Success iff successes >= difficulty; "much lower" iff successes <= difficulty - gap."""
    require_int(successes, field="successes", label=fr("Les réussites"), low=0)
    require_int(difficulty, field="difficulty", label=fr("La difficulté"), low=0)
    return Verdict(
        successes=successes,
        difficulty=difficulty,
        success=successes >= difficulty,
        margin=successes - difficulty,
        much_lower=successes <= difficulty - house.much_lower_gap,
    )
