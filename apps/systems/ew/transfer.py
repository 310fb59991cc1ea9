"""What an EW-System sheet refers to in the compendium, for a campaign's export and import."""

from __future__ import annotations

from django.db.models import Prefetch

from apps.characters.models import EwPowerRank, EwSpecialtyRank
from apps.compendium import models as compendium

# Compendium references of the sheet: (document key, model, many).
REFS = (
    ("archetype", compendium.EwArchetype, False),
    ("armour", compendium.EwArmour, False),
    ("weapons", compendium.EwWeapon, True),
    ("traits", compendium.EwTrait, True),
    ("aptitudes", compendium.EwAptitude, True),
)
# Ranked references: (document key, related name, rank model, compendium field, model, value).
RANKS = (
    ("specialties", "specialties", EwSpecialtyRank, "specialty", compendium.EwSpecialty, "level"),
    ("powers", "powers", EwPowerRank, "power", compendium.EwPower, "level"),
)

# The rows the document names by more than their name, and how an import finds them.


def aptitudes_by_key(keys: set[tuple[str, str]]) -> dict[tuple[str, str], compendium.EwAptitude]:
    """The aptitudes an import names, by (archetype, name) as the document writes them (an
    aptitude's name is only unique within its archetype)."""
    rows = compendium.EwAptitude.objects.select_related("archetype").filter(
        name__in=[name for _archetype, name in keys],
        archetype__name__in=[archetype for archetype, _name in keys],
    )
    return {(row.archetype.name, row.name): row for row in rows}


FINDERS = {compendium.EwAptitude: aptitudes_by_key}


def export_lookups() -> tuple[list[str], list]:
    return (
        ["ew__archetype", "ew__armour"],
        [
            "ew__weapons",
            "ew__traits",
            Prefetch(
                "ew__aptitudes", queryset=compendium.EwAptitude.objects.select_related("archetype")
            ),
            Prefetch(
                "ew__specialties", queryset=EwSpecialtyRank.objects.select_related("specialty")
            ),
            Prefetch("ew__powers", queryset=EwPowerRank.objects.select_related("power")),
        ],
    )
