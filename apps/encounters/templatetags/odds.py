"""Exact odds (fractions) written for people: 45 %, 12,5 %, 2,3."""

import functools
import math
from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.translation import get_language

from apps.systems import pool_amount_words, pool_words

register = template.Library()


def _tenths(value: Fraction) -> int:
    """The value in tenths, rounded half up from the exact fraction (99.59 → 996)."""
    return math.floor(Fraction(value) * 10 + Fraction(1, 2))


def _one_style(tenths: int) -> str:
    """Tenths written in the viewer's number format, the decimal only when not whole:
    "55", "99,6", "3,1" — one style for every chance and every mean. Below 1000 (no
    thousands separator to place) the same tenths read the same in a language: kept."""
    if 0 <= tenths < 10000:
        return _styled(tenths, get_language())
    return _format(tenths)


@functools.lru_cache(maxsize=8192)
def _styled(tenths: int, language: str | None) -> str:
    # An odds box writes a dozen figures: formatting each anew was most of its cost.
    return _format(tenths)


def _format(tenths: int) -> str:
    if tenths % 10 == 0:
        return number_format(tenths // 10, 0)
    return number_format(Decimal(tenths).scaleb(-1), 1)


@register.filter
def percent(chance: Fraction) -> str:
    """A probability as a percentage, rounded half up to a tenth; never "0 %" nor "100 %"
    unless it is certain."""
    exact = Fraction(chance) * 100
    tenths = _tenths(exact)
    if exact > 0 and tenths == 0:
        return f"< {_one_style(1)} %"
    if exact < 100 and tenths == 1000:
        return f"> {_one_style(999)} %"
    return f"{_one_style(tenths)} %"


@register.filter
def decimal(value: Fraction | float) -> str:
    """A mean to a tenth, rounded half up from the exact fraction (3.06 → "3,1")."""
    return _one_style(_tenths(Fraction(value)))


@register.filter
def signed(value: int) -> str:
    """A modifier with its sign, a true minus for a malus: "+2", "−2"."""
    return f"{value:+d}".replace("-", "−")


@register.filter
def pool_label(field_name: str) -> str:
    """The words for a pool a summary names by its field."""
    return pool_words(field_name)


@register.filter
def pool_loss(amount: int, field_name: str) -> str:
    """What a fighter lost of a pool, in words that agree with the number ("−1 point
    d'éclat", "−3 points létaux", "−4 PV")."""
    return f"−{pool_amount_words(field_name, amount)}"


@register.simple_tag(takes_context=True)
def odds_errors(context, form) -> list[str]:
    """The refusals an odds box shows. Alone (the odds fetched while the GM fills a form),
    all of its form's; inside the form (``in_form`` in the context), only those no field
    shows — of its hidden fields — since the others stand next to their field or atop it;
    but all of them when the form is drawn only to take its odds box out of it
    (``odds_only``: the rest of the answer is not swapped, its fields' messages would be
    lost and the box left empty without a reason)."""
    if form is None or not getattr(form, "errors", None):
        return []
    if context.get("in_form") and not context.get("odds_only"):
        return [error for field in form.hidden_fields() for error in field.errors]
    return [*form.non_field_errors(), *(error for field in form for error in field.errors)]
