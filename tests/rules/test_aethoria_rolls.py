"""Aethoria: house rules, derived pools, success counting, rolls, fatigue dice, difficulty."""

import json

import pytest

from apps.rules import aethoria as ae
from apps.rules import errors
from apps.rules.aethoria import (
    AethoriaHouseRules,
    AethoriaPools,
    AethoriaWeapon,
    PoolDelta,
    RollSpec,
)

# --- house rules ---------------------------------------------------------------------------


def test_house_rule_defaults():
    house = AethoriaHouseRules()
    assert house.pv_multiplier == 2
    assert house.much_lower_gap == 3
    assert dict(house.difficulty_ladder) == {
        "facile": 1,
        "moyenne": 2,
        "difficile": 3,
        "très difficile": 4,
        "extrême": 5,
    }
    assert house.initiative_ties_by_adresse and not house.initiative_reroll_each_round
    assert (house.parry_force_gap, house.encumbered_dodge_malus) == (3, -2)
    assert dict(house.range_band_malus) == {"short": 0, "medium": -1, "long": -2, "extreme": -4}
    assert house.hit_locations == (
        (1, 2, "head"),
        (3, 10, "torso"),
        (11, 13, "right_arm"),
        (14, 16, "left_arm"),
        (17, 18, "right_leg"),
        (19, 20, "left_leg"),
    )
    assert (house.bleeding_factor, house.fracture_factor, house.instant_death_factor) == (1, 2, 3)
    assert house.instant_death_locations == ("head", "torso")
    assert house.death_threshold_factor == 1
    assert (house.fatigue_cost_divisor, house.burn_pv_per_pouvoir) == (3, 1)
    assert house.unpaid_fatigue_to_pv and house.convert_extra_successes


def test_house_rules_round_trip_through_json():
    house = AethoriaHouseRules(
        initiative_reroll_each_round=True,
        range_band_malus=(("short", 0), ("far", -3)),
        hit_locations=((1, 10, "body"), (11, 20, "tail")),
        instant_death_locations=("body",),
    )
    data = json.loads(json.dumps(house.to_dict()))
    assert data["range_band_malus"] == {"short": 0, "far": -3}
    assert AethoriaHouseRules.from_dict(data) == house


def test_from_dict_ignores_unknown_keys_and_defaults_missing_ones():
    assert AethoriaHouseRules.from_dict({"nope": 1}) == AethoriaHouseRules()
    assert AethoriaHouseRules.from_dict({"parry_force_gap": 4}).parry_force_gap == 4


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"pv_multiplier": 0}, "pv_multiplier"),
        ({"encumbered_dodge_malus": 2}, "encumbered_dodge_malus"),
        ({"fatigue_cost_divisor": 0}, "fatigue_cost_divisor"),
        ({"initiative_reroll_each_round": 1}, "initiative_reroll_each_round"),
        ({"hit_locations": [[1, 10, "torso"], [12, 20, "legs"]]}, "hit_locations"),  # gap
        ({"hit_locations": [[1, 10, "torso"], [10, 20, "legs"]]}, "hit_locations"),  # overlap
        ({"hit_locations": [[1, 10, "torso"], [11, 19, "legs"]]}, "hit_locations"),  # short
        ({"hit_locations": [[2, 20, "torso"]]}, "hit_locations"),
        ({"hit_locations": [[1, 21, "torso"]]}, "hit_locations"),
        ({"hit_locations": [[1, 20]]}, "hit_locations"),
        ({"hit_locations": [[1, 20, ""]]}, "hit_locations"),
        ({"hit_locations": [[1, 20, "body"]]}, "instant_death_locations"),
        ({"range_band_malus": {"short": "0"}}, "range_band_malus"),
        ({"range_band_malus": [["short", 0], ["short", -1]]}, "range_band_malus"),
        ({"difficulty_ladder": [["facile", -1]]}, "difficulty_ladder"),
        ({"instant_death_locations": "head"}, "instant_death_locations"),
    ],
)
def test_from_dict_refuses_bad_values(data, field):
    with pytest.raises(errors.InvalidHouseRules) as caught:
        AethoriaHouseRules.from_dict(data)
    assert caught.value.field == field


def test_range_malus():
    house = AethoriaHouseRules()
    assert [house.range_malus(b) for b in ("short", "medium", "long", "extreme")] == [0, -1, -2, -4]
    with pytest.raises(errors.InvalidValue):
        house.range_malus("orbit")


# --- character -----------------------------------------------------------------------------


def test_derive_pools():
    derived = ae.derive(force=5, vitalite=4, concentration=6, esprit=3)
    assert (derived.pv, derived.physical_fatigue, derived.mental_fatigue) == (18, 9, 9)
    house = AethoriaHouseRules(pv_multiplier=3, mental_fatigue_multiplier=2)
    derived = ae.derive(5, 4, 6, 3, house)
    assert (derived.pv, derived.physical_fatigue, derived.mental_fatigue) == (27, 9, 18)


def test_characteristic_ranges():
    assert ae.check_characteristic(9, "force") == 9
    assert ae.check_characteristic(12, "force", exceptional=True) == 12
    for value, exceptional in ((10, False), (0, False), (13, True)):
        with pytest.raises(errors.InvalidCharacteristic):
            ae.check_characteristic(value, "force", exceptional=exceptional)
    with pytest.raises(errors.InvalidCharacteristic):
        ae.derive(13, 4, 4, 4)


@pytest.mark.parametrize("rank", [-1, 10, 2.0])
def test_skill_rank_range(rank):
    with pytest.raises(errors.InvalidSkillRank):
        ae.check_skill_rank(rank)


# --- counting successes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "threshold", "successes"),
    [
        ([1], 5, 2),  # a 1 counts twice
        ([5], 5, 1),  # at the threshold succeeds
        ([6], 5, 0),
        ([1, 5, 6, 10], 5, 3),
        ([10], 10, 1),
        ([10, 1], 12, 3),  # threshold >= 10: everything succeeds
        ([1, 1], 0, 4),  # threshold < 1: a 1 still counts 2 successes (without condition)
        ([1, 2, 5], -3, 2),  # ... and nothing else succeeds
        ([2, 3], 1, 0),
        ([1, 2], 1, 2),
        ([], 5, 0),
    ],
)
def test_count_successes(faces, threshold, successes):
    assert ae.count_successes(faces, threshold) == successes


@pytest.mark.parametrize(
    ("faces", "threshold", "successes"),
    [
        ([1, 1], 0, 0),  # option off: under a threshold < 1 nothing succeeds, not even a 1
        ([1, 2, 5], -3, 0),
        ([1, 5, 6], 5, 3),  # with a threshold of 1 or more the option changes nothing
        ([1], 1, 2),
    ],
)
def test_count_successes_when_a_one_does_not_always_succeed(faces, threshold, successes):
    assert ae.count_successes(faces, threshold, ones_always_succeed=False) == successes


def test_a_roll_follows_its_campaigns_rule_on_ones():
    on = ae.damage_roll(AethoriaWeapon(dice=2), force=2, second_weapon=True)
    off = ae.damage_roll(
        AethoriaWeapon(dice=2),
        force=2,
        second_weapon=True,
        house=AethoriaHouseRules(ones_always_succeed=False),
    )
    assert on.threshold == off.threshold == 0
    assert ae.roll_pool(on, [1, 3]).successes == 2
    assert ae.roll_pool(off, [1, 3]).successes == 0


@pytest.mark.parametrize("faces", [[11], [0], [3, 12]])
def test_count_successes_refuses_impossible_faces(faces):
    with pytest.raises(errors.InvalidFace):
        ae.count_successes(faces, 5)


# --- building rolls ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (lambda: ae.skill_roll(4, "adresse", 6), RollSpec("skill", 4, 6, "physical")),
        (lambda: ae.skill_roll(4, "intelligence", 5), RollSpec("skill", 4, 5, "mental")),
        (lambda: ae.skill_roll(3, "esprit", 5, [-5]), RollSpec("skill", 0, 5, "mental")),
        (
            lambda: ae.skill_roll(0, "force", 5, rank_zero_allowed=True),
            RollSpec("skill", 1, 5, "physical"),
        ),
        (lambda: ae.characteristic_roll("force", 5), RollSpec("characteristic", 5, 6, "physical")),
        (
            lambda: ae.characteristic_roll("concentration", 4, [-1]),
            RollSpec("characteristic", 3, 6, "mental"),
        ),
        (lambda: ae.dodge_roll(4), RollSpec("dodge", 4, 6, "physical")),
        (lambda: ae.dodge_roll(4, encumbered=True), RollSpec("dodge", 2, 6, "physical")),
        (
            lambda: ae.dodge_roll(
                4, encumbered=True, house=AethoriaHouseRules(encumbered_dodge_malus=-1)
            ),
            RollSpec("dodge", 3, 6, "physical"),
        ),
        (lambda: ae.dodge_roll(1, encumbered=True), RollSpec("dodge", 0, 6, "physical")),
        (
            lambda: ae.parry_roll(3, 7, attacker_force=6, defender_force=4),
            RollSpec("parry", 3, 7, "physical"),
        ),
        (lambda: ae.attack_roll(5, 6), RollSpec("attack", 5, 6, "physical")),
        (lambda: ae.attack_roll(5, 6, action="cibler"), RollSpec("attack", 1, 6, "physical")),
        (
            lambda: ae.attack_roll(5, 6, action="attaque_double"),
            RollSpec("attack", 2, 6, "physical"),
        ),
        (lambda: ae.attack_roll(5, 6, aim_bonus=3), RollSpec("attack", 8, 6, "physical")),
        (
            lambda: ae.attack_roll(5, 6, action="ranged_attack", range_band="long"),
            RollSpec("attack", 3, 6, "physical"),
        ),
        (
            lambda: ae.attack_roll(5, 6, [-1], action="ranged_attack", range_band="extreme"),
            RollSpec("attack", 0, 6, "physical"),
        ),
        (lambda: ae.spell_roll(4, 7, 4), RollSpec("spell", 4, 4, "mental")),
        (lambda: ae.spell_roll(4, 7, 7), RollSpec("spell", 4, 7, "mental")),
    ],
)
def test_roll_specs(spec, expected):
    assert spec() == expected


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ae.skill_roll(0, "force", 5), errors.RollNotAllowed),
        (lambda: ae.dodge_roll(0), errors.RollNotAllowed),
        (lambda: ae.skill_roll(10, "force", 5), errors.InvalidSkillRank),
        (lambda: ae.skill_roll(3, "charisme", 5), errors.InvalidCharacteristic),
        (lambda: ae.skill_roll(3, "force", 10), errors.InvalidCharacteristic),
        (lambda: ae.parry_roll(3, 7, attacker_force=7, defender_force=4), errors.InvalidDefence),
        (lambda: ae.parry_roll(3, 11, attacker_force=4, defender_force=4), errors.InvalidWeapon),
        (lambda: ae.attack_roll(5, 6, action="ranged_attack"), errors.InvalidValue),
        (lambda: ae.attack_roll(5, 6, action="move"), errors.InvalidAction),
        (lambda: ae.attack_roll(5, 6, aim_bonus=4), errors.InvalidValue),
        (lambda: ae.spell_roll(4, 7, 8), errors.InvalidSpell),
        (lambda: ae.spell_roll(4, 7, 0), errors.InvalidSpell),
        (lambda: RollSpec("skill", -1, 5, "physical"), errors.InvalidPool),
    ],
)
def test_roll_refusals(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize(
    ("attacker", "defender", "allowed"),
    [(6, 4, True), (7, 4, False), (9, 4, False), (4, 7, True)],
)
def test_parry_refused_against_much_stronger_attacker(attacker, defender, allowed):
    if allowed:
        ae.check_parry_allowed(attacker, defender)
    else:
        with pytest.raises(errors.InvalidDefence):
            ae.check_parry_allowed(attacker, defender)
    wider = AethoriaHouseRules(parry_force_gap=4)
    ae.check_parry_allowed(7, 4, wider)


# --- rolling with fatigue dice -------------------------------------------------------------

SPEC = RollSpec("skill", 3, 5, "physical")


def test_roll_pool_counts_pool_and_fatigue_dice():
    plain = ae.roll_pool(SPEC, [1, 6, 5])
    assert plain.successes == 3
    before = ae.roll_pool(SPEC, [1, 6, 5], [2, 9])
    assert (before.successes, before.fatigue_timing) == (4, "before")
    assert before.all_faces == (1, 6, 5, 2, 9)


def test_fatigue_dice_after_seeing_the_roll_once_only():
    result = ae.add_fatigue_dice(ae.roll_pool(SPEC, [7, 8, 9]), [4])
    assert (result.successes, result.fatigue_timing) == (1, "after")
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.add_fatigue_dice(result, [1])
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.add_fatigue_dice(ae.roll_pool(SPEC, [7, 8, 9], [1]), [1])


@pytest.mark.parametrize("fatigue", [[1, 2, 3, 4], []])
def test_fatigue_dice_after_must_be_1_to_3(fatigue):
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.add_fatigue_dice(ae.roll_pool(SPEC, [7, 8, 9]), fatigue)


def test_roll_pool_refusals():
    with pytest.raises(errors.InvalidPool):
        ae.roll_pool(SPEC, [1, 2])
    with pytest.raises(errors.InvalidFace):
        ae.roll_pool(SPEC, [1, 2, 11])
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.roll_pool(SPEC, [1, 2, 3], [1, 2, 3, 4])
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.roll_pool(SPEC, [1, 2, 3], [1], fatigue_timing="during")


def test_damage_roll_adds_the_fixed_part():
    spec = ae.damage_roll(ae.AethoriaWeapon.from_notation("4+4d"), force=5, bonus_dice=1)
    assert spec == RollSpec("damage", 5, 5, "physical", fixed=4)
    assert ae.roll_pool(spec, [1, 5, 6, 9, 2]).successes == 8


POOLS = AethoriaPools(pv_max=18, pv=18, physical_max=9, physical=5, mental_max=9, mental=2)


@pytest.mark.parametrize(
    ("kind", "count", "physical", "mental"),
    [("physical", 1, 4, 2), ("physical", 3, 2, 2), ("mental", 2, 5, 0)],
)
def test_spend_fatigue(kind, count, physical, mental):
    after, delta = ae.spend_fatigue(POOLS, kind, count)
    assert (after.physical, after.mental) == (physical, mental)
    assert ae.revert_delta(after, delta) == POOLS


@pytest.mark.parametrize(
    ("kind", "count"), [("physical", 4), ("physical", 0), ("mental", 3), ("physical", -1)]
)
def test_spend_fatigue_refusals(kind, count):
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.spend_fatigue(POOLS, kind, count)


@pytest.mark.parametrize(
    ("characteristic", "kind"),
    [
        ("force", "physical"),
        ("adresse", "physical"),
        ("vitalite", "physical"),
        ("concentration", "mental"),
        ("intelligence", "mental"),
        ("esprit", "mental"),
        ("pouvoir", "mental"),
    ],
)
def test_fatigue_kind_by_characteristic(characteristic, kind):
    assert ae.fatigue_kind(characteristic) == kind


# --- difficulty ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "difficulty", "success", "margin", "much_lower"),
    [
        (3, 2, True, 1, False),
        (2, 2, True, 0, False),
        (1, 2, False, -1, False),
        (0, 3, False, -3, True),  # 0 <= 3 - 3
        (1, 3, False, -2, False),
        (2, 5, False, -3, True),
        (0, 0, True, 0, False),
    ],
)
def test_judge(successes, difficulty, success, margin, much_lower):
    verdict = ae.judge(successes, difficulty)
    assert (verdict.success, verdict.margin, verdict.much_lower) == (success, margin, much_lower)


def test_judge_gap_is_a_house_rule_and_difficulty_cannot_be_negative():
    assert ae.judge(1, 3, AethoriaHouseRules(much_lower_gap=2)).much_lower
    with pytest.raises(errors.InvalidValue):
        ae.judge(1, -1)


# --- pools ---------------------------------------------------------------------------------


def test_pool_delta_round_trip_and_bounds():
    after = ae.apply_delta(POOLS, PoolDelta(pv=-20, physical=-5, mental=-1))
    assert (after.pv, after.physical, after.mental) == (-2, 0, 1)
    assert ae.revert_delta(after, PoolDelta(pv=-20, physical=-5, mental=-1)) == POOLS
    with pytest.raises(errors.InvalidDamage):
        ae.apply_delta(POOLS, PoolDelta(physical=-6))
    with pytest.raises(errors.InvalidDamage):
        ae.apply_delta(POOLS, PoolDelta(pv=1))
