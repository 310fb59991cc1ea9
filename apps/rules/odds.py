"""Exact probability helpers shared by both systems (never sampled).

A distribution is a `dict[int, Fraction]` mapping each possible value to its probability; only
values with a probability above 0 are keys. Hot paths (dice pools) work on integer *counts* over a
common denominator and only build `Fraction`s at the end, because `Fraction` arithmetic is the
slow part in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import Any, TypeVar

Distribution = dict[int, Fraction]

ONE = Fraction(1)
ZERO = Fraction(0)

_F = TypeVar("_F", bound=Callable[..., Any])
_CACHES: list[Any] = []


def cached(function: _F) -> _F:
    """`functools.lru_cache` for pure functions of ints, registered so benchmarks can clear it."""
    wrapped = lru_cache(maxsize=4096)(function)
    _CACHES.append(wrapped)
    return wrapped  # type: ignore[return-value]


@cached
def die_power(weights: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Counts of each total of `n` dice whose faces give 0, 1, 2... with the given weights.

    `result[k]` is the number of ways (out of `sum(weights) ** n`) to total `k`.
    """
    if n == 0:
        return (1,)
    # The counts are the coefficients of the polynomial (w0 + w1*x + w2*x^2 ...)^n. Evaluating it
    # at x = 2**bits, with bits wide enough that no coefficient can carry into the next one
    # (each is at most sum(weights)**n), lets Python's big-integer power do the whole convolution
    # in C; the coefficients are then read back as bit fields. About 20x faster than looping.
    bits = (sum(weights) ** n).bit_length() + 1
    return _unpack(_pack(weights, bits) ** n, bits, n * (len(weights) - 1) + 1)


def convolve_counts(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """Counts of the sum of two independent totals (`result[k]` = ways for x + y = k)."""
    # Same packing trick as die_power: one big-integer product is the whole convolution.
    bits = (sum(a) * sum(b)).bit_length() + 1
    return _unpack(_pack(a, bits) * _pack(b, bits), bits, len(a) + len(b) - 1)


def _pack(counts: Sequence[int], bits: int) -> int:
    packed = 0
    for index, count in enumerate(counts):
        packed |= count << (index * bits)
    return packed


def _unpack(packed: int, bits: int, size: int) -> tuple[int, ...]:
    mask = (1 << bits) - 1
    return tuple((packed >> (k * bits)) & mask for k in range(size))


def cumulative(counts: Sequence[int]) -> tuple[int, ...]:
    """Prefix sums: `result[k]` counts the ways to total at most `k`."""
    return tuple(accumulate(counts))


def count_difference_at_least(a: Sequence[int], b: Sequence[int], gap: int) -> int:
    """Number of (x, y) pairs, weighted by counts, with x - y >= gap (x from `a`, y from `b`)."""
    below = cumulative(b)  # below[j] = ways for b to total <= j
    last = len(below) - 1
    ways = 0
    for x, count in enumerate(a):
        limit = x - gap  # y must be <= limit
        if count and limit >= 0:
            ways += count * below[min(limit, last)]
    return ways


def from_counts(counts: Sequence[int], denominator: int, offset: int = 0) -> Distribution:
    """Turn counts over a common denominator into a distribution (value = offset + index)."""
    return {offset + k: Fraction(c, denominator) for k, c in enumerate(counts) if c}


def point(value: int) -> Distribution:
    """The distribution of a value known for sure."""
    return {value: ONE}


def uniform(low: int, high: int) -> Distribution:
    """Each integer of low..high equally likely (a die is uniform(1, sides))."""
    p = Fraction(1, high - low + 1)
    return dict.fromkeys(range(low, high + 1), p)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """Distribution of the sum of two independent values."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, ZERO) + px * py
    return _drop_zeros(out)


def transform(dist: Mapping[int, Fraction], f: Callable[[int], int]) -> Distribution:
    """Distribution of f(value), e.g. `lambda d: max(0, d - armour)`."""
    out: Distribution = {}
    for value, p in dist.items():
        key = f(value)
        out[key] = out.get(key, ZERO) + p
    return _drop_zeros(out)


def mixture(parts: Iterable[tuple[Fraction, Mapping[int, Fraction]]]) -> Distribution:
    """Weighted mix of distributions (law of total probability); weights must sum to 1."""
    out: Distribution = {}
    for weight, dist in parts:
        if not weight:
            continue
        for value, p in dist.items():
            out[value] = out.get(value, ZERO) + weight * p
    return _drop_zeros(out)


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    """Expected value."""
    return sum((value * p for value, p in dist.items()), ZERO)


def total(dist: Mapping[int, Fraction]) -> Fraction:
    """Sum of the probabilities (1 for a well-formed distribution)."""
    return sum(dist.values(), ZERO)


def at_least(dist: Mapping[int, Fraction], threshold: int) -> Fraction:
    """Probability that the value is >= threshold."""
    return sum((p for value, p in dist.items() if value >= threshold), ZERO)


def clear_caches() -> None:
    """Forget every cached computation (benchmarks clear them to measure honestly)."""
    for wrapped in _CACHES:
        wrapped.cache_clear()


def _drop_zeros(dist: Distribution) -> Distribution:
    return {value: p for value, p in sorted(dist.items()) if p}
