"""Aethoria combat: initiative, turns, attacks, locations, armour, damage, special actions."""

import pytest

from apps.rules import aethoria as ae
from apps.rules import errors
from apps.rules.aethoria import (
    AethoriaHouseRules,
    AethoriaInitiativeRoll,
    AethoriaPools,
    AethoriaWeapon,
    ArmourPiece,
    TurnState,
)

SWORD = AethoriaWeapon("épée", dice=3, fixed=2, parry=6)
DAGGER = AethoriaWeapon("dague", dice=1, fixed=2, parry=4)
SHIELD = AethoriaWeapon("bouclier", parry=7, shield=True)
GREATAXE = AethoriaWeapon("hache", dice=5, fixed=3, parry=5, hands=2)
BOW = AethoriaWeapon("arc", dice=3, fixed=1, hands=2, ranged=True)

# --- initiative ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rolls", "ties_by_adresse", "expected"),
    [
        # key, adresse, d20, draw
        ([("a", 5, 12, 0), ("b", 7, 18, 0), ("c", 3, 2, 0)], True, ["b", "a", "c"]),
        ([("a", 5, 12, 0), ("b", 7, 12, 0)], True, ["b", "a"]),  # tie: higher Adresse
        ([("a", 5, 12, 9), ("b", 7, 12, 1)], False, ["a", "b"]),  # house rule off: draw
        ([("a", 5, 12, 1), ("b", 5, 12, 4)], True, ["b", "a"]),  # same Adresse: draw
    ],
)
def test_initiative_order(rolls, ties_by_adresse, expected):
    entries = [AethoriaInitiativeRoll(k, adr, roll, draw) for k, adr, roll, draw in rolls]
    house = AethoriaHouseRules(initiative_ties_by_adresse=ties_by_adresse)
    assert [r.key for r in ae.initiative_order(entries, house)] == expected


@pytest.mark.parametrize("roll", [0, 21])
def test_initiative_refuses_impossible_d20(roll):
    with pytest.raises(errors.InvalidFace):
        AethoriaInitiativeRoll("a", 5, roll)


@pytest.mark.parametrize(
    ("round_number", "reroll", "needed"),
    [(1, False, True), (2, False, False), (1, True, True), (5, True, True)],
)
def test_initiative_once_per_encounter_unless_reroll(round_number, reroll, needed):
    house = AethoriaHouseRules(initiative_reroll_each_round=reroll)
    assert ae.initiative_roll_needed(round_number, house) is needed


# --- turns, defences and special actions ---------------------------------------------------


def test_one_defence_per_turn_recovered_on_own_turn():
    state = TurnState()
    state = state.use_defences()
    assert state.defences == 0
    with pytest.raises(errors.InvalidDefence):
        state.use_defences()
    assert state.start_turn().defences == 1


def test_defense_action_gives_one_extra_defence_until_next_turn():
    state, _ = TurnState().act("defense")
    assert state.defences == 2
    state = state.use_defences(2)
    assert state.defences == 0
    assert state.start_turn().defences == 1
    unused, _ = TurnState().act("defense")
    assert unused.start_turn().defences == 1  # the extra one does not carry over


def test_one_action_per_turn():
    state, _ = TurnState().act("move")
    with pytest.raises(errors.InvalidAction):
        state.act("attack")
    state.start_turn().act("attack")


@pytest.mark.parametrize(
    ("next_action", "target", "bonus"),
    [
        ("attack", "orc", 3),
        ("ranged_attack", "orc", 3),
        ("cibler", "orc", 3),
        ("attack", "gobelin", 0),  # another target: no bonus
        ("move", None, 0),
    ],
)
def test_viser_gives_three_dice_next_turn_on_that_target(next_action, target, bonus):
    state, _ = TurnState().act("viser", target="orc")
    state = state.start_turn()
    assert state.aim_ready
    after, earned = state.act(next_action, target=target)
    assert earned == bonus
    assert after.aim_target is None  # whatever was done, the aim is used up


def test_viser_lost_when_doing_something_else_or_target_out_of_reach_or_waiting():
    aimed, _ = TurnState().act("viser", target="orc")
    moved, _ = aimed.start_turn().act("move")
    assert moved.start_turn().act("attack", target="orc")[1] == 0
    out_of_reach = aimed.start_turn().lose_aim()
    assert out_of_reach.act("attack", target="orc")[1] == 0
    waited = aimed.start_turn().start_turn()  # a turn passed without acting
    assert waited.act("attack", target="orc")[1] == 0
    same_turn = aimed.aim_bonus("orc")
    assert same_turn == 0  # the bonus is for next turn, not the turn spent watching


def test_viser_needs_a_target():
    with pytest.raises(errors.InvalidAction):
        TurnState().act("viser")


def test_preparer_stores_action_and_trigger_until_next_turn():
    state, _ = TurnState().act(
        "preparer", description="tirer sur la porte", trigger="quelqu'un entre"
    )
    assert state.prepared == ae.PreparedAction("tirer sur la porte", "quelqu'un entre")
    fired_state, action = state.fire_prepared()
    assert action.trigger == "quelqu'un entre"
    assert fired_state.prepared is None
    assert state.start_turn().prepared is None  # not triggered in time: it expires
    with pytest.raises(errors.InvalidAction):
        fired_state.fire_prepared()


@pytest.mark.parametrize(("description", "trigger"), [("", "x"), ("x", "  "), ("x", None)])
def test_preparer_needs_action_and_trigger(description, trigger):
    with pytest.raises(errors.InvalidAction):
        TurnState().act("preparer", description=description, trigger=trigger)


@pytest.mark.parametrize(
    ("magic_type", "allowed"), [("doue", True), ("marque", False), ("none", False)]
)
def test_only_a_doue_casts_as_a_combat_action(magic_type, allowed):
    if allowed:
        TurnState().act("cast", magic_type=magic_type)
    else:
        with pytest.raises(errors.InvalidSpell):
            TurnState().act("cast", magic_type=magic_type)


def test_unknown_action_is_refused():
    with pytest.raises(errors.InvalidAction):
        TurnState().act("dance")


# --- locations, armour ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "location"),
    [
        (1, "head"),
        (2, "head"),
        (3, "torso"),
        (10, "torso"),
        (11, "right_arm"),
        (13, "right_arm"),
        (14, "left_arm"),
        (16, "left_arm"),
        (17, "right_leg"),
        (18, "right_leg"),
        (19, "left_leg"),
        (20, "left_leg"),
    ],
)
def test_hit_location(face, location):
    assert ae.hit_location(face) == location


def test_hit_location_follows_the_campaign_table():
    house = AethoriaHouseRules(
        hit_locations=((1, 5, "head"), (6, 20, "torso")), instant_death_locations=("head",)
    )
    assert ae.hit_location(5, house) == "head"
    with pytest.raises(errors.InvalidFace):
        ae.hit_location(21)


def test_cibler_keeps_one_of_two_location_dice():
    assert ae.cibler_location([3, 19], 1) == 19
    assert ae.cibler_location([3, 19], 0) == 3
    with pytest.raises(errors.InvalidPool):
        ae.cibler_location([3], 0)
    with pytest.raises(errors.InvalidAction):
        ae.cibler_location([3, 19], 2)


ARMOUR = [
    ArmourPiece("casque", 2, ("head",)),
    ArmourPiece("cotte", 3, ("torso", "right_arm", "left_arm")),
    ArmourPiece("plastron", 4, ("torso",)),
]


@pytest.mark.parametrize(
    ("location", "stack", "rd"),
    [("head", False, 2), ("torso", False, 4), ("torso", True, 7), ("left_leg", False, 0)],
)
def test_location_rd(location, stack, rd):
    house = AethoriaHouseRules(armour_layers_stack=stack)
    assert ae.location_rd(ARMOUR, location, house) == rd


def test_location_rd_refuses_unknown_location():
    with pytest.raises(errors.InvalidLocation):
        ae.location_rd(ARMOUR, "tail")


# --- attacks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defence", "net", "lands", "bonus", "kept"),
    [
        (3, 2, 1, True, 0, 0),
        (2, 0, 2, True, 0, 1),
        (3, 3, 0, False, 0, 0),
        (1, 4, -3, False, 0, 0),
        (4, 1, 3, True, 1, 0),
        (5, 1, 4, True, 1, 1),
        (6, 1, 5, True, 2, 0),
        (9, 0, 9, True, 4, 0),
    ],
)
def test_attack_outcome(attack, defence, net, lands, bonus, kept):
    outcome = ae.attack_outcome(attack, defence, location_face=5)
    assert (outcome.net, outcome.lands, outcome.bonus_dice, outcome.kept_successes) == (
        net,
        lands,
        bonus,
        kept,
    )
    assert outcome.location == "torso"
    assert not outcome.hits_obstacle


def test_extra_successes_may_be_kept_for_a_special_capability():
    kept = ae.attack_outcome(6, 1, location_face=5, bonus_dice=0)
    assert (kept.bonus_dice, kept.kept_successes) == (0, 4)
    partly = ae.attack_outcome(6, 1, location_face=5, bonus_dice=1)
    assert (partly.bonus_dice, partly.kept_successes) == (1, 2)
    with pytest.raises(errors.InvalidAction):
        ae.attack_outcome(6, 1, location_face=5, bonus_dice=3)
    house = AethoriaHouseRules(convert_extra_successes=False)
    assert ae.attack_outcome(6, 1, location_face=5, house=house).bonus_dice == 0


def test_ranged_target_cannot_defend():
    with pytest.raises(errors.InvalidDefence):
        ae.attack_outcome(3, 1, location_face=5, ranged=True)
    assert ae.attack_outcome(3, location_face=5, ranged=True).lands


@pytest.mark.parametrize(
    ("attack", "face", "covered", "hits_obstacle"),
    [
        (3, 1, ["head"], True),
        (3, 15, ["right_leg", "left_leg"], False),  # left arm is exposed
        (3, 19, ["right_leg", "left_leg"], True),
        (0, 19, ["right_leg", "left_leg"], False),  # a miss hits nothing at all
    ],
)
def test_cover_turns_a_hit_into_a_hit_on_the_obstacle(attack, face, covered, hits_obstacle):
    outcome = ae.attack_outcome(attack, location_face=face, ranged=True, covered=covered)
    assert outcome.hits_obstacle is hits_obstacle


def test_cover_refuses_unknown_location():
    with pytest.raises(errors.InvalidLocation):
        ae.attack_outcome(3, location_face=5, covered=["wing"])


# --- damage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "vitalite", "location", "effect"),
    [
        (3, 4, "torso", "none"),
        (4, 4, "torso", "bleeding"),
        (7, 4, "right_arm", "bleeding"),
        (8, 4, "right_arm", "fracture"),
        (12, 4, "right_arm", "fracture"),  # no instant death on a limb
        (11, 4, "head", "fracture"),
        (12, 4, "head", "instant_death"),
        (12, 4, "torso", "instant_death"),
        (0, 1, "head", "none"),
    ],
)
def test_severe_effect(damage, vitalite, location, effect):
    assert ae.severe_effect(damage, vitalite, location) == effect


def test_resolve_damage_subtracts_location_rd():
    spec = ae.damage_roll(SWORD, force=5, bonus_dice=1)
    roll = ae.roll_pool(spec, [1, 4, 9, 5])  # 2 + 1 + 0 + 1 = 4, + 2 fixed
    result = ae.resolve_damage(roll, rd=2, target_vitalite=4, location="torso")
    assert (result.total, result.rd, result.damage, result.severe_effect) == (6, 2, 4, "bleeding")
    absorbed = ae.resolve_damage(roll, rd=9, target_vitalite=4, location="torso")
    assert (absorbed.damage, absorbed.severe_effect) == (0, "none")


def test_resolve_damage_refuses_other_rolls_and_negative_rd():
    roll = ae.roll_pool(ae.damage_roll(SWORD, force=5), [1, 2, 3])
    with pytest.raises(errors.InvalidDamage):
        ae.resolve_damage(roll, rd=-1, target_vitalite=4, location="torso")
    other = ae.roll_pool(ae.dodge_roll(2), [1, 2])
    with pytest.raises(errors.InvalidDamage):
        ae.resolve_damage(other, rd=0, target_vitalite=4, location="torso")


@pytest.mark.parametrize(
    ("pv", "vitalite", "factor", "state"),
    [
        (1, 4, 1, "standing"),
        (0, 4, 1, "out"),
        (-3, 4, 1, "out"),
        (-4, 4, 1, "dead"),
        (-9, 4, 1, "dead"),
        (-4, 4, 2, "out"),
        (-8, 4, 2, "dead"),
    ],
)
def test_condition(pv, vitalite, factor, state):
    house = AethoriaHouseRules(death_threshold_factor=factor)
    assert ae.condition(pv, vitalite, house) == state


POOLS = AethoriaPools(pv_max=18, pv=5, physical_max=9, physical=9, mental_max=9, mental=9)


def test_take_damage_and_bleed_then_undo():
    hurt, delta = ae.take_damage(POOLS, 7)
    assert hurt.pv == -2
    bled, bleed_delta = ae.bleed(hurt)
    assert bled.pv == -3
    assert ae.revert_delta(ae.revert_delta(bled, bleed_delta), delta) == POOLS
    with pytest.raises(errors.InvalidDamage):
        ae.take_damage(POOLS, -1)


# --- weapons and attaque double ------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "parsed"),
    [("4+4d", (4, 4)), ("4d", (0, 4)), ("3", (3, 0)), ("2 + 3d10", (2, 3)), ("0+1D", (0, 1))],
)
def test_parse_damage(notation, parsed):
    assert ae.parse_damage(notation) == parsed


@pytest.mark.parametrize("notation", ["", "4+3", "d4", "4+4d6", "-1+2d", "x", None])
def test_parse_damage_refuses_garbage(notation):
    with pytest.raises(errors.InvalidWeapon):
        ae.parse_damage(notation)


def test_double_attack_needs_two_one_handed_weapons():
    ae.check_double_attack([SWORD, DAGGER])
    for weapons in ([SWORD], [SWORD, GREATAXE], [SWORD, SHIELD], [SWORD, DAGGER, DAGGER]):
        with pytest.raises(errors.InvalidWeapon):
            ae.check_double_attack(weapons)


def test_second_weapon_damage_as_if_two_force_less():
    first = ae.damage_roll(SWORD, force=6)
    second = ae.damage_roll(DAGGER, force=6, second_weapon=True)
    assert (first.threshold, second.threshold) == (6, 4)
    weak = ae.damage_roll(DAGGER, force=1, second_weapon=True)
    # Threshold -1: a 2 does not succeed, but a 1 still counts 2 successes (the source counts
    # the 1s double without condition); the dagger's fixed 2 come on top.
    assert ae.roll_pool(weak, [2]).successes == 2
    assert ae.roll_pool(weak, [1]).successes == 4
    strict = ae.damage_roll(
        DAGGER,
        force=1,
        second_weapon=True,
        house=AethoriaHouseRules(ones_always_succeed=False),
    )
    assert ae.roll_pool(strict, [1]).successes == 2  # the option off: no success, fixed 2 only
    with pytest.raises(errors.InvalidWeapon):
        ae.damage_roll(SHIELD, force=6)


@pytest.mark.parametrize(
    ("first", "second", "defences", "held", "split", "maluses"),
    [
        ("parry", "dodge", 2, [SWORD], (2, 1), (-2, -1)),
        ("dodge", "parry", 2, [SWORD], (0, 3), (0, -3)),
        ("dodge", "dodge", 2, [], (3, 0), (-3, 0)),
        ("parry", "parry", 2, [SWORD, SHIELD], (0, 0), (0, 0)),
        ("parry", "parry", 3, [SWORD, DAGGER], (0, 0), (0, 0)),
        ("dodge", None, 1, [], (0, 0), (0, 0)),
        (None, "parry", 1, [SWORD], (0, 0), (0, 0)),
        (None, None, 0, [], (0, 0), (0, 0)),
    ],
)
def test_double_defence_plans(first, second, defences, held, split, maluses):
    plan = ae.plan_double_defence(first, second, defences_left=defences, held=held, split=split)
    assert (plan.first_malus, plan.second_malus) == maluses
    assert plan.defences_used == (first is not None) + (second is not None)


@pytest.mark.parametrize(
    ("first", "second", "defences", "held", "split"),
    [
        ("parry", "parry", 2, [SWORD], (0, 0)),  # one weapon cannot parry both
        ("parry", "parry", 5, [GREATAXE], (0, 0)),
        ("parry", "dodge", 1, [SWORD], (2, 1)),  # not enough defences
        ("parry", "dodge", 2, [SWORD], (2, 2)),  # must split exactly 3
        ("parry", "dodge", 2, [SWORD], (4, -1)),
        ("parry", "dodge", 2, [SWORD], (0, 0)),
        ("parry", "parry", 2, [SWORD, SHIELD], (1, 2)),  # nothing to split there
        ("dodge", None, 1, [], (3, 0)),
        ("parry", None, 1, [], (0, 0)),  # nothing to parry with
        ("block", None, 1, [SWORD], (0, 0)),
        ("dodge", "dodge", 2, [], (3,)),
    ],
)
def test_double_defence_refusals(first, second, defences, held, split):
    with pytest.raises(errors.InvalidDefence):
        ae.plan_double_defence(first, second, defences_left=defences, held=held, split=split)


def test_can_parry_both():
    assert ae.can_parry_both([SWORD, SHIELD])
    assert ae.can_parry_both([SWORD, DAGGER])
    assert not ae.can_parry_both([SWORD])
    assert not ae.can_parry_both([SWORD, BOW])  # a bow has no parry value


# --- parry rank (a parry is a "jet de parade") ------------------------------------------------


@pytest.mark.parametrize(
    ("parade", "weapon_skill", "best_of", "rank", "skill"),
    [
        (2, 5, False, 2, ae.PARADE_SKILL),  # by default the Parade skill, whatever parries
        (4, 1, False, 4, ae.PARADE_SKILL),
        (2, None, False, 2, ae.PARADE_SKILL),  # a shield
        (2, 5, True, 5, ae.WEAPON_SKILL),  # house rule: the better of the two
        (4, 1, True, 4, ae.PARADE_SKILL),
        (3, 3, True, 3, ae.PARADE_SKILL),  # a tie names Parade
        (2, None, True, 2, ae.PARADE_SKILL),  # a shield has no skill of its own
        (0, 0, True, 0, ae.PARADE_SKILL),
    ],
)
def test_parry_rank(parade, weapon_skill, best_of, rank, skill):
    house = AethoriaHouseRules(parry_best_of_weapon_skill=best_of)
    assert ae.parry_rank(parade, weapon_skill, house) == ae.ParryRank(rank, skill)


@pytest.mark.parametrize(("parade", "weapon_skill"), [(None, 3), ("3", 3), (10, 3), (3, "x")])
def test_parry_rank_refuses_impossible_ranks(parade, weapon_skill):
    house = AethoriaHouseRules(parry_best_of_weapon_skill=True)
    with pytest.raises(errors.InvalidSkillRank):
        ae.parry_rank(parade, weapon_skill, house)


def test_a_parry_value_of_zero_still_counts_its_ones():
    spec = ae.parry_roll(2, 0, attacker_force=5, defender_force=5)
    assert ae.roll_pool(spec, [1, 2]).successes == 2
    strict = ae.parry_roll(
        2,
        0,
        attacker_force=5,
        defender_force=5,
        house=AethoriaHouseRules(ones_always_succeed=False),
    )
    assert ae.roll_pool(strict, [1, 2]).successes == 0
