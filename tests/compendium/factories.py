"""Compendium factories: minimal valid rows of every model."""

import factory

from apps.compendium import models as m


class EwSpecialtyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwSpecialty

    name = factory.Sequence(lambda n: f"Spécialité {n}")
    field = m.EwField.COM


class EwArchetypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwArchetype

    name = factory.Sequence(lambda n: f"Archétype {n}")
    starting_specialty = factory.SubFactory(EwSpecialtyFactory)


class EwAptitudeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwAptitude

    archetype = factory.SubFactory(EwArchetypeFactory)
    name = factory.Sequence(lambda n: f"Aptitude {n}")
    cost = 2


class EwTraitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwTrait

    name = factory.Sequence(lambda n: f"Trait {n}")
    kind = m.EwTraitKind.ADVANTAGE
    cost = 2


class EwPowerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwPower

    name = factory.Sequence(lambda n: f"Pouvoir {n}")
    cost_per_level = 3


class EwWeaponFactory(factory.django.DjangoModelFactory):
    """A melee weapon; `ranged=True` gives a firearm with impact and range."""

    class Meta:
        model = m.EwWeapon

    class Params:
        ranged = factory.Trait(
            kind=m.EwWeaponKind.FIREARM, damage_bonus=0, impact=5, range_m=25, magazine=8
        )

    name = factory.Sequence(lambda n: f"Arme EW {n}")
    kind = m.EwWeaponKind.BLADED
    specialty = factory.SubFactory(EwSpecialtyFactory)
    damage_bonus = 1


class EwArmourFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwArmour

    name = factory.Sequence(lambda n: f"Armure EW {n}")
    protection = 2


class EwResolutionTableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.EwResolutionTable

    name = factory.Sequence(lambda n: f"Table {n}")


class AethoriaSkillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaSkill

    name = factory.Sequence(lambda n: f"Compétence {n}")
    characteristic = m.AethoriaCharacteristic.ADRESSE
    kind = m.AethoriaSkillKind.WEAPON


class AethoriaWeaponFactory(factory.django.DjangoModelFactory):
    """A one-handed melee weapon; `ranged=True` gives a bow with its four range bands."""

    class Meta:
        model = m.AethoriaWeapon

    class Params:
        ranged = factory.Trait(
            is_ranged=True,
            hands=2,
            parry_value=None,
            range_short=10,
            range_medium=30,
            range_long=60,
            range_extreme=100,
        )

    name = factory.Sequence(lambda n: f"Arme Aethoria {n}")
    skill = factory.SubFactory(AethoriaSkillFactory)
    damage_fixed = 2
    damage_dice = 2
    parry_value = 5


class AethoriaShieldFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaShield

    name = factory.Sequence(lambda n: f"Bouclier {n}")
    parry_value = 6


class AethoriaArmourPieceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaArmourPiece

    name = factory.Sequence(lambda n: f"Pièce {n}")


class AethoriaArmourCoverageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaArmourCoverage

    piece = factory.SubFactory(AethoriaArmourPieceFactory)
    location = m.AethoriaLocation.TORSO
    rd = 2


class AethoriaHitLocationFactory(factory.django.DjangoModelFactory):
    """One row of the default table, location by location (six rows at most: one each)."""

    class Meta:
        model = m.AethoriaHitLocation

    location = factory.Iterator(m.AethoriaLocation.values)
    low = factory.LazyAttribute(lambda row: DEFAULT_TABLE[row.location][0])
    high = factory.LazyAttribute(lambda row: DEFAULT_TABLE[row.location][1])


DEFAULT_TABLE = {
    "head": (1, 2),
    "torso": (3, 10),
    "right_arm": (11, 13),
    "left_arm": (14, 16),
    "right_leg": (17, 18),
    "left_leg": (19, 20),
}


def default_hit_table() -> list[m.AethoriaHitLocation]:
    """The six rows of the source's table, 1–2 head … 19–20 left leg."""
    return [AethoriaHitLocationFactory(location=location) for location in DEFAULT_TABLE]


class AethoriaGodFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaGod

    name = factory.Sequence(lambda n: f"Dieu {n}")
    domain = "Forge"
    way_of_life = "Ne jamais laisser un ouvrage inachevé."


class AethoriaMagicDomainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AethoriaMagicDomain

    name = factory.Sequence(lambda n: f"Domaine {n}")


FACTORIES = {
    factory_class._meta.model: factory_class
    for factory_class in (
        EwSpecialtyFactory,
        EwArchetypeFactory,
        EwAptitudeFactory,
        EwTraitFactory,
        EwPowerFactory,
        EwWeaponFactory,
        EwArmourFactory,
        EwResolutionTableFactory,
        AethoriaSkillFactory,
        AethoriaWeaponFactory,
        AethoriaShieldFactory,
        AethoriaArmourPieceFactory,
        AethoriaArmourCoverageFactory,
        AethoriaHitLocationFactory,
        AethoriaGodFactory,
        AethoriaMagicDomainFactory,
    )
}
