"""Invariants checked with Hypothesis: exact odds equal brute force, undo restores, orders hold."""

from collections import Counter
from fractions import Fraction as F
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.rules import aethoria as ae
from apps.rules import ew, odds

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
