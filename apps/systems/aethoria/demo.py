"""Aethoria's demo campaign (``GameSystem.demo_campaign``): the misty marches, the demo
players' two PCs, brigands, a witch and an ambush ready to start."""

from __future__ import annotations

from collections.abc import Sequence

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.campaigns.services import campaign_create, campaign_join
from apps.characters import services
from apps.characters.models import AethoriaSheet, Character
from apps.compendium import models as compendium
from apps.demo.building import named, prepare_encounter

from .creation import AethoriaChoices, character_create_aethoria

DEMO_CAMPAIGN = "La Marche des Brumes"


def _choices(values, skills, weapons=(), **magic) -> AethoriaChoices:
    ranks = dict(skills)
    return AethoriaChoices(
        **values,
        **magic,
        skills=[(s, ranks[s.name]) for s in named(compendium.AethoriaSkill, *ranks)],
        weapons=named(compendium.AethoriaWeapon, *weapons),
    )


def _values(force, adresse, vitalite, concentration, intelligence, esprit) -> dict[str, int]:
    return {
        "force": force,
        "adresse": adresse,
        "vitalite": vitalite,
        "concentration": concentration,
        "intelligence": intelligence,
        "esprit": esprit,
    }


def demo_campaign(*, gm: User, players: Sequence[User]) -> Campaign:
    """The campaign, its two PCs (one per player), the marshes' NPCs and an ambush."""
    alice, bruno = players
    campaign = campaign_create(
        name=DEMO_CAMPAIGN,
        system="aethoria",
        gm=gm,
        description="Aux marches du royaume, la brume monte des marais et les villages se vident.",
    )
    for player in (alice, bruno):
        campaign_join(campaign=campaign, user=player)
    god = compendium.AethoriaGod.objects.order_by("name").first()
    maelle = character_create_aethoria(
        campaign=campaign,
        owner=alice,
        name="Maëlle",
        concept="marquée, guérisseuse itinérante",
        choices=_choices(
            _values(4, 6, 5, 7, 6, 7),
            [
                ("Magie", 5),
                ("Premiers soins", 4),
                ("Dague", 3),
                ("Esquive", 3),
                ("Herboristerie", 4),
            ],
            weapons=("Dague",),
            **({"magic_type": "marque", "god": god} if god else {}),
        ),
    )
    torvald = character_create_aethoria(
        campaign=campaign,
        owner=bruno,
        name="Torvald",
        concept="ancien soldat, bûcheron",
        choices=_choices(
            _values(8, 6, 7, 4, 4, 5),
            [("Hache", 6), ("Parade", 4), ("Endurance", 5), ("Survie", 3)],
            weapons=("Hache",),
        ),
    )
    foes = _npcs(campaign)
    AethoriaSheet.objects.filter(pk=torvald.pk).update(pv=19, fatigue_physical=9)
    AethoriaSheet.objects.filter(pk=maelle.pk).update(fatigue_mental=9)
    services.xp_award(
        campaign=campaign,
        characters=[maelle, torvald],
        amount=2,
        reason="Le gué des Saules",
        by=gm,
    )
    prepare_encounter(campaign, "Embuscade dans les marais", [maelle, torvald], foes)
    return campaign


def _npcs(campaign: Campaign) -> list[Character]:
    """The brigands' template and three of them, the châtelaine (revealed), and the witch:
    the fight's foes, the witch last (she lurks, hidden)."""
    brigand = character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Brigand des marais",
        is_template=True,
        choices=_choices(
            _values(5, 5, 5, 3, 3, 3), [("Épée", 4), ("Esquive", 2)], weapons=("Épée courte",)
        ),
    )
    brigands = services.npc_copy(template=brigand, count=3)
    character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Dame Ysolde",
        concept="châtelaine inquiète",
        choices=_choices(_values(3, 4, 4, 6, 7, 6), [("Commandement", 5), ("Persuasion", 4)]),
    )
    Character.objects.filter(campaign=campaign, name="Dame Ysolde").update(revealed=True)
    # A doué lurking in the mist, so the demo fight shows spells, Pouvoir and érys burns.
    illusion = compendium.AethoriaMagicDomain.objects.filter(name="Illusion").first()
    witch = character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Sorcière des brumes",
        concept="doué, tisse la brume des marais",
        choices=_choices(
            _values(3, 5, 4, 7, 6, 7),
            [("Magie", 5), ("Dague", 3), ("Esquive", 3)],
            weapons=("Dague",),
            **({"magic_type": "doue", "pouvoir": 6, "domain": illusion} if illusion else {}),
        ),
    )
    return [*brigands, witch]
