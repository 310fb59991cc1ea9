"""Aethoria exact odds: distributions of pool successes, landing, damage, burn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from apps.rules import odds
from apps.rules.aethoria.combat import max_bonus_dice
from apps.rules.aethoria.constants import DODGE_THRESHOLD
from apps.rules.aethoria.rolls import _check_threshold
from apps.rules.checks import (
    require_bool,
    require_int,
)
from apps.rules.dice import D10, check_dice_count
from apps.rules.errors import (
    fr,
)

# --- Odds -------------------------------------------------------------------------------------


def _die_weights(threshold: int, ones: bool = True) -> tuple[int, int, int]:
    """Tenths of a d10 giving 0, 1 and 2 successes at this threshold.

    `ones`: a 1 counts 2 successes even under a threshold of 0 or less ("un 1 réussit
    toujours"); without it, such a threshold gives no success at all.
    """
    if threshold < 1:
        return (D10 - 1, 0, 1) if ones else (D10, 0, 0)
    t = min(threshold, D10)  # 10 or more: every face succeeds
    return (D10 - t, t - 1, 1)


def _success_counts(dice: int, threshold: int, ones: bool = True) -> tuple[int, ...]:
    """Ways (out of 10 ** dice) for a pool to total each number of successes."""
    return odds.die_power(_die_weights(threshold, ones), dice)


def _check_ones(value: object) -> bool:
    return require_bool(value, field="ones_always_succeed", label=fr("Un 1 réussit toujours"))


@odds.cached
def _success_distribution(
    dice: int, threshold: int, ones: bool
) -> tuple[tuple[int, Fraction], ...]:
    counts = _success_counts(dice, threshold, ones)
    return tuple(odds.from_counts(counts, D10**dice).items())


def success_distribution(
    dice: int, threshold: int, *, ones_always_succeed: bool = True
) -> dict[int, Fraction]:
    """Exact distribution of a pool's successes (keys: the totals that can happen)."""
    check_dice_count(dice)
    _check_threshold(threshold)
    return dict(_success_distribution(dice, threshold, _check_ones(ones_always_succeed)))


def success_probability(
    dice: int,
    threshold: int,
    difficulty: int,
    fixed: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Exact chance that a roll (plus a fixed part) reaches the difficulty."""
    check_dice_count(dice)
    _check_threshold(threshold)
    require_int(difficulty, field="difficulty", label=fr("La difficulté"), low=0)
    require_int(fixed, field="fixed", label=fr("La partie fixe"), low=0)
    counts = _success_counts(dice, threshold, _check_ones(ones_always_succeed))
    needed = max(0, difficulty - fixed)
    return Fraction(sum(counts[needed:]), D10**dice)


def _check_pools(
    attack_dice: int, attack_threshold: int, defence_dice: int, defence_threshold: int
) -> None:
    check_dice_count(attack_dice, field="attack_dice")
    check_dice_count(defence_dice, field="defence_dice")
    _check_threshold(attack_threshold, "attack_threshold")
    _check_threshold(defence_threshold, "defence_threshold")


def landing_probability(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Exact chance that an attack keeps at least 1 net success against a defence roll."""
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    ones = _check_ones(ones_always_succeed)
    ways = odds.count_difference_at_least(
        _success_counts(attack_dice, attack_threshold, ones),
        _success_counts(defence_dice, defence_threshold, ones),
        1,
    )
    return Fraction(ways, D10 ** (attack_dice + defence_dice))


def net_success_distribution(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    *,
    ones_always_succeed: bool = True,
) -> dict[int, Fraction]:
    """Exact distribution of attack successes minus defence successes."""
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    counts, offset = _net_counts(
        attack_dice,
        attack_threshold,
        defence_dice,
        defence_threshold,
        _check_ones(ones_always_succeed),
    )
    return odds.from_counts(counts, D10 ** (attack_dice + defence_dice), offset)


def _net_counts(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int,
    defence_threshold: int,
    ones: bool = True,
) -> tuple[tuple[int, ...], int]:
    """Ways (out of 10 ** (attack + defence)) for each net total; index 0 is net = offset."""
    a = _success_counts(attack_dice, attack_threshold, ones)
    d = _success_counts(defence_dice, defence_threshold, ones)
    # attack - defence = attack + (top - defence) - top: convolve with the reversed defence.
    return odds.convolve_counts(a, d[::-1]), -(len(d) - 1)


@odds.cached
def _damage_counts(
    weapon_dice: int, force: int, fixed: int, rd: int, ones: bool = True
) -> tuple[int, ...]:
    """Ways (out of 10 ** weapon_dice) for the damage after RD to take each value."""
    counts = _success_counts(weapon_dice, force, ones)
    out = [0] * max(1, len(counts) + fixed - rd)
    for k, c in enumerate(counts):
        out[max(0, k + fixed - rd)] += c  # armour can absorb everything, never more
    return tuple(out)


def damage_distribution(
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    bonus_dice: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> dict[int, Fraction]:
    """Exact distribution of damage after RD of a blow that landed (never negative)."""
    _check_damage_inputs(weapon_dice, fixed, force, rd)
    dice = check_dice_count(weapon_dice + _nonneg(bonus_dice, "bonus_dice"), field="weapon_dice")
    counts = _damage_counts(dice, force, fixed, rd, _check_ones(ones_always_succeed))
    return odds.from_counts(counts, D10**dice)


def expected_damage(
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    bonus_dice: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Mean damage after RD of a blow that landed."""
    return odds.mean(
        damage_distribution(
            weapon_dice, fixed, force, rd, bonus_dice, ones_always_succeed=ones_always_succeed
        )
    )


@dataclass(frozen=True)
class AttackOdds:
    """Odds shown before an attack: landing chance and damage after RD (a miss counts as 0)."""

    lands: Fraction
    damage: dict[int, Fraction]
    expected_damage: Fraction


def attack_odds(
    *,
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    convert_extra_successes: bool = True,
    ones_always_succeed: bool = True,
) -> AttackOdds:
    """Exact landing chance and damage distribution, with bonus dice from net successes.

    `ones_always_succeed` is the campaign's "un 1 réussit toujours": it matters when a threshold
    is 0 or less (the second weapon of an attaque double with Force <= 2, a parry value of 0).
    """
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    _check_damage_inputs(weapon_dice, fixed, force, rd)
    ones = _check_ones(ones_always_succeed)
    net, offset = _net_counts(attack_dice, attack_threshold, defence_dice, defence_threshold, ones)
    # Group the net totals by the bonus dice they buy: a miss (net < 1) deals 0 damage.
    first_hit = max(0, 1 - offset)
    miss = sum(net[:first_hit])
    by_bonus: dict[int, int] = {}
    for index in range(first_hit, len(net)):
        bonus = max_bonus_dice(index + offset) if convert_extra_successes else 0
        by_bonus[bonus] = by_bonus.get(bonus, 0) + net[index]
    most_bonus = max((b for b, ways in by_bonus.items() if ways), default=0)
    check_dice_count(weapon_dice + most_bonus, field="weapon_dice")
    damage = _mixed_damage_counts(miss, by_bonus, most_bonus, weapon_dice, force, fixed, rd, ones)
    pool_outcomes = D10 ** (attack_dice + defence_dice)
    denominator = pool_outcomes * D10 ** (weapon_dice + most_bonus)
    return AttackOdds(
        lands=Fraction(pool_outcomes - miss, pool_outcomes),
        damage=odds.from_counts(damage, denominator),
        expected_damage=Fraction(sum(k * c for k, c in enumerate(damage)), denominator),
    )


def _mixed_damage_counts(
    miss: int,
    by_bonus: Mapping[int, int],
    most_bonus: int,
    weapon_dice: int,
    force: int,
    fixed: int,
    rd: int,
    ones: bool,
) -> list[int]:
    """Damage counts of the whole attack, a miss counting 0.

    Everything is counted over one common denominator 10 ** (attack + defence + weapon + most
    bonus dice), so the mix stays in integers until the very end.
    """
    damage = [miss * D10 ** (weapon_dice + most_bonus)]
    for bonus, ways in by_bonus.items():
        if not ways:
            continue
        scale = ways * D10 ** (most_bonus - bonus)
        part = _damage_counts(weapon_dice + bonus, force, fixed, rd, ones)
        if len(part) > len(damage):
            damage.extend([0] * (len(part) - len(damage)))
        for k, c in enumerate(part):
            damage[k] += scale * c
    return damage


def burn_probability(dice: int, threshold: int) -> Fraction:
    """Exact chance of a brûlure d'érys: every die succeeds, (t/10) ** n (0 with no die)."""
    check_dice_count(dice)
    _check_threshold(threshold)
    if dice == 0:
        return Fraction(0)
    t = max(0, min(threshold, D10))
    return Fraction(t, D10) ** dice


def _nonneg(value: object, field_name: str) -> int:
    return require_int(value, field=field_name, label=field_name, low=0)


def _check_damage_inputs(weapon_dice: int, fixed: int, force: int, rd: int) -> None:
    check_dice_count(weapon_dice, field="weapon_dice")
    require_int(fixed, field="fixed", label=fr("Les dégâts fixes"), low=0)
    _check_threshold(force, "force")
    require_int(rd, field="rd", label=fr("La RD"), low=0)
