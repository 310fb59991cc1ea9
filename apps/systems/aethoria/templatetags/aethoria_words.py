"""Aethoria's stored keys in the viewer's words, for its templates."""

from django import template
from django.utils.translation import gettext_lazy as _

from ..log import location_words

register = template.Library()


SEVERE_EFFECTS = {
    "bleeding": _("saignement"),
    "fracture": _("fracture"),
    "instant_death": _("mort instantanée"),
}


@register.filter
def severe_effect(effect: str) -> str:
    """The words for an Aethoria severe effect stored by its key."""
    return SEVERE_EFFECTS.get(effect, effect)


@register.filter
def hit_location(location: str) -> str:
    """An Aethoria hit location stored by its key, in the viewer's language."""
    return location_words(location)
