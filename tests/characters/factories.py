"""Characters with valid sheets, and the few compendium rows they need."""

import factory

from apps.characters.models import (
    AethoriaSheet,
    Character,
    EwSheet,
    EwSpecialtyRank,
    Kind,
    XpEntry,
    XpKind,
)
from apps.compendium import models as compendium
from tests.campaigns.factories import CampaignFactory


class EwArchetypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.EwArchetype

    name = factory.Sequence(lambda n: f"Archétype {n}")
    con_factor = 1
    com_factor = 2
    hab_factor = 2
    soc_factor = 3


class EwSpecialtyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.EwSpecialty

    name = factory.Sequence(lambda n: f"Spécialité {n}")
    field = "com"


class EwTraitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.EwTrait

    name = factory.Sequence(lambda n: f"Trait {n}")
    kind = "advantage"
    cost = 4


class EwPowerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.EwPower

    name = factory.Sequence(lambda n: f"Pouvoir {n}")
    cost_per_level = 3


class AethoriaSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.AethoriaSkill

    name = factory.Sequence(lambda n: f"Compétence {n}")
    characteristic = "adresse"


class AethoriaGodFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.AethoriaGod

    name = factory.Sequence(lambda n: f"Dieu {n}")
    domain = "la forge"
    way_of_life = "Travailler le métal."
    pouvoir = 6


class AethoriaMagicDomainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = compendium.AethoriaMagicDomain

    name = factory.Sequence(lambda n: f"Domaine {n}")


class CharacterFactory(factory.django.DjangoModelFactory):
    """A PC of an EW campaign by default; pass ``owner=None, kind="npc"`` for an NPC."""

    class Meta:
        model = Character
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    kind = Kind.PC
    owner = factory.SubFactory("tests.accounts.factories.UserFactory")
    name = factory.Sequence(lambda n: f"Personnage {n}")

    @factory.post_generation
    def sheet(obj, create, extracted, **kwargs):
        if not create or extracted is False:
            return
        if obj.campaign.system == "ew":
            values = {"phy": 7, "men": 7, "per": 7, "pre": 7, **kwargs}
            pv = 3 * values["phy"]
            values.setdefault("superficial_left", pv)
            values.setdefault("lethal_left", pv)
            EwSheet.objects.create(character=obj, **values)
        else:
            values = {
                "force": 5,
                "adresse": 5,
                "vitalite": 5,
                "concentration": 5,
                "intelligence": 5,
                "esprit": 5,
                **kwargs,
            }
            values.setdefault("pv", 2 * (values["force"] + values["vitalite"]))
            values.setdefault("fatigue_physical", values["force"] + values["vitalite"])
            values.setdefault("fatigue_mental", values["concentration"] + values["esprit"])
            AethoriaSheet.objects.create(character=obj, **values)


class NpcFactory(CharacterFactory):
    kind = Kind.NPC
    owner = None


class XpEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = XpEntry

    character = factory.SubFactory(CharacterFactory)
    kind = XpKind.AWARD
    amount = 5
    reason = "Fin du scénario"


def ew_pc_with_a_pistol(campaign, player):
    """Lysandre, an EW PC (PHY 8, PRE 6, COM factor 2) with « Arme de poing » at level 2,
    kept as ``character.pistol``: the sheet the éclat, XP and sheet tests share."""
    archetype = EwArchetypeFactory(com_factor=2)
    character = CharacterFactory(
        campaign=campaign,
        owner=player,
        name="Lysandre",
        sheet__archetype=archetype,
        sheet__phy=8,
        sheet__pre=6,
    )
    rank = EwSpecialtyRank.objects.create(
        sheet=character.ew, specialty=EwSpecialtyFactory(name="Arme de poing"), level=2
    )
    character.pistol = rank.specialty
    return character
