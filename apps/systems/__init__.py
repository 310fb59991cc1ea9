"""Game systems as plug-ins: everything that differs between EW-System and Aethoria lives in
one folder per system (``apps/systems/<code>/``), reached through this registry.

Generic code (campaigns, characters, encounters) asks ``system_of(campaign)`` for the
campaign's ``GameSystem`` and calls its hooks (``base.py`` lists them); it never imports a
system's folder. A system is loaded by its dotted path the first time it is asked for, so
a system's modules may import the generic apps without an import cycle. Adding a system:
a folder with a ``system.py`` filling every hook, and a line here (README, "Adding a game
system").
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from .base import GameSystem

SYSTEMS: dict[str, str] = {
    "ew": "apps.systems.ew.system.EW",
    "aethoria": "apps.systems.aethoria.system.AETHORIA",
}


@cache
def get_system(code: str) -> GameSystem:
    """The system registered under ``code`` (KeyError for an unknown one)."""
    return import_string(SYSTEMS[code])


def system_of(campaign) -> GameSystem:
    """The game system of a campaign (or of anything with a ``system`` code)."""
    return get_system(campaign.system)


def all_systems() -> list[GameSystem]:
    return [get_system(code) for code in SYSTEMS]


def system_choices() -> list[tuple[str, str]]:
    """The campaign's ``system`` choices: every registered system (a callable, so that a
    system registered later, as the tests' third one, is a choice too)."""
    return [(system.code, system.label) for system in all_systems()]


def sheet_models() -> list:
    """Every system's sheet model (a character has the one of its campaign's system)."""
    return list(_sheet_models_of(tuple(SYSTEMS.items())))


def sheet_labels() -> frozenset[str]:
    """Every system's sheet model as a recorded change names it ("characters.ewsheet"):
    read by every step, kept while the registry stays the same."""
    return _sheet_labels_of(tuple(SYSTEMS.items()))


@cache
def _sheet_models_of(registry: tuple) -> tuple:
    return tuple(system.sheet_model() for system in all_systems())


@cache
def _sheet_labels_of(registry: tuple) -> frozenset[str]:
    return frozenset(model._meta.label_lower for model in _sheet_models_of(registry))


def system_of_rules(house) -> GameSystem:
    """The system whose house rules ``house`` is (the engine's dataclass names its system)."""
    for system in all_systems():
        if isinstance(house, system.house_rules_class):
            return system
    raise LookupError(f"No game system plays with {type(house).__name__}.")


def pool_words(field_name: str) -> str:
    """The words for a sheet's pool named by its field (a fight's summary, a GM's correction
    in the log), as its system's ``pool_labels`` say them; the field itself when none does."""
    for system in all_systems():
        if words := system.pool_labels().get(field_name):
            return words
    return field_name


def pool_amount_words(field_name: str, amount: int) -> str:
    """An amount of a pool in words that agree with it ("1 point d'éclat", "3 points
    létaux", "4 PV"): its system's ``pool_amount`` when the words change with the number,
    else the number before ``pool_words``."""
    for system in all_systems():
        if words := system.pool_amount(field_name, amount):
            return words
    return f"{amount} {pool_words(field_name)}"
