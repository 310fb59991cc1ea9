"""The rules engine's refusals in the viewer's language.

`apps.rules` cannot import Django, so it builds its French messages itself; it keeps the French
format string each one came from (marked with `fr`, extracted by `make messages`) and its
params. This is the one place where the app turns them into the active language.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.translation import gettext

from apps.rules.errors import FrenchText


class Refusal(Protocol):
    """A `RulesError` or an engine `Problem`: a French message, its template and params."""

    message: str
    template: str
    params: Any


def rules_message(refusal: Refusal) -> str:
    """The refusal's message in the active language (its French message when the text was not
    marked by the engine, or the translation does not fit its params)."""
    template = getattr(refusal, "template", "")
    if not isinstance(template, FrenchText):
        return refusal.message  # written by the app: already in the viewer's language
    params = {
        name: gettext(value) if isinstance(value, FrenchText) else value
        for name, value in refusal.params.items()
    }
    try:
        return gettext(template) % params
    except (KeyError, TypeError, ValueError):
        return refusal.message
