"""House rules the settings page edits as text, the ways every system may share
(``GameSystem.house_rule_kinds``): « libellé = valeur » lines, a comma-separated list.

A rule's stored keys may be shown as words (``GameSystem.house_rule_words``): written as
words, read back from either the words (any case) or the keys themselves.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .base import HouseRuleKind


def word(key: str, words: dict[str, str]) -> str:
    """A stored key as the settings page shows it (its words, else the key itself)."""
    return str(words.get(key, key))


def key(text: str, words: dict[str, str]) -> str:
    """A stored key from what the GM typed: its words (any case) or the key itself."""
    text = text.strip()
    keys = {str(words_).casefold(): stored for stored, words_ in words.items()}
    return keys.get(text.casefold(), text)


class Pairs(HouseRuleKind):
    """A list of (label, number), one « libellé = nombre » line each (a difficulty ladder)."""

    def form_field(self, label: str, value, words: dict[str, str]) -> forms.Field:
        return forms.CharField(
            label=label,
            widget=forms.Textarea(attrs={"rows": len(value) or 3}),
            initial="\n".join(f"{word(name, words)} = {number}" for name, number in value),
        )

    def from_text(self, text: str, words: dict[str, str]) -> list[list[Any]]:
        pairs = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            label, sep, value = line.rpartition("=")
            try:
                pairs.append([key(label, words), int(value)])
            except ValueError:
                sep = ""
            if not sep or not label.strip():
                raise forms.ValidationError(
                    _("Ligne %(number)s : écrivez « libellé = nombre »."),
                    params={"number": number},
                )
        return pairs


class Strings(HouseRuleKind):
    """A list of keys on one line, separated by commas."""

    def form_field(self, label: str, value, words: dict[str, str]) -> forms.Field:
        return forms.CharField(label=label, initial=", ".join(word(k, words) for k in value))

    def from_text(self, text: str, words: dict[str, str]) -> list[str]:
        return [key(part, words) for part in text.split(",") if part.strip()]


PAIRS = Pairs()
STRINGS = Strings()
