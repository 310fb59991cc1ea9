"""Exact odds (fractions) written for people: 45 %, 12,5 %, 2,3."""

from fractions import Fraction

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

register = template.Library()


@register.filter
def percent(chance: Fraction) -> str:
    """A probability as a percentage, with a decimal only when it is not whole."""
    value = float(chance) * 100
    if value.is_integer():
        return f"{int(value)} %"
    if 0 < value < 0.1:
        return "< 0,1 %" if number_format(0.1, 1) == "0,1" else "< 0.1 %"
    return f"{number_format(value, 1)} %"


@register.filter
def decimal(value: Fraction | float) -> str:
    """A mean with one decimal in the viewer's number format."""
    return number_format(float(value), 1)


POOL_LABELS = {
    "superficial_left": _("points superficiels"),
    "lethal_left": _("points létaux"),
    "eclat": _("points d'éclat"),
    "pv": _("PV"),
    "fatigue_physical": _("fatigue physique"),
    "fatigue_mental": _("fatigue mentale"),
}


@register.filter
def pool_label(field_name: str) -> str:
    """The words for a pool a summary names by its field."""
    return POOL_LABELS.get(field_name, field_name)


@register.simple_tag(takes_context=True)
def odds_errors(context, form) -> list[str]:
    """The refusals an odds box shows. Alone (the odds fetched while the GM fills a form),
    all of its form's; inside the form (``in_form`` in the context), only those no field
    shows — of its hidden fields — since the others stand next to their field or atop it."""
    if form is None or not getattr(form, "errors", None):
        return []
    if context.get("in_form"):
        return [error for field in form.hidden_fields() for error in field.errors]
    return [*form.non_field_errors(), *(error for field in form for error in field.errors)]
