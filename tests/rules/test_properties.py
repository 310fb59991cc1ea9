"""Invariants checked with Hypothesis: exact odds equal brute force, undo restores, orders hold."""

from collections import Counter
from fractions import Fraction as F
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.rules import aethoria as ae
from apps.rules import ew, odds
from apps.rules.errors import RulesError

# No example database: the rules tests must not write files into the checkout.
PROPERTY = settings(database=None, deadline=None, max_examples=60)

D10_FACES = range(1, 11)
thresholds = st.integers(min_value=-2, max_value=12)
small_pools = st.integers(min_value=0, max_value=3)


def brute_force_successes(dice: int, threshold: int, fixed: int = 0, rd: int = 0) -> dict:
    outcomes = Counter(
        max(0, fixed + ae.count_successes(faces, threshold) - rd)
        for faces in product(D10_FACES, repeat=dice)
    )
    total = 10**dice
    return {k: F(n, total) for k, n in outcomes.items()}


# --- Aethoria odds -------------------------------------------------------------------------


@PROPERTY
@given(dice=st.integers(min_value=0, max_value=30), threshold=thresholds)
def test_success_distribution_sums_to_one(dice, threshold):
    dist = ae.success_distribution(dice, threshold)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert min(dist) >= 0 and max(dist) <= 2 * dice


@PROPERTY
@given(dice=small_pools, threshold=thresholds)
def test_success_distribution_equals_brute_force(dice, threshold):
    assert ae.success_distribution(dice, threshold) == brute_force_successes(dice, threshold)


@PROPERTY
@given(
    attack=small_pools,
    attack_threshold=thresholds,
    defence=st.integers(min_value=0, max_value=2),
    defence_threshold=thresholds,
)
def test_landing_probability_equals_brute_force(
    attack, attack_threshold, defence, defence_threshold
):
    a = brute_force_successes(attack, attack_threshold)
    d = brute_force_successes(defence, defence_threshold)
    expected = sum((pa * pd for x, pa in a.items() for y, pd in d.items() if x - y >= 1), F(0))
    assert ae.landing_probability(attack, attack_threshold, defence, defence_threshold) == expected
    net = ae.net_success_distribution(attack, attack_threshold, defence, defence_threshold)
    assert sum(net.values()) == 1


@PROPERTY
@given(
    dice=small_pools,
    fixed=st.integers(min_value=0, max_value=5),
    force=st.integers(min_value=-1, max_value=12),
    rd=st.integers(min_value=0, max_value=8),
)
def test_damage_distribution_equals_brute_force_and_is_never_negative(dice, fixed, force, rd):
    dist = ae.damage_distribution(dice, fixed, force, rd)
    assert dist == brute_force_successes(dice, force, fixed, rd)
    assert min(dist) >= 0
    assert ae.expected_damage(dice, fixed, force, rd) == odds.mean(dist)


@PROPERTY
@given(
    attack=st.integers(min_value=0, max_value=4),
    attack_threshold=thresholds,
    defence=st.integers(min_value=0, max_value=3),
    weapon=st.integers(min_value=0, max_value=3),
    fixed=st.integers(min_value=0, max_value=4),
    force=st.integers(min_value=1, max_value=10),
    rd=st.integers(min_value=0, max_value=6),
    convert=st.booleans(),
)
def test_attack_odds_equal_mixture_over_net_successes(
    attack, attack_threshold, defence, weapon, fixed, force, rd, convert
):
    result = ae.attack_odds(
        attack_dice=attack,
        attack_threshold=attack_threshold,
        defence_dice=defence,
        defence_threshold=6,
        weapon_dice=weapon,
        fixed=fixed,
        force=force,
        rd=rd,
        convert_extra_successes=convert,
    )
    # Reference: each net total, then the damage of the dice it buys (or 0 for a miss).
    parts = []
    for net, p in ae.net_success_distribution(attack, attack_threshold, defence, 6).items():
        if net < 1:
            parts.append((p, {0: F(1)}))
        else:
            bonus = ae.max_bonus_dice(net) if convert else 0
            parts.append((p, ae.damage_distribution(weapon, fixed, force, rd, bonus)))
    assert result.damage == odds.mixture(parts)
    assert sum(result.damage.values()) == 1
    assert min(result.damage) >= 0
    assert result.expected_damage == odds.mean(result.damage)
    assert result.lands == ae.landing_probability(attack, attack_threshold, defence, 6)


@PROPERTY
@given(dice=small_pools, threshold=thresholds)
def test_burn_probability_equals_brute_force(dice, threshold):
    burns = sum(1 for faces in product(D10_FACES, repeat=dice) if ae.is_erys_burn(faces, threshold))
    assert ae.burn_probability(dice, threshold) == F(burns, 10**dice)


@PROPERTY
@given(
    dice=st.integers(min_value=0, max_value=12),
    threshold=thresholds,
    difficulty=st.integers(min_value=0, max_value=25),
)
def test_success_probability_matches_distribution(dice, threshold, difficulty):
    dist = ae.success_distribution(dice, threshold)
    expected = odds.at_least(dist, difficulty)
    assert ae.success_probability(dice, threshold, difficulty) == expected


# --- EW odds and rules ---------------------------------------------------------------------


@PROPERTY
@given(na=st.integers(min_value=-60, max_value=60), nd=st.integers(min_value=-60, max_value=60))
def test_default_grid_equals_the_formula_everywhere(na, nd):
    assert ew.ResolutionTable.default().score(na, nd) == ew.default_table_score(na, nd)


@PROPERTY
@given(
    na=st.integers(min_value=0, max_value=25),
    nd=st.integers(min_value=0, max_value=25),
    modifiers=st.lists(st.integers(min_value=-8, max_value=4), max_size=3),
)
def test_ew_success_probability_counts_the_faces(na, nd, modifiers):
    wins = sum(ew.resolve_test(na, nd, roll, modifiers).success for roll in range(1, 21))
    assert ew.success_probability(na, nd, modifiers) == F(wins, 20)


@PROPERTY
@given(face=st.integers(min_value=1, max_value=10), natural=st.integers(min_value=0, max_value=5))
def test_ew_damage_is_never_negative(face, natural):
    assert ew.superficial_damage(face, natural) >= 0
    dist = ew.superficial_damage_distribution(natural)
    assert sum(dist.values()) == 1 and min(dist) >= 0


@PROPERTY
@given(
    impact=st.integers(min_value=0, max_value=15), protection=st.integers(min_value=0, max_value=15)
)
def test_ew_lethal_damage_is_never_negative(impact, protection):
    assert ew.lethal_damage(impact, protection) >= 0


@st.composite
def ew_pools(draw):
    pv = 3 * draw(st.integers(min_value=3, max_value=10))
    return ew.EwPools(
        pv,
        draw(st.integers(min_value=0, max_value=pv)),
        draw(st.integers(min_value=0, max_value=pv)),
    )


@PROPERTY
@given(
    pools=ew_pools(),
    blows=st.lists(
        st.tuples(st.integers(min_value=0, max_value=40), st.integers(min_value=0, max_value=40)),
        max_size=5,
    ),
)
def test_ew_applying_then_reverting_damage_restores_the_pools(pools, blows):
    state = pools
    history = []
    for superficial, lethal in blows:
        applied = ew.apply_damage(state, superficial, lethal)
        assert applied.after.superficial >= 0 and applied.after.lethal >= 0
        assert applied.from_superficial + applied.from_lethal + applied.lost == superficial + lethal
        history.append(applied)
        state = applied.after
    for applied in reversed(history):  # undo, last event first
        state = ew.revert_damage(state, applied)
    assert state == pools


@PROPERTY
@given(pools=ew_pools())
def test_ew_wound_malus_is_the_worse_pool(pools):
    malus = pools.wound_malus
    assert malus in (0, -2, -4)
    worst = min(pools.superficial, pools.lethal)
    assert malus == ew.wound_malus(pools.pv, worst, worst)


@st.composite
def ew_initiative(draw):
    size = draw(st.integers(min_value=0, max_value=8))
    return [
        ew.EwInitiativeRoll(
            key=index,
            com=draw(st.integers(min_value=1, max_value=10)),
            roll=draw(st.integers(min_value=1, max_value=10)),
            draw=draw(st.integers(min_value=0, max_value=3)),
        )
        for index in range(size)
    ]


@PROPERTY
@given(rolls=ew_initiative(), ties_by_com=st.booleans())
def test_ew_initiative_order_is_a_sorted_permutation(rolls, ties_by_com):
    order = ew.initiative_order(rolls, ew.EwHouseRules(initiative_ties_by_com=ties_by_com))
    assert sorted(r.key for r in order) == sorted(r.key for r in rolls)
    ranks = [(r.total, r.com if ties_by_com else 0, r.draw) for r in order]
    assert ranks == sorted(ranks, reverse=True)


@st.composite
def aethoria_initiative(draw):
    size = draw(st.integers(min_value=0, max_value=8))
    return [
        ae.AethoriaInitiativeRoll(
            key=f"c{index}",
            adresse=draw(st.integers(min_value=1, max_value=9)),
            roll=draw(st.integers(min_value=1, max_value=20)),
            draw=draw(st.integers(min_value=0, max_value=1000)),
        )
        for index in range(size)
    ]


@PROPERTY
@given(rolls=aethoria_initiative())
def test_aethoria_initiative_order_is_a_sorted_permutation(rolls):
    order = ae.initiative_order(rolls)
    assert sorted(r.key for r in order) == sorted(r.key for r in rolls)
    assert [r.roll for r in order] == sorted((r.roll for r in rolls), reverse=True)
    # Stored draws make the order independent of the order combatants were listed in,
    # unless two entries tie on everything.
    full_keys = [(r.roll, r.adresse, r.draw) for r in rolls]
    if len(set(full_keys)) == len(full_keys):
        assert ae.initiative_order(list(reversed(rolls))) == order


# --- Aethoria pools ------------------------------------------------------------------------


@PROPERTY
@given(
    physical=st.integers(min_value=0, max_value=9),
    mental=st.integers(min_value=0, max_value=9),
    damage=st.integers(min_value=0, max_value=40),
    faces=st.lists(st.integers(min_value=1, max_value=10), min_size=1, max_size=6),
    invested=st.integers(min_value=1, max_value=9),
)
def test_aethoria_spell_and_damage_undo_restore_the_pools(
    physical, mental, damage, faces, invested
):
    start = ae.AethoriaPools(20, 20, 9, physical, 9, mental)
    hurt, hurt_delta = ae.take_damage(start, damage)
    roll = ae.roll_pool(ae.spell_roll(len(faces), 9, invested), faces)
    spell = ae.cast_spell(roll, hurt, invested=invested)
    assert spell.pools.physical >= 0 and spell.pools.mental >= 0
    lost = spell.physical_paid + spell.mental_paid + spell.pv_from_fatigue
    assert lost == 2 * spell.fatigue_cost
    assert ae.revert_delta(ae.revert_delta(spell.pools, spell.delta), hurt_delta) == start


# --- house rules ---------------------------------------------------------------------------


@PROPERTY
@given(
    rounding=st.sampled_from(ew.ROUNDINGS),
    points=st.integers(min_value=0, max_value=500),
    malus=st.integers(min_value=-20, max_value=0),
    ties=st.booleans(),
)
def test_ew_house_rules_round_trip(rounding, points, malus, ties):
    house = ew.EwHouseRules(
        rounding=rounding,
        generation_points=points,
        extra_action_malus=malus,
        initiative_ties_by_com=ties,
    )
    assert ew.EwHouseRules.from_dict(house.to_dict()) == house


@PROPERTY
@given(
    cuts=st.lists(st.integers(min_value=1, max_value=19), unique=True, max_size=6).map(sorted),
    reroll=st.booleans(),
)
def test_aethoria_hit_location_tables_cover_every_face(cuts, reroll):
    bounds = [0, *cuts, 20]
    table = tuple((bounds[i] + 1, bounds[i + 1], f"zone{i}") for i in range(len(bounds) - 1))
    house = ae.AethoriaHouseRules(
        hit_locations=table,
        instant_death_locations=("zone0",),
        initiative_reroll_each_round=reroll,
    )
    assert ae.AethoriaHouseRules.from_dict(house.to_dict()) == house
    assert {ae.hit_location(face, house) for face in range(1, 21)} == set(house.locations)


# --- issue 19: a 1 always succeeds (house rule), opposed maluses, wrong types ---------------


def brute_force_with_option(dice: int, threshold: int, ones: bool, fixed: int = 0, rd: int = 0):
    outcomes = Counter(
        max(0, fixed + ae.count_successes(faces, threshold, ones_always_succeed=ones) - rd)
        for faces in product(D10_FACES, repeat=dice)
    )
    return {k: F(n, 10**dice) for k, n in outcomes.items()}


@PROPERTY
@given(dice=st.integers(min_value=0, max_value=30), threshold=thresholds, ones=st.booleans())
def test_success_distribution_sums_to_one_with_either_rule_on_ones(dice, threshold, ones):
    dist = ae.success_distribution(dice, threshold, ones_always_succeed=ones)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())


@PROPERTY
@given(dice=small_pools, threshold=thresholds, ones=st.booleans())
def test_success_distribution_equals_brute_force_with_either_rule_on_ones(dice, threshold, ones):
    expected = brute_force_with_option(dice, threshold, ones)
    assert ae.success_distribution(dice, threshold, ones_always_succeed=ones) == expected


@PROPERTY
@given(
    attack=small_pools,
    attack_threshold=thresholds,
    defence=st.integers(min_value=0, max_value=2),
    defence_threshold=thresholds,
    ones=st.booleans(),
)
def test_landing_probability_equals_brute_force_with_either_rule_on_ones(
    attack, attack_threshold, defence, defence_threshold, ones
):
    a = brute_force_with_option(attack, attack_threshold, ones)
    d = brute_force_with_option(defence, defence_threshold, ones)
    expected = sum((pa * pd for x, pa in a.items() for y, pd in d.items() if x - y >= 1), F(0))
    got = ae.landing_probability(
        attack, attack_threshold, defence, defence_threshold, ones_always_succeed=ones
    )
    assert got == expected
    net = ae.net_success_distribution(
        attack, attack_threshold, defence, defence_threshold, ones_always_succeed=ones
    )
    assert sum(net.values()) == 1


@PROPERTY
@given(
    dice=small_pools,
    fixed=st.integers(min_value=0, max_value=5),
    force=st.integers(min_value=-1, max_value=4),
    rd=st.integers(min_value=0, max_value=8),
    ones=st.booleans(),
)
def test_damage_distribution_of_a_weak_second_weapon_equals_brute_force(
    dice, fixed, force, rd, ones
):
    dist = ae.damage_distribution(dice, fixed, force, rd, ones_always_succeed=ones)
    assert dist == brute_force_with_option(dice, force, ones, fixed, rd)
    assert sum(dist.values()) == 1


@PROPERTY
@given(
    attack=st.integers(min_value=0, max_value=3),
    attack_threshold=thresholds,
    defence=st.integers(min_value=0, max_value=2),
    defence_threshold=st.integers(min_value=-1, max_value=10),
    weapon=st.integers(min_value=0, max_value=2),
    fixed=st.integers(min_value=0, max_value=3),
    force=st.integers(min_value=-1, max_value=4),
    rd=st.integers(min_value=0, max_value=4),
    ones=st.booleans(),
)
def test_attack_odds_equal_brute_force_with_either_rule_on_ones(
    attack, attack_threshold, defence, defence_threshold, weapon, fixed, force, rd, ones
):
    result = ae.attack_odds(
        attack_dice=attack,
        attack_threshold=attack_threshold,
        defence_dice=defence,
        defence_threshold=defence_threshold,
        weapon_dice=weapon,
        fixed=fixed,
        force=force,
        rd=rd,
        ones_always_succeed=ones,
    )
    a = brute_force_with_option(attack, attack_threshold, ones)
    d = brute_force_with_option(defence, defence_threshold, ones)
    parts = []
    for x, pa in a.items():
        for y, pd in d.items():
            net = x - y
            if net < 1:
                parts.append((pa * pd, {0: F(1)}))
                continue
            dice = weapon + ae.max_bonus_dice(net)
            parts.append((pa * pd, brute_force_with_option(dice, force, ones, fixed, rd)))
    assert result.damage == odds.mixture(parts)
    assert sum(result.damage.values()) == 1


@PROPERTY
@given(
    na=st.integers(min_value=0, max_value=25),
    nd=st.integers(min_value=-30, max_value=25),
    modifiers=st.lists(st.integers(min_value=-8, max_value=4), max_size=3),
)
def test_ew_success_probability_counts_the_faces_below_zero_difficulty_too(na, nd, modifiers):
    wins = sum(ew.resolve_test(na, nd, roll, modifiers).success for roll in range(1, 21))
    chance = ew.success_probability(na, nd, modifiers)
    assert chance == F(wins, 20)
    assert F(1, 20) <= chance <= F(19, 20)  # the default grid's clamp


@PROPERTY
@given(ones=st.booleans(), best=st.booleans())
def test_aethoria_new_house_rules_round_trip(ones, best):
    house = ae.AethoriaHouseRules(ones_always_succeed=ones, parry_best_of_weapon_skill=best)
    assert ae.AethoriaHouseRules.from_dict(house.to_dict()) == house


junk = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.lists(st.none(), max_size=2),
    st.lists(st.text(max_size=1), min_size=1, max_size=2),
)

CALLS = {
    "ew.resolve_test": lambda x: ew.resolve_test(5, 5, 10, x),
    "ew.resolve_test na": lambda x: ew.resolve_test(x, 5, 10),
    "ew.resolve_test nd": lambda x: ew.resolve_test(5, x, 10),
    "ew.resolve_test roll": lambda x: ew.resolve_test(5, 5, x),
    "ew.success_probability": lambda x: ew.success_probability(5, 5, x),
    "ew.success_probability nd": lambda x: ew.success_probability(5, x),
    "ae.pool_size": lambda x: ae.pool_size(3, x),
    "ae.pool_size rank": lambda x: ae.pool_size(x),
    "ae.count_successes": lambda x: ae.count_successes(x, 5),
    "ae.count_successes threshold": lambda x: ae.count_successes([1, 2], x),
    "ae.count_successes ones": lambda x: ae.count_successes([1], 5, ones_always_succeed=x),
    "ae.success_distribution": lambda x: ae.success_distribution(2, x),
    "ae.success_distribution ones": lambda x: ae.success_distribution(2, 5, ones_always_succeed=x),
    "ae.attack_roll": lambda x: ae.attack_roll(3, 5, x),
    "ae.parry_rank": lambda x: ae.parry_rank(x, 3),
    "ae.parry_rank weapon": lambda x: ae.parry_rank(
        3, x, ae.AethoriaHouseRules(parry_best_of_weapon_skill=True)
    ),
}


@PROPERTY
@given(call=st.sampled_from(sorted(CALLS)), value=junk)
def test_wrong_types_raise_the_engines_own_error(call, value):
    if value is None and call in ("ae.parry_rank weapon",):
        return  # None is a meaningful value there (a shield has no skill)
    try:
        CALLS[call](value)
    except RulesError as error:
        assert error.message
    # A value of the wrong type may happen to be accepted (an empty list of modifiers): what
    # never happens is a bare TypeError escaping the engine.
