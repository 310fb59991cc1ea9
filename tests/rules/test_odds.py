"""Shared exact-distribution helpers."""

from fractions import Fraction as F

import pytest

from apps.rules import odds


def test_die_power_counts_every_outcome():
    # A coin (0 or 1) thrown 3 times: 1, 3, 3, 1.
    assert odds.die_power((1, 1), 3) == (1, 3, 3, 1)
    assert odds.die_power((4, 5, 1), 0) == (1,)
    assert odds.die_power((10, 0, 0), 4) == (10**4, 0, 0, 0, 0, 0, 0, 0, 0)
    assert sum(odds.die_power((4, 5, 1), 30)) == 10**30


@pytest.mark.parametrize(
    ("a", "b", "gap", "expected"),
    [
        ((1, 1), (1, 1), 1, 1),  # only (1, 0)
        ((1, 1), (1, 1), 0, 3),
        ((1, 2), (3,), 1, 6),
        ((5,), (1, 1), 1, 0),
    ],
)
def test_count_difference_at_least(a, b, gap, expected):
    assert odds.count_difference_at_least(a, b, gap) == expected


def test_convolve_two_dice():
    two_d6 = odds.convolve(odds.uniform(1, 6), odds.uniform(1, 6))
    assert two_d6[7] == F(1, 6)
    assert two_d6[2] == F(1, 36)
    assert odds.total(two_d6) == 1
    assert odds.mean(two_d6) == 7


def test_transform_mixture_point_and_at_least():
    d10 = odds.uniform(1, 10)
    soaked = odds.transform(d10, lambda v: max(0, v - 3))
    assert soaked[0] == F(3, 10)
    mixed = odds.mixture([(F(1, 4), soaked), (F(3, 4), odds.point(0))])
    assert mixed[0] == F(1, 4) * F(3, 10) + F(3, 4)
    assert odds.total(mixed) == 1
    assert odds.at_least(d10, 8) == F(3, 10)
    assert odds.from_counts([1, 0, 3], 4, offset=-1) == {-1: F(1, 4), 1: F(3, 4)}


def test_clear_caches_empties_the_registered_caches():
    odds.die_power((4, 5, 1), 7)
    assert odds.die_power.cache_info().currsize > 0
    odds.clear_caches()
    assert odds.die_power.cache_info().currsize == 0


def test_convolve_counts_matches_a_plain_double_loop():
    a, b = (3, 0, 5, 1), (2, 7)
    plain = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            plain[i + j] += x * y
    assert odds.convolve_counts(a, b) == tuple(plain)
    assert odds.convolve_counts((1,), (10**40,)) == (10**40,)
