"""Face validation, the injected rollers and the shape of refusals."""

import pytest

from apps.rules import aethoria, errors, ew
from apps.rules.dice import (
    MAX_DICE,
    Dice,
    ScriptedDice,
    SecureDice,
    check_d10,
    check_d20,
    check_dice_count,
    check_faces,
)


@pytest.mark.parametrize("face", [1, 5, 10])
def test_valid_d10_faces(face):
    assert check_d10(face) == face


@pytest.mark.parametrize("face", [1, 13, 20])
def test_valid_d20_faces(face):
    assert check_d20(face) == face


@pytest.mark.parametrize("face", [0, 11, -1, 2.0, "3", True, None])
def test_impossible_d10_faces_are_refused(face):
    with pytest.raises(errors.InvalidFace) as caught:
        check_d10(face)
    assert caught.value.code == "invalid_face"
    assert "d10" in caught.value.message


@pytest.mark.parametrize("face", [0, 21])
def test_impossible_d20_faces_are_refused(face):
    with pytest.raises(errors.InvalidFace):
        check_d20(face)


def test_faces_must_match_the_pool():
    assert check_faces([1, 2, 3], 10, count=3) == (1, 2, 3)
    with pytest.raises(errors.InvalidPool):
        check_faces([1, 2], 10, count=3)
    with pytest.raises(errors.InvalidFace):
        check_faces("123", 10)


@pytest.mark.parametrize("n", [-1, MAX_DICE + 1, 1.5, False])
def test_bad_dice_counts_are_refused(n):
    with pytest.raises(errors.InvalidPool):
        check_dice_count(n)


def test_scripted_dice_hand_out_faces_in_order_then_refuse():
    dice = ScriptedDice(d10=[3, 7, 10], d20=[20])
    assert dice.d10(2) == (3, 7)
    assert dice.d20(1) == (20,)
    assert dice.remaining == (1, 0)
    assert dice.d10(0) == ()
    with pytest.raises(errors.DiceExhausted):
        dice.d10(2)
    with pytest.raises(errors.DiceExhausted):
        dice.d20(1)


def test_scripted_dice_refuse_impossible_faces_up_front():
    with pytest.raises(errors.InvalidFace):
        ScriptedDice(d10=[11])
    with pytest.raises(errors.InvalidFace):
        ScriptedDice(d20=[0])


def test_secure_dice_roll_valid_faces():
    dice = SecureDice()
    assert isinstance(dice, Dice)
    assert isinstance(ScriptedDice(), Dice)
    assert all(1 <= f <= 10 for f in dice.d10(50))
    assert all(1 <= f <= 20 for f in dice.d20(50))
    assert len(dice.d10(3)) == 3
    assert isinstance(dice.draw(), int)
    with pytest.raises(errors.InvalidPool):
        dice.d10(-1)


def test_every_refusal_is_a_value_error_with_message_code_and_field():
    error = errors.InvalidFatigueSpend("Trop de dés.", field="fatigue", params={"asked": 4})
    assert isinstance(error, errors.RulesError)
    assert isinstance(error, ValueError)
    assert str(error) == error.message == "Trop de dés."
    assert error.code == "invalid_fatigue_spend"
    assert error.field == "fatigue"
    assert error.params == {"asked": 4}


def test_error_codes_are_unique_and_stable():
    classes = [
        c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.RulesError)
    ]
    codes = [c.code for c in classes]
    assert len(codes) == len(set(codes))
    assert errors.InvalidResolutionTable.code == "invalid_resolution_table"
    assert issubclass(errors.InvalidResolutionTable, errors.InvalidHouseRules)


# --- wrong types raise the engine's own error (issue 19) --------------------------------------


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ew.resolve_test(5, 5, 10, None), errors.InvalidValue),
        (lambda: ew.resolve_test(5, 5, 10, 3), errors.InvalidValue),
        (lambda: ew.success_probability(5, 5, None), errors.InvalidValue),
        (lambda: ew.resolve_test(5, 5, 10, ["2"]), errors.InvalidValue),
        (lambda: aethoria.pool_size(3, None), errors.InvalidValue),
        (lambda: aethoria.pool_size(3, {"a": 1}), errors.InvalidValue),
        (lambda: aethoria.attack_roll(3, 5, None), errors.InvalidValue),
        (lambda: aethoria.dodge_roll(3, modifiers=None), errors.InvalidValue),
        (lambda: aethoria.count_successes(None, 5), errors.InvalidFace),
        (lambda: aethoria.count_successes(5, 5), errors.InvalidFace),
        (lambda: aethoria.count_successes([1], 5, ones_always_succeed=None), errors.InvalidValue),
        (
            lambda: aethoria.success_distribution(2, 5, ones_always_succeed="yes"),
            errors.InvalidValue,
        ),
    ],
)
def test_wrong_types_raise_the_engines_own_error_with_a_message(call, error):
    with pytest.raises(error) as raised:
        call()
    assert isinstance(raised.value, errors.RulesError) and raised.value.message
