"""What a sheet knows of fights, given by the app that runs them.

The encounters app depends on characters (a combatant is a character), so characters may
not import it back (an import-linter contract holds the arrow). A sheet still shows the
fight under way (its banner), moves the fights its character is in when its pools change,
and refuses to delete a character that fought: the encounters app registers the provider
of these when Django starts (``EncountersConfig.ready``). Without one, a sheet is in no
fight.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from apps.campaigns.models import Campaign

    from .models import Character


class FightProvider(Protocol):
    """The fight hooks of sheets (the encounters app's ``sheets.SheetFights``)."""

    def follow(self, character_ids: list[int]) -> None:
        """The running or paused fights these characters are in follow their sheets."""

    def names(self, character: Character) -> list[str]:
        """The names of the fights the character takes or took part in, oldest first."""

    def banner(self, campaign: Campaign, *, is_gm: bool) -> Any | None:
        """The fight a sheet links to (``name``, ``status``, ``round``, ``url``), if any."""

    def banner_sql(self, campaign_column: str) -> tuple[str, list]:
        """An SQL expression (and its parameters) that changes whenever the banner would,
        for the campaign in ``campaign_column``: the sheet's fingerprint includes it."""

    def conditions(self, character: Character, *, players: bool, live: bool) -> list[Any]:
        """The conditions on the character, in words: those kept from its last fight, and,
        while its campaign has a fight under way (``live``), those of the fight it is in; for
        ``players``, the public ones only."""

    def conditions_sql(self, character_column: str, *, players: bool) -> tuple[str, list]:
        """An SQL expression that changes whenever the conditions of the fight the character
        in ``character_column`` is in would read differently (to ``players``, or to the GM)."""


_provider_path: str | None = None


def register(dotted_path: str) -> None:
    """Name the provider (by dotted path: it imports models, which the app registry loads
    after the apps' configs)."""
    global _provider_path
    _provider_path = dotted_path
    provider.cache_clear()


@cache
def provider() -> FightProvider | None:
    return None if _provider_path is None else import_string(_provider_path)


def follow(character_ids: Iterable[int]) -> None:
    """Move the fights these characters are in: their console and table view refresh, and a
    GM's form made on the older pools is refused as stale. Called before the sheets are
    locked: a step locks its encounter, then the sheets — the same order."""
    if (fights := provider()) is not None:
        fights.follow(list(character_ids))


def names(character: Character) -> list[str]:
    fights = provider()
    return [] if fights is None else fights.names(character)


def banner(campaign: Campaign, *, is_gm: bool):
    fights = provider()
    return None if fights is None else fights.banner(campaign, is_gm=is_gm)


def banner_sql(campaign_column: str) -> tuple[str, list]:
    fights = provider()
    return ("NULL", []) if fights is None else fights.banner_sql(campaign_column)


def conditions(character: Character, *, players: bool, live: bool) -> list:
    fights = provider()
    return [] if fights is None else fights.conditions(character, players=players, live=live)


def conditions_sql(character_column: str, *, players: bool) -> tuple[str, list]:
    fights = provider()
    if fights is None:
        return ("NULL", [])
    return fights.conditions_sql(character_column, players=players)
