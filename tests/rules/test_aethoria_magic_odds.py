"""Aethoria magic (fatigue, PV for unpaid fatigue, brûlure d'érys) and exact odds."""

from fractions import Fraction as F

import pytest

from apps.rules import aethoria as ae
from apps.rules import errors
from apps.rules.aethoria import AethoriaHouseRules, AethoriaPools

# --- magic ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("invested", "divisor", "cost"),
    [(1, 3, 1), (3, 3, 1), (4, 3, 2), (6, 3, 2), (7, 3, 3), (9, 3, 3), (12, 3, 4), (3, 2, 2)],
)
def test_spell_fatigue_cost_is_a_third_rounded_up(invested, divisor, cost):
    house = AethoriaHouseRules(fatigue_cost_divisor=divisor)
    assert ae.spell_fatigue_cost(invested, house) == cost


def pools(pv=20, physical=5, mental=5):
    return AethoriaPools(
        pv_max=20, pv=pv, physical_max=9, physical=physical, mental_max=9, mental=mental
    )


def cast(faces, fatigue_faces=(), *, invested=4, pouvoir=7, difficulty=1, state=None, **house):
    spec = ae.spell_roll(len(faces), pouvoir, invested)
    roll = ae.roll_pool(spec, faces, fatigue_faces)
    return ae.cast_spell(
        roll,
        state or pools(),
        invested=invested,
        difficulty=difficulty,
        house=AethoriaHouseRules(**house),
    )


def test_spell_pays_fatigue_from_both_pools():
    result = cast([3, 5, 8])  # threshold 4: one success
    assert (result.verdict.successes, result.verdict.success) == (1, True)
    assert (result.fatigue_cost, result.physical_paid, result.mental_paid) == (2, 2, 2)
    assert (result.pools.physical, result.pools.mental, result.pools.pv) == (3, 3, 20)
    assert not result.burn
    assert ae.revert_delta(result.pools, result.delta) == pools()


def test_unpaid_fatigue_is_lost_from_pv():
    result = cast([9, 9], state=pools(physical=1, mental=0))
    assert (result.physical_paid, result.mental_paid, result.pv_from_fatigue) == (1, 0, 3)
    assert (result.pools.physical, result.pools.mental, result.pools.pv) == (0, 0, 17)


def test_unpaid_fatigue_refused_when_the_house_rule_is_off():
    with pytest.raises(errors.InvalidFatigueSpend):
        cast([9, 9], state=pools(physical=1), unpaid_fatigue_to_pv=False)


@pytest.mark.parametrize(
    ("faces", "fatigue_faces", "burn"),
    [
        ([1, 2, 3], (), True),  # every die at or under the invested Pouvoir (3)
        ([1, 2, 3], (9,), False),  # a failed fatigue die saves the caster
        ([1, 2, 3], (2,), True),  # fatigue dice count for the burn too
        ([1, 2, 4], (), False),
    ],
)
def test_erys_burn(faces, fatigue_faces, burn):
    result = cast(faces, fatigue_faces, invested=3, pouvoir=7)
    assert result.burn is burn
    assert result.burn_pv == (3 if burn else 0)
    assert result.pools.pv == 20 - result.burn_pv  # armour never applies to a burn


def test_burn_intensity_is_a_house_rule():
    assert cast([1, 2], invested=3, burn_pv_per_pouvoir=2).burn_pv == 6


def test_spell_difficulty_and_much_lower():
    result = cast([9, 9, 9], difficulty=3)
    assert (result.verdict.success, result.verdict.much_lower) == (False, True)


def test_is_erys_burn_needs_at_least_one_die():
    assert not ae.is_erys_burn([], 5)
    assert ae.is_erys_burn([5, 5], 5)
    assert ae.is_erys_burn([10], 10)


def test_cast_spell_refuses_a_roll_of_another_kind_or_investment():
    roll = ae.roll_pool(ae.spell_roll(2, 7, 4), [1, 2])
    with pytest.raises(errors.InvalidSpell):
        ae.cast_spell(roll, pools(), invested=5)
    dodge = ae.roll_pool(ae.dodge_roll(2), [1, 2])
    with pytest.raises(errors.InvalidSpell):
        ae.cast_spell(dodge, pools(), invested=6)


# --- odds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "threshold", "expected"),
    [
        (0, 5, {0: F(1)}),
        (1, 5, {0: F(1, 2), 1: F(2, 5), 2: F(1, 10)}),
        (1, 10, {1: F(9, 10), 2: F(1, 10)}),
        (1, 15, {1: F(9, 10), 2: F(1, 10)}),
        (1, 1, {0: F(9, 10), 2: F(1, 10)}),
        (1, 0, {0: F(9, 10), 2: F(1, 10)}),  # a 1 always counts 2 successes
        (2, -3, {0: F(81, 100), 2: F(18, 100), 4: F(1, 100)}),
        (2, 5, {0: F(1, 4), 1: F(2, 5), 2: F(26, 100), 3: F(8, 100), 4: F(1, 100)}),
    ],
)
def test_success_distribution(dice, threshold, expected):
    assert ae.success_distribution(dice, threshold) == expected


@pytest.mark.parametrize(
    ("dice", "threshold", "expected"),
    [
        (1, 0, {0: F(1)}),  # option off: under a threshold < 1 not even a 1 succeeds
        (2, -3, {0: F(1)}),
        (1, 1, {0: F(9, 10), 2: F(1, 10)}),  # from threshold 1 up the option changes nothing
    ],
)
def test_success_distribution_when_a_one_does_not_always_succeed(dice, threshold, expected):
    assert ae.success_distribution(dice, threshold, ones_always_succeed=False) == expected


def test_odds_of_a_second_weapon_under_force_two_count_its_ones():
    # Dagger 1+1d, Force 2 -> threshold 0 for the second weapon: only a 1 (2 successes) scores.
    on = ae.damage_distribution(1, 1, 0)
    off = ae.damage_distribution(1, 1, 0, ones_always_succeed=False)
    assert on == {1: F(9, 10), 3: F(1, 10)}
    assert off == {1: F(1)}
    assert ae.success_probability(2, 0, 2) == F(19, 100)
    assert ae.success_probability(2, 0, 2, ones_always_succeed=False) == 0
    assert ae.landing_probability(1, 0) == F(1, 10)
    assert ae.landing_probability(1, 0, ones_always_succeed=False) == 0


def test_success_distribution_returns_a_fresh_dict():
    first = ae.success_distribution(3, 6)
    first[0] = F(0)
    assert ae.success_distribution(3, 6)[0] == F(4, 10) ** 3


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ae.success_distribution(-1, 5), errors.InvalidPool),
        (lambda: ae.success_distribution(101, 5), errors.InvalidPool),
        (lambda: ae.success_distribution(3, "5"), errors.InvalidValue),
        (lambda: ae.burn_probability(-2, 5), errors.InvalidPool),
        (lambda: ae.landing_probability(3, 6, -1, 6), errors.InvalidPool),
        (lambda: ae.damage_distribution(2, -1, 5), errors.InvalidValue),
        (lambda: ae.damage_distribution(2, 1, 5, rd=-1), errors.InvalidValue),
        (lambda: ae.success_probability(2, 5, -1), errors.InvalidValue),
    ],
)
def test_odds_refuse_impossible_inputs(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize(
    ("dice", "threshold", "difficulty", "fixed", "expected"),
    [
        (1, 5, 1, 0, F(1, 2)),
        (1, 5, 2, 0, F(1, 10)),
        (1, 5, 0, 0, F(1)),
        (2, 5, 3, 0, F(9, 100)),
        (1, 5, 3, 2, F(1, 2)),
        (0, 5, 1, 0, F(0)),
    ],
)
def test_success_probability(dice, threshold, difficulty, fixed, expected):
    assert ae.success_probability(dice, threshold, difficulty, fixed) == expected


@pytest.mark.parametrize(
    ("attack", "defence", "expected"),
    [
        ((1, 5, 0, 6), None, F(1, 2)),
        ((1, 5, 1, 5), None, F(29, 100)),  # .4 x .5 + .1 x .9
        ((0, 5, 1, 5), None, F(0)),
        ((2, 10, 0, 6), None, F(1)),
    ],
)
def test_landing_probability(attack, defence, expected):
    assert ae.landing_probability(*attack) == expected


def test_net_success_distribution():
    net = ae.net_success_distribution(1, 5, 1, 5)
    assert net[-2] == F(1, 2) * F(1, 10)
    assert sum(net.values()) == 1
    assert sum(p for m, p in net.items() if m >= 1) == ae.landing_probability(1, 5, 1, 5)


def test_damage_distribution_never_negative_after_rd():
    assert ae.damage_distribution(1, 2, 5, rd=3) == {0: F(9, 10), 1: F(1, 10)}
    assert ae.damage_distribution(0, 4, 5) == {4: F(1)}
    assert ae.damage_distribution(1, 0, 5, bonus_dice=1) == ae.success_distribution(2, 5)
    assert ae.expected_damage(1, 2, 5) == 2 + F(6, 10)


def test_attack_odds_with_bonus_dice():
    sure = ae.attack_odds(attack_dice=1, attack_threshold=10, weapon_dice=0, fixed=3, force=5)
    assert (sure.lands, sure.damage, sure.expected_damage) == (1, {3: F(1)}, 3)
    # Three always-successful attack dice: net 3..6; net 3-4 buy 1 die, net 5-6 buy 2 dice.
    result = ae.attack_odds(attack_dice=3, attack_threshold=10, weapon_dice=0, fixed=0, force=10)
    net = ae.success_distribution(3, 10)
    assert min(result.damage) == 1  # it always lands with at least one bonus die
    assert result.damage[4] == (net[5] + net[6]) * F(1, 100)  # two bonus dice, both 1s
    assert sum(result.damage.values()) == 1
    kept = ae.attack_odds(
        attack_dice=3,
        attack_threshold=10,
        weapon_dice=0,
        fixed=1,
        force=10,
        convert_extra_successes=False,
    )
    assert kept.damage == {1: F(1)}


def test_attack_odds_count_a_miss_as_zero_damage():
    result = ae.attack_odds(
        attack_dice=1,
        attack_threshold=5,
        defence_dice=1,
        defence_threshold=5,
        weapon_dice=0,
        fixed=2,
        force=5,
        rd=1,
    )
    assert result.lands == F(29, 100)
    assert result.damage == {0: F(71, 100), 1: F(29, 100)}
    assert result.expected_damage == F(29, 100)


@pytest.mark.parametrize(
    ("dice", "threshold", "expected"),
    [
        (3, 5, F(1, 8)),
        (2, 10, F(1)),
        (2, 12, F(1)),
        (2, 0, F(0)),
        (0, 5, F(0)),
        (4, 7, F(7, 10) ** 4),
    ],
)
def test_burn_probability(dice, threshold, expected):
    assert ae.burn_probability(dice, threshold) == expected
