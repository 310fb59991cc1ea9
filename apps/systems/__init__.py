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
    return [system.sheet_model() for system in all_systems()]


def system_of_rules(house) -> GameSystem:
    """The system whose house rules ``house`` is (the engine's dataclass names its system)."""
    for system in all_systems():
        if isinstance(house, system.house_rules_class):
            return system
    raise LookupError(f"No game system plays with {type(house).__name__}.")
