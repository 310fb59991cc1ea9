"""``aethoria.resolve_attack``: an attack's whole sequence of rolls, with scripted faces."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.rules import aethoria as ae

HOUSE = ae.AethoriaHouseRules()
SWORD = ae.AethoriaWeapon.from_notation("2+3d", name="épée", parry=6)
ARMOUR = (ae.ArmourPiece("cuirasse", 2, ("torso",)),)
POOLS = ae.AethoriaPools.full(ae.derive(4, 3, 5, 5, HOUSE))


def scripted(**faces):
    """A source of faces by roll, recording what the attack asked for, in order."""
    asked = []

    def dice(request: ae.DiceAsked) -> tuple[int, ...]:
        asked.append((request.role, request.blow, request.count))
        given = tuple(faces.get(request.role, ()))[: request.count]
        assert len(given) == request.count, request
        return given

    return dice, asked


def melee(parry=None, **faces):
    dice, asked = scripted(**faces)
    blow = ae.Blow(attack=ae.attack_roll(5, 6, house=HOUSE), weapon=SWORD, defence=parry)
    result = ae.resolve_attack(
        blows=[blow],
        attacker_pools=POOLS,
        attacker_force=5,
        target=ae.AttackTarget(POOLS, 3, ARMOUR),
        dice=dice,
        house=HOUSE,
    )
    return result, asked


def test_a_parried_blow_still_lands_and_costs_pv_after_the_armour():
    parry = ae.parry_roll(2, 6, attacker_force=5, defender_force=4)
    result, asked = melee(
        parry,
        attack=[1, 3, 4, 9, 2],
        location=[7],
        defence=[5, 8],
        damage=[7, 10, 2, 6],
    )
    (blow,) = result.blows
    assert (blow.attack.successes, blow.defence.successes) == (5, 1)
    assert (blow.outcome.location, blow.outcome.net, blow.outcome.bonus_dice) == ("torso", 4, 1)
    assert blow.damage.damage == 1 and blow.damage.rd == 2
    assert (blow.pv_before, blow.pv_after, result.target_pools.pv) == (
        POOLS.pv,
        POOLS.pv - 1,
        POOLS.pv - 1,
    )
    assert not result.dead and not result.out
    # The rolls in the order of the rules: attack, location, defence, then damage.
    assert [role for role, _, count in asked if count] == [
        "attack",
        "location",
        "defence",
        "damage",
    ]


def test_a_miss_rolls_no_damage():
    result, asked = melee(attack=[10, 10, 10, 10, 10], location=[7])
    (blow,) = result.blows
    assert not blow.outcome.lands and blow.damage is None
    assert result.target_pools == POOLS
    assert "damage" not in [role for role, _, _ in asked]


def test_a_shot_into_cover_hits_the_obstacle():
    dice, _ = scripted(attack=[2, 2, 1], location=[18])
    spec = ae.attack_roll(5, 6, action="ranged_attack", range_band="long", house=HOUSE)
    result = ae.resolve_attack(
        blows=[ae.Blow(attack=spec, weapon=SWORD)],
        attacker_pools=POOLS,
        attacker_force=5,
        target=ae.AttackTarget(POOLS, 3),
        dice=dice,
        ranged=True,
        covered=("right_leg", "left_leg"),
        house=HOUSE,
    )
    assert result.blows[0].outcome.hits_obstacle and result.blows[0].damage is None


@pytest.mark.parametrize(
    ("prefer", "keep", "faces", "location"),
    [("head", 0, [7, 1], "head"), ("", 1, [7, 1], "head"), ("", 0, [7, 1], "torso")],
)
def test_cibler_keeps_the_wanted_die(prefer, keep, faces, location):
    dice, _ = scripted(attack=[1] * 10, location=faces, damage=[10] * 10)
    result = ae.resolve_attack(
        blows=[ae.Blow(attack=ae.attack_roll(5, 6, action="cibler", house=HOUSE), weapon=SWORD)],
        attacker_pools=POOLS,
        attacker_force=5,
        target=ae.AttackTarget(POOLS, 3),
        dice=dice,
        cibler=True,
        prefer_location=prefer,
        keep=keep,
        house=HOUSE,
    )
    assert result.blows[0].outcome.location == location


@settings(max_examples=60, deadline=None)
@given(
    attack=st.lists(st.integers(1, 10), min_size=5, max_size=5),
    location=st.integers(1, 20),
    damage=st.lists(st.integers(1, 10), min_size=8, max_size=8),
)
def test_the_pv_lost_are_the_damage_dealt_and_never_more(attack, location, damage):
    result, _ = melee(attack=attack, location=[location], damage=damage)
    (blow,) = result.blows
    dealt = blow.damage.damage if blow.damage else 0
    assert result.target_pools.pv == POOLS.pv - dealt
    assert dealt <= (blow.damage.total if blow.damage else 0)
    assert result.attacker_pools == POOLS  # no fatigue dice: nothing spent
