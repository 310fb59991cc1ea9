"""Whole table actions, step by step, with scripted dice; results stored as JSON and rebuilt."""

import json
from dataclasses import asdict

import pytest

from apps.rules import aethoria as ae
from apps.rules import errors, ew
from apps.rules.dice import ScriptedDice


def as_json(record: object) -> dict:
    return json.loads(json.dumps(asdict(record)))


# --- EW-System -----------------------------------------------------------------------------


def test_ew_round_of_combat():
    house = ew.EwHouseRules()
    dice = ScriptedDice(d10=[4, 9, 8], d20=[11, 15])
    hero = ew.derive(phy=8, men=6, per=7, pre=7, rounding=house.rounding)  # com 7, nat 2
    brute = ew.derive(phy=9, men=4, per=6, pre=9, rounding=house.rounding)  # com 7, nat 2
    a, b = dice.d10(2)
    order = ew.initiative_order(
        [
            ew.EwInitiativeRoll("hero", hero.com, a, 5),
            ew.EwInitiativeRoll("brute", brute.com, b, 2),
        ],
        house,
    )
    assert [r.key for r in order] == ["brute", "hero"]

    # The brute attacks; the hero parries actively (its defence for the round).
    hero_round, defence_modifier = ew.RoundActions().defend(house)
    _, attack_modifier = ew.RoundActions().attack(house)
    result = ew.resolve_attack(
        attacker_com=brute.com,
        attacker_phy=9,
        weapon=ew.EwWeapon("melee", damage_bonus=2),
        weapon_specialty=2,
        target_phy=8,
        target_protection=1,
        to_hit_roll=dice.d20(1)[0],
        damage_roll=dice.d10(1)[0],
        active_defence=ew.EwActiveDefence(hero.com, 1, (defence_modifier,)),
        modifiers=(attack_modifier,),
        house=house,
    )
    assert (result.to_hit.na, result.to_hit.nd, result.to_hit.score) == (9, 8, 11)
    assert result.to_hit.success
    assert result.damage == ew.EwDamage(face=8, superficial=6, impact=4, protection=1, lethal=3)

    pools = ew.EwPools.full(hero.pv)
    applied = ew.apply_damage(pools, result.damage.superficial, result.damage.lethal)
    assert (applied.after.superficial, applied.after.lethal) == (18, 21)
    assert applied.after.wound_malus == 0

    # A second defence this round costs -4 on everything the hero does until the round ends.
    hero_round, second_defence = hero_round.defend(house)
    assert second_defence == -4
    assert (
        ew.resolve_test(hero.com + 1, 8, dice.d20(1)[0], (hero_round.malus(house),)).success
        is False
    )

    # The log stores plain JSON and undo rebuilds the record.
    stored = as_json(applied)
    assert ew.revert_damage(applied.after, ew.EwDamageApplied.from_dict(stored)) == pools
    assert as_json(result)["to_hit"]["score"] == 11


def test_ew_eclat_saves_a_failed_test_and_undo_gives_it_back():
    failed = ew.resolve_test(8, 10, 17)
    rescued, spend = ew.rescue_with_eclat(failed, 3)
    assert rescued.success
    assert ew.revert_eclat_spend(spend.after, ew.EclatSpend(**as_json(spend))) == 3


# --- Aethoria ------------------------------------------------------------------------------

HOUSE = ae.AethoriaHouseRules()
SWORD = ae.AethoriaWeapon.from_notation("2+3d", name="épée", parry=6)
DAGGER = ae.AethoriaWeapon.from_notation("1+2d", name="dague", parry=4)
ARMOUR = [ae.ArmourPiece("cuirasse", 2, ("torso",))]


def test_aethoria_melee_attack_parried_then_damage_applied():
    dice = ScriptedDice(d10=[1, 3, 4, 9, 2, 5, 8, 7, 10, 2, 6, 3], d20=[7])
    attack = ae.roll_with(dice, ae.attack_roll(5, 6, house=HOUSE))  # faces 1 3 4 9 2
    assert attack.successes == 5  # 2 + 1 + 1 + 0 + 1
    location = ae.hit_location(dice.d20(1)[0], HOUSE)
    assert location == "torso"

    defender = ae.TurnState()
    parry = ae.roll_with(dice, ae.parry_roll(2, 6, attacker_force=5, defender_force=4))
    defender = defender.use_defences()
    assert parry.successes == 1  # 5 succeeds, 8 fails

    outcome = ae.attack_outcome(attack.successes, parry.successes, location_face=7, house=HOUSE)
    assert (outcome.net, outcome.lands, outcome.bonus_dice) == (4, True, 1)

    damage_roll = ae.roll_with(dice, ae.damage_roll(SWORD, force=5, bonus_dice=outcome.bonus_dice))
    assert damage_roll.faces == (7, 10, 2, 6)
    assert damage_roll.successes == 2 + 1  # fixed 2, only the 2 succeeds
    rd = ae.location_rd(ARMOUR, outcome.location, HOUSE)
    damage = ae.resolve_damage(
        damage_roll, rd=rd, target_vitalite=3, location=outcome.location, house=HOUSE
    )
    assert (damage.damage, damage.severe_effect) == (1, "none")

    pools = ae.AethoriaPools.full(ae.derive(4, 3, 5, 5, HOUSE))
    hurt, delta = ae.take_damage(pools, damage.damage)
    assert hurt.pv == 13
    assert ae.revert_delta(hurt, ae.PoolDelta(**as_json(delta))) == pools
    assert dice.remaining == (1, 0)
    assert as_json(damage_roll)["spec"]["fixed"] == 2


def test_aethoria_ranged_attack_into_cover_hits_the_obstacle():
    dice = ScriptedDice(d10=[2, 2, 1], d20=[18])
    spec = ae.attack_roll(5, 6, action="ranged_attack", range_band="long", house=HOUSE)
    assert spec.dice == 3
    attack = ae.roll_with(dice, spec)
    outcome = ae.attack_outcome(
        attack.successes,
        location_face=dice.d20(1)[0],
        ranged=True,
        covered=("right_leg", "left_leg"),
        house=HOUSE,
    )
    assert outcome.lands and outcome.hits_obstacle


def test_aethoria_viser_then_cibler():
    archer = ae.TurnState()
    archer, _ = archer.act("viser", target="orc")
    archer = archer.start_turn()
    archer, aim = archer.act("cibler", target="orc")
    spec = ae.attack_roll(5, 6, action="cibler", aim_bonus=aim, house=HOUSE)
    assert spec.dice == 5 - 4 + 3
    assert ae.cibler_location([19, 2], chosen=1) == 2


def test_aethoria_attaque_double_against_parry_and_dodge():
    ae.check_double_attack([SWORD, DAGGER])
    first = ae.attack_roll(6, 7, action="attaque_double", house=HOUSE)
    second = ae.attack_roll(6, 7, action="attaque_double", house=HOUSE)
    assert first.dice == second.dice == 3
    target, _ = ae.TurnState().act("defense")  # it took the Défense action: two defences
    plan = ae.plan_double_defence(
        "parry", "dodge", defences_left=target.defences, held=[SWORD], split=(1, 2)
    )
    target = target.use_defences(plan.defences_used)
    parry = ae.parry_roll(4, 6, attacker_force=5, defender_force=5, modifiers=[plan.first_malus])
    dodge = ae.dodge_roll(4, modifiers=[plan.second_malus], house=HOUSE)
    assert (parry.dice, dodge.dice, target.defences) == (3, 2, 0)
    assert ae.damage_roll(DAGGER, force=5, second_weapon=True).threshold == 3


def test_aethoria_spell_with_fatigue_dice_after_the_roll():
    dice = ScriptedDice(d10=[2, 3, 1])
    pools = ae.AethoriaPools(pv_max=16, pv=16, physical_max=8, physical=8, mental_max=8, mental=3)
    spec = ae.spell_roll(2, 6, 3)
    roll = ae.roll_with(dice, spec)
    assert ae.is_erys_burn(roll.all_faces, spec.threshold)  # both dice succeed so far
    pools, spend = ae.spend_fatigue(pools, spec.fatigue, 1)
    roll = ae.add_fatigue_dice(roll, dice.d10(1))
    with pytest.raises(errors.InvalidFatigueSpend):
        ae.add_fatigue_dice(roll, [4])
    result = ae.cast_spell(roll, pools, invested=3, difficulty=2, house=HOUSE)
    assert result.verdict.successes == 1 + 1 + 2
    assert result.burn and result.burn_pv == 3
    assert (result.pools.pv, result.pools.physical, result.pools.mental) == (13, 7, 1)
    stored = as_json(result)
    assert stored["delta"] == {"pv": -3, "physical": -1, "mental": -1}
    back = ae.revert_delta(ae.revert_delta(result.pools, result.delta), spend)
    assert (back.pv, back.physical, back.mental) == (16, 8, 3)


def test_turn_state_round_trips_through_json():
    state, _ = ae.TurnState().act("preparer", description="frapper", trigger="s'il bouge")
    assert ae.TurnState.from_dict(as_json(state)) == state
    assert ae.TurnState.from_dict(as_json(ae.TurnState())) == ae.TurnState()
