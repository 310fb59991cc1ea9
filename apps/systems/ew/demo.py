"""EW-System's demo campaign (``GameSystem.demo_campaign``): 1936 Marseille, the demo
players' two PCs, a few NPCs and a brawl on the docks ready to start."""

from __future__ import annotations

from collections.abc import Sequence

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.campaigns.services import campaign_create, campaign_join, log_add
from apps.characters import services
from apps.characters.models import Character, EwSheet
from apps.compendium import models as compendium
from apps.demo.building import named, one, prepare_encounter

from .creation import EwChoices, character_create_ew

DEMO_CAMPAIGN = "Les Ombres de Marseille"


def _choices(archetype, values, specialties, traits=(), weapons=(), armour=None) -> EwChoices:
    levels = dict(specialties)
    return EwChoices(
        **values,
        archetype=one(compendium.EwArchetype, archetype),
        specialties=[(s, levels[s.name]) for s in named(compendium.EwSpecialty, *levels)],
        traits=named(compendium.EwTrait, *traits),
        weapons=named(compendium.EwWeapon, *weapons),
        armour=one(compendium.EwArmour, armour) if armour else None,
    )


def demo_campaign(*, gm: User, players: Sequence[User]) -> Campaign:
    """The campaign, its two PCs (one per player), the Carbone gang's men and a fight."""
    alice, bruno = players
    campaign = campaign_create(
        name=DEMO_CAMPAIGN,
        system="ew",
        gm=gm,
        description="1936. Les docks, la pègre corse et une cargaison qui n'aurait jamais "
        "dû quitter Alexandrie.",
    )
    for player in (alice, bruno):
        campaign_join(campaign=campaign, user=player)
    lysandre = character_create_ew(
        campaign=campaign,
        owner=alice,
        name="Lysandre Vey",
        concept="détective privée, ancienne infirmière de guerre",
        choices=_choices(
            "Investigateur",
            {"phy": 6, "men": 8, "per": 8, "pre": 6},
            [("Investigation", 3), ("Arme de poing", 2), ("Psychologie", 2), ("Médecine", 1)],
            traits=("Mémoire eidétique", "Curiosité maladive"),
            weapons=("Revolver",),
        ),
    )
    marco = character_create_ew(
        campaign=campaign,
        owner=bruno,
        name="Marco Bellandi",
        concept="docker, boxeur, trop curieux",
        choices=_choices(
            "Baroudeur",
            {"phy": 9, "men": 5, "per": 7, "pre": 7},
            [("Corps à corps", 3), ("Survie", 2), ("Intimidation", 2), ("Conduite", 1)],
            traits=("Robustesse", "Recherché"),
            weapons=("Batte de base-ball", "Pistolet"),
            armour="Blouson de cuir",
        ),
    )
    thugs = _npcs(campaign)
    # A rough first evening: Marco took a beating, Lysandre spent her luck.
    EwSheet.objects.filter(pk=marco.pk).update(superficial_left=11, lethal_left=22)
    EwSheet.objects.filter(pk=lysandre.pk).update(eclat=2)
    services.xp_award(
        campaign=campaign,
        characters=[lysandre, marco],
        amount=3,
        reason="Scénario 1 : « Le cargo fantôme »",
        by=gm,
    )
    log_add(campaign=campaign, text="Les personnages arrivent au port de la Joliette.", by=gm)
    prepare_encounter(campaign, "Rixe sur les quais", [lysandre, marco], thugs)
    return campaign


def _npcs(campaign: Campaign) -> list[Character]:
    """The gang's template and two of its men (who fight), and the commissaire (revealed)."""
    thug = character_create_ew(
        campaign=campaign,
        owner=None,
        name="Homme de main",
        concept="nervi de la bande Carbone",
        is_template=True,
        choices=_choices(
            None,
            {"phy": 8, "men": 5, "per": 7, "pre": 8},
            [("Arme blanche", 2), ("Corps à corps", 2)],
            weapons=("Couteau",),
        ),
    )
    thugs = services.npc_copy(template=thug, count=2)
    garnier = character_create_ew(
        campaign=campaign,
        owner=None,
        name="Commissaire Garnier",
        concept="flic fatigué, honnête à sa façon",
        choices=_choices(
            None,
            {"phy": 6, "men": 7, "per": 8, "pre": 7},
            [("Investigation", 4)],
            weapons=("Pistolet",),
        ),
    )
    Character.objects.filter(pk=garnier.pk).update(revealed=True)
    return thugs
