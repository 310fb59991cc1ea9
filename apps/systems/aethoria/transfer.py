"""What an Aethoria sheet refers to in the compendium, for a campaign's export and import."""

from __future__ import annotations

from django.db.models import Prefetch

from apps.characters.models import AethoriaSkillRank
from apps.compendium import models as compendium

# Compendium references of the sheet: (document key, model, many).
REFS = (
    ("domain", compendium.AethoriaMagicDomain, False),
    ("god", compendium.AethoriaGod, False),
    ("shield", compendium.AethoriaShield, False),
    ("weapons", compendium.AethoriaWeapon, True),
    ("armour_pieces", compendium.AethoriaArmourPiece, True),
)
# Ranked references: (document key, related name, rank model, compendium field, model, value).
RANKS = (("skills", "skills", AethoriaSkillRank, "skill", compendium.AethoriaSkill, "rank"),)


def export_lookups() -> tuple[list[str], list]:
    return (
        ["aethoria__domain", "aethoria__god", "aethoria__shield"],
        [
            "aethoria__weapons",
            "aethoria__armour_pieces",
            Prefetch(
                "aethoria__skills", queryset=AethoriaSkillRank.objects.select_related("skill")
            ),
        ],
    )
