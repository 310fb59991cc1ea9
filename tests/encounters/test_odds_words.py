"""Odds written for people: rounded half up from the exact fraction, one style for all."""

from fractions import Fraction

import pytest
from django.utils import translation

from apps.encounters.templatetags.odds import decimal, percent


@pytest.mark.parametrize(
    ("chance", "words"),
    [
        (Fraction(11, 20), "55 %"),
        (Fraction(3, 5), "60 %"),
        (Fraction(9959, 10000), "99,6 %"),
        (Fraction(1, 8), "12,5 %"),
        (Fraction(1, 3), "33,3 %"),
        (Fraction(2, 3), "66,7 %"),
        (Fraction(19999, 20000), "> 99,9 %"),
        (Fraction(1, 20000), "< 0,1 %"),
        (Fraction(1), "100 %"),
        (Fraction(0), "0 %"),
    ],
)
def test_a_chance_is_rounded_half_up_and_never_shown_certain_unless_it_is(chance, words):
    with translation.override("fr"):
        assert percent(chance) == words


@pytest.mark.parametrize(
    ("mean", "words"),
    [(Fraction(306, 100), "3,1"), (Fraction(5, 2), "2,5"), (Fraction(3), "3"), (0.25, "0,3")],
)
def test_a_mean_is_rounded_half_up_to_a_tenth(mean, words):
    with translation.override("fr"):
        assert decimal(mean) == words
