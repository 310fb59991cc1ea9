"""EW-System at the table: tests, éclat, initiative, round actions, attacks, pools, XP, odds."""

from dataclasses import asdict
from fractions import Fraction as F

import pytest

from apps.rules import errors, ew
from apps.rules.ew import (
    EwActiveDefence,
    EwHouseRules,
    EwInitiativeRoll,
    EwPools,
    EwWeapon,
    ResolutionTable,
    RoundActions,
)

# --- a test on the table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("na", "nd", "modifiers", "roll", "score", "success", "margin"),
    [
        (10, 10, (), 10, 10, True, 0),
        (10, 10, (), 11, 10, False, -1),
        (12, 8, (), 1, 14, True, 13),
        (10, 10, (-2, -4), 4, 4, True, 0),
        (10, 10, (-2, -4), 5, 4, False, -1),
        (10, 10, (2,), 12, 12, True, 0),
        (3, 20, (), 1, 1, True, 0),  # a 1 always succeeds on the default grid
        (20, 0, (), 20, 19, False, -1),  # a 20 always fails on the default grid
    ],
)
def test_resolve_test(na, nd, modifiers, roll, score, success, margin):
    result = ew.resolve_test(na, nd, roll, modifiers)
    assert (result.score, result.success, result.margin) == (score, success, margin)
    assert result.modifier == sum(modifiers)
    assert not result.eclat_rescue


@pytest.mark.parametrize("roll", [0, 21])
def test_resolve_test_refuses_impossible_d20(roll):
    with pytest.raises(errors.InvalidFace):
        ew.resolve_test(10, 10, roll)


@pytest.mark.parametrize(("na", "nd"), [(-1, 5), ("5", 5), (5, "5"), (5, None), (5.0, 5)])
def test_resolve_test_refuses_impossible_levels(na, nd):
    with pytest.raises(errors.InvalidValue):
        ew.resolve_test(na, nd, 10)


@pytest.mark.parametrize(
    ("nd", "score"),
    [
        (-1, 16),  # 10 + 5 - (-1): an opponent's maluses lower the ND below 0
        (-4, 19),  # the default grid clamps at 19
        (-30, 19),
        (0, 15),
    ],
)
def test_a_difficulty_below_zero_is_accepted_and_the_score_clamped(nd, score):
    result = ew.resolve_test(5, nd, 10)
    assert result.score == score and result.nd == nd
    assert ew.success_probability(5, nd) == F(score, 20)


def test_a_difficulty_below_zero_slides_on_a_campaign_grid():
    # NA 5 against ND -1 reads the grid at NA 6 / ND 0 (same NA - ND), as the attack path does.
    rows = [[min(20, 1 + na) for _nd in range(21)] for na in range(21)]
    table = ResolutionTable.from_grid(rows)
    assert ew.resolve_test(5, -1, 20, table=table).score == 7
    assert ew.success_probability(5, -1, table=table) == F(7, 20)


def test_resolve_test_uses_the_campaign_table():
    table = ResolutionTable.from_grid([[20] * 21] * 21)
    assert ew.resolve_test(0, 20, 20, table=table).success
    assert ew.success_probability(0, 20, table=table) == 1


@pytest.mark.parametrize(
    ("na", "nd", "modifiers", "expected"),
    [(10, 10, (), F(1, 2)), (20, 0, (), F(19, 20)), (0, 20, (), F(1, 20)), (8, 6, (-4,), F(2, 5))],
)
def test_success_probability(na, nd, modifiers, expected):
    assert ew.success_probability(na, nd, modifiers) == expected


def test_results_store_as_plain_data():
    assert asdict(ew.resolve_test(10, 10, 3)) == {
        "na": 10,
        "modifier": 0,
        "nd": 10,
        "score": 10,
        "roll": 3,
        "success": True,
        "margin": 7,
        "eclat_rescue": False,
    }


# --- points d'éclat ------------------------------------------------------------------------


def test_eclat_turns_a_failure_into_a_success():
    failed = ew.resolve_test(10, 10, 15)
    rescued, spend = ew.rescue_with_eclat(failed, 3)
    assert rescued.success and rescued.eclat_rescue
    assert rescued.margin == failed.margin
    assert (spend.reason, spend.before, spend.after) == ("rescue", 3, 2)


@pytest.mark.parametrize(("roll", "eclat"), [(5, 3), (15, 0)])
def test_eclat_rescue_refused(roll, eclat):
    with pytest.raises(errors.InvalidEclatSpend):
        ew.rescue_with_eclat(ew.resolve_test(10, 10, roll), eclat)


def test_coup_de_pouce_and_undo():
    spend = ew.spend_coup_de_pouce(1, "  la porte est ouverte ")
    assert (spend.reason, spend.after, spend.note) == ("coup_de_pouce", 0, "la porte est ouverte")
    with pytest.raises(errors.InvalidEclatSpend):
        ew.spend_coup_de_pouce(0)
    with pytest.raises(errors.InvalidEclatSpend):
        ew.spend_coup_de_pouce(-1)
    assert ew.revert_eclat_spend(0, spend) == 1
    with pytest.raises(errors.InvalidEclatSpend):
        ew.revert_eclat_spend(3, spend, maximum=3)


# --- initiative ----------------------------------------------------------------------------


def keys(order):
    return [r.key for r in order]


@pytest.mark.parametrize(
    ("rolls", "ties_by_com", "expected"),
    [
        # key, com, d10, draw
        ([("a", 6, 4, 0), ("b", 5, 5, 0), ("c", 7, 1, 0)], True, ["a", "b", "c"]),
        ([("a", 5, 9, 0), ("b", 6, 2, 0)], True, ["a", "b"]),
        ([("a", 5, 5, 9), ("b", 6, 4, 1)], True, ["b", "a"]),  # tie: higher com first
        ([("a", 5, 5, 9), ("b", 6, 4, 1)], False, ["a", "b"]),  # house rule off: the draw
        ([("a", 6, 4, 1), ("b", 6, 4, 7)], True, ["b", "a"]),  # same com: the stored draw
        ([("a", 6, 4, 3), ("b", 6, 4, 3)], True, ["a", "b"]),  # all equal: input order kept
    ],
)
def test_initiative_order(rolls, ties_by_com, expected):
    entries = [EwInitiativeRoll(k, com, roll, draw) for k, com, roll, draw in rolls]
    house = EwHouseRules(initiative_ties_by_com=ties_by_com)
    assert keys(ew.initiative_order(entries, house)) == expected


def test_initiative_total_is_d10_plus_com():
    assert EwInitiativeRoll("a", 6, 4).total == 10


@pytest.mark.parametrize("roll", [0, 11])
def test_initiative_refuses_impossible_d10(roll):
    with pytest.raises(errors.InvalidFace):
        EwInitiativeRoll("a", 6, roll)


def test_initiative_refuses_duplicate_combatants():
    with pytest.raises(errors.InvalidInitiative):
        ew.initiative_order([EwInitiativeRoll("a", 6, 4), EwInitiativeRoll("a", 5, 3)])


# --- actions in a round --------------------------------------------------------------------


def test_first_attack_and_first_defence_are_free_then_malus_accumulates():
    state = RoundActions()
    state, first_attack = state.attack()
    state, first_defence = state.defend()
    assert (first_attack, first_defence) == (0, 0)
    state, second_attack = state.attack()
    assert second_attack == -4
    assert state.malus() == -4  # now on all the character's actions this round
    state, second_defence = state.defend()
    assert second_defence == -8
    state, third_attack = state.attack()
    assert (third_attack, state.extra_actions) == (-12, 3)


def test_extra_action_malus_is_a_house_rule():
    house = EwHouseRules(extra_action_malus=-3)
    state, _ = RoundActions().attack(house)
    _, modifier = state.attack(house)
    assert modifier == -3


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["total_attack", "attack"], 2),
        (["total_attack", "attack", "attack"], -2),
        (["total_defence", "defend"], 2),
        (["total_defence", "defend", "defend"], -2),
    ],
)
def test_total_attack_and_total_defence_bonus(steps, expected):
    state = RoundActions()
    modifier = None
    for step in steps:
        if step == "total_attack":
            state = state.declare_total_attack()
        elif step == "total_defence":
            state = state.declare_total_defence()
        elif step == "attack":
            state, modifier = state.attack()
        else:
            state, modifier = state.defend()
    assert modifier == expected


@pytest.mark.parametrize(
    ("setup", "forbidden"),
    [
        (lambda s: s.declare_total_attack(), lambda s: s.defend()),
        (lambda s: s.declare_total_defence(), lambda s: s.attack()),
        (lambda s: s.defend()[0], lambda s: s.declare_total_attack()),
        (lambda s: s.attack()[0], lambda s: s.declare_total_defence()),
        (lambda s: s.declare_total_attack(), lambda s: s.declare_total_defence()),
    ],
)
def test_round_refusals(setup, forbidden):
    with pytest.raises(errors.InvalidAction):
        forbidden(setup(RoundActions()))


# --- attacks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("defence", "modifiers", "roll", "nd", "score", "hit"),
    [
        (EwActiveDefence(com=5, specialty=1), (), 12, 6, 12, True),
        (EwActiveDefence(com=5, specialty=1), (), 13, 6, 12, False),
        (EwActiveDefence(com=5, specialty=1, modifiers=(-2,)), (), 14, 4, 14, True),
        (EwActiveDefence(com=5, specialty=1, modifiers=(2,)), (), 11, 8, 10, False),
        (None, (), 17, 1, 17, True),  # no active defence: natural defence (PHY 6 / 4)
        (None, (-4,), 14, 1, 13, False),
    ],
)
def test_to_hit(defence, modifiers, roll, nd, score, hit):
    result = ew.resolve_to_hit(
        attacker_com=6,
        weapon_specialty=2,
        target_natural_defence=1,
        roll=roll,
        active_defence=defence,
        modifiers=modifiers,
    )
    assert (result.na, result.nd, result.score, result.success) == (8, nd, score, hit)


@pytest.mark.parametrize(
    ("weapon", "phy", "rounding", "impact"),
    [
        (ew.BARE_FISTS, 8, "down", 2),
        (ew.BARE_FISTS, 7, "down", 1),
        (ew.BARE_FISTS, 6, "nearest", 2),
        (EwWeapon("melee", damage_bonus=2), 8, "down", 4),
        (EwWeapon("melee", damage_bonus=3), 5, "up", 5),
        (EwWeapon("ranged", impact=5), 3, "down", 5),
        (EwWeapon("ranged", impact=5, damage_bonus=2), 10, "down", 5),
    ],
)
def test_weapon_impact(weapon, phy, rounding, impact):
    assert ew.weapon_impact(weapon, phy, rounding) == impact


@pytest.mark.parametrize(
    "kwargs", [{"kind": "laser"}, {"kind": "melee", "damage_bonus": -1}, {"impact": "3"}]
)
def test_bad_weapons_are_refused(kwargs):
    with pytest.raises(errors.InvalidWeapon):
        EwWeapon(**kwargs)


@pytest.mark.parametrize(
    ("face", "natural", "expected"), [(7, 1, 6), (1, 2, 0), (2, 2, 0), (10, 0, 10)]
)
def test_superficial_damage(face, natural, expected):
    assert ew.superficial_damage(face, natural) == expected


@pytest.mark.parametrize(("impact", "protection", "expected"), [(3, 1, 2), (1, 3, 0), (4, 0, 4)])
def test_lethal_damage(impact, protection, expected):
    assert ew.lethal_damage(impact, protection) == expected


def test_damage_refusals():
    with pytest.raises(errors.InvalidFace):
        ew.superficial_damage(11, 1)
    with pytest.raises(errors.InvalidDamage):
        ew.lethal_damage(-1, 0)
    with pytest.raises(errors.InvalidDamage):
        ew.lethal_damage(3, -1)


def attack(to_hit_roll, damage_roll, **changes):
    kwargs = {
        "attacker_com": 6,
        "attacker_phy": 8,
        "weapon": EwWeapon("melee", damage_bonus=1),
        "weapon_specialty": 2,
        "target_phy": 6,
        "target_protection": 1,
        "to_hit_roll": to_hit_roll,
        "damage_roll": damage_roll,
    }
    kwargs.update(changes)
    return ew.resolve_attack(**kwargs)


def test_attack_that_lands_deals_both_damages():
    result = attack(17, 7)
    assert result.to_hit.success
    assert result.damage == ew.EwDamage(face=7, superficial=6, impact=3, protection=1, lethal=2)


def test_attack_that_misses_needs_no_damage_die():
    assert attack(18, None).damage is None


def test_attack_that_lands_without_damage_die_is_refused():
    with pytest.raises(errors.InvalidDamage):
        attack(3, None)


# --- pools ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pools", "superficial", "lethal", "after", "overflow", "lost"),
    [
        ((18, 18, 18), 5, 2, (18, 13, 16), 0, 0),
        ((18, 3, 18), 5, 0, (18, 0, 16), 2, 0),  # overflow into the lethal pool
        ((18, 0, 10), 4, 1, (18, 0, 5), 4, 0),  # already unconscious: all of it is lethal
        ((18, 0, 2), 5, 0, (18, 0, 0), 5, 3),  # dead; 3 points had nowhere to go
        ((18, 18, 18), 0, 0, (18, 18, 18), 0, 0),
    ],
)
def test_apply_damage(pools, superficial, lethal, after, overflow, lost):
    applied = ew.apply_damage(EwPools(*pools), superficial, lethal)
    assert applied.after == EwPools(*after)
    assert (applied.overflow, applied.lost) == (overflow, lost)
    assert ew.revert_damage(applied.after, applied) == EwPools(*pools)


@pytest.mark.parametrize(
    ("pools", "unconscious", "dead"),
    [((18, 1, 1), False, False), ((18, 0, 5), True, False), ((18, 0, 0), True, True)],
)
def test_unconscious_and_dead(pools, unconscious, dead):
    state = EwPools(*pools)
    assert (state.unconscious, state.dead) == (unconscious, dead)


@pytest.mark.parametrize(
    ("pv", "superficial", "lethal", "malus"),
    [
        (18, 18, 18, 0),
        (18, 9, 18, 0),  # exactly half is not below half
        (18, 8, 18, -2),
        (18, 18, 8, -2),
        (18, 5, 18, -2),  # 4 x 5 = 20 >= 18
        (18, 4, 18, -4),  # 4 x 4 = 16 < 18
        (18, 8, 4, -4),  # the worse pool applies, maluses do not add
        (21, 10, 21, -2),  # 2 x 10 < 21: no rounding of 10.5
        (21, 11, 21, 0),
        (21, 5, 21, -4),  # 4 x 5 < 21: no rounding of 5.25
        (21, 6, 21, -2),
        (9, 0, 0, -4),
        (12, 3, 12, -2),  # exactly a quarter is not below a quarter
        (12, 2, 12, -4),
        (12, 6, 12, 0),  # exactly half
    ],
)
def test_wound_malus(pv, superficial, lethal, malus):
    assert ew.wound_malus(pv, superficial, lethal) == malus
    assert EwPools(pv, superficial, lethal).wound_malus == malus


@pytest.mark.parametrize(("pools", "damage"), [((18, 18, 18), (-1, 0)), ((18, 18, 18), (0, -2))])
def test_negative_damage_is_refused(pools, damage):
    with pytest.raises(errors.InvalidDamage):
        ew.apply_damage(EwPools(*pools), *damage)


@pytest.mark.parametrize("pools", [(18, 19, 18), (18, 18, -1), (0, 0, 0)])
def test_impossible_pools_are_refused(pools):
    with pytest.raises(errors.InvalidValue):
        EwPools(*pools)


def test_revert_refuses_what_no_longer_fits():
    applied = ew.apply_damage(EwPools(18, 18, 18), 5, 2)
    with pytest.raises(errors.InvalidDamage):
        ew.revert_damage(EwPools(18, 18, 18), applied)


# --- experience ----------------------------------------------------------------------------


@pytest.mark.parametrize(("current", "cost"), [(3, 4), (6, 7), (9, 10)])
def test_characteristic_costs_the_new_value(current, cost):
    assert ew.characteristic_xp_cost(current) == cost


@pytest.mark.parametrize(("level", "factor", "cost"), [(0, 1, 1), (2, 2, 6), (5, 3, 18)])
def test_specialty_costs_new_level_times_factor(level, factor, cost):
    assert ew.specialty_xp_cost(level, factor) == cost


@pytest.mark.parametrize(("level", "cost"), [(0, 2), (3, 8)])
def test_power_costs_twice_the_new_level(level, cost):
    assert ew.power_xp_cost(level) == cost


def test_eclat_buy_back():
    assert ew.eclat_xp_cost(1, 3) == 1
    assert ew.eclat_xp_cost(1, 3, count=2) == 2
    with pytest.raises(errors.InvalidImprovement):
        ew.eclat_xp_cost(3, 3)
    with pytest.raises(errors.InvalidImprovement):
        ew.eclat_xp_cost(2, 3, count=2)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ew.characteristic_xp_cost(10),
        lambda: ew.specialty_xp_cost(6, 2),
        lambda: ew.power_xp_cost(-1),
    ],
)
def test_improvements_beyond_limits_are_refused(call):
    with pytest.raises(errors.InvalidImprovement):
        call()


def test_xp_costs_follow_house_rules():
    house = EwHouseRules(xp_characteristic_factor=2, xp_power_factor=3, xp_eclat_cost=2)
    assert ew.characteristic_xp_cost(6, house) == 14
    assert ew.power_xp_cost(1, house) == 6
    assert ew.eclat_xp_cost(0, 3, 2, house) == 4


def test_xp_must_be_affordable():
    assert ew.check_xp_affordable(5, 5) == 0
    with pytest.raises(errors.NotEnoughXp):
        ew.check_xp_affordable(4, 5)


def test_raising_phy_raises_both_pools_by_the_same_amount():
    after = ew.pools_after_phy_change(EwPools(18, 10, 12), 6, 7)
    assert after == EwPools(21, 13, 15)
    assert ew.pools_after_phy_change(after, 7, 6) == EwPools(18, 10, 12)
    with pytest.raises(errors.InvalidImprovement):
        ew.pools_after_phy_change(EwPools(18, 10, 12), 5, 6)
    with pytest.raises(errors.InvalidImprovement):
        ew.pools_after_phy_change(EwPools(21, 2, 21), 7, 6)


# --- odds ----------------------------------------------------------------------------------


def test_superficial_damage_distribution():
    dist = ew.superficial_damage_distribution(2)
    assert dist == {0: F(2, 10), **{k: F(1, 10) for k in range(1, 9)}}


def test_lethal_damage_distribution_is_certain():
    assert ew.lethal_damage_distribution(4, 1) == {3: 1}
    assert ew.lethal_damage_distribution(1, 4) == {0: 1}


def test_attack_odds():
    result = ew.attack_odds(na=8, nd=8, impact=3, target_natural_defence=1, target_protection=1)
    assert result.hit == F(1, 2)
    assert sum(result.superficial.values()) == sum(result.lethal.values()) == 1
    assert result.lethal == {0: F(1, 2), 2: F(1, 2)}
    assert result.expected_lethal == 1
    assert result.expected_superficial == F(1, 2) * F(45, 10)  # mean of max(0, d10 - 1)
    wounded_defender = ew.attack_odds(
        na=3, nd=-5, impact=0, target_natural_defence=0, target_protection=0
    )
    assert wounded_defender.hit == F(18, 20)
