"""``{% once_key %}``: the one-time key of a form that must act at most once (apps/core/once.py)."""

from django import template
from django.utils.html import format_html

from apps.core.once import FIELD, new_key

register = template.Library()


@register.simple_tag
def once_key() -> str:
    """The hidden input carrying a fresh key, beside the form's {% csrf_token %}."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
