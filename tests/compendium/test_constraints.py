"""The database refuses impossible compendium rows, even from code that bypasses forms."""

import pytest
from django.db import IntegrityError, transaction

from apps.compendium import models as m

from . import factories as f

FULL_GRID = m.formula_grid()

IMPOSSIBLE = [
    (f.EwSpecialtyFactory, {"field": "xyz"}),
    (f.EwArchetypeFactory, {"com_factor": 0}),
    (f.EwArchetypeFactory, {"soc_factor": 6}),
    (f.EwArchetypeFactory, {"starting_specialty_level": 7}),
    (f.EwAptitudeFactory, {"cost": 0}),
    (f.EwTraitFactory, {"kind": "advantage", "cost": -2}),
    (f.EwTraitFactory, {"kind": "restriction", "cost": 3}),
    (f.EwTraitFactory, {"kind": "restriction", "cost": 0}),
    (f.EwPowerFactory, {"cost_per_level": 0}),
    (f.EwWeaponFactory, {"kind": "laser"}),
    (f.EwWeaponFactory, {"damage_bonus": 11}),
    (f.EwWeaponFactory, {"damage_bonus": -1}),
    (f.EwWeaponFactory, {"impact": 3}),  # a melee weapon with an impact
    (f.EwWeaponFactory, {"range_m": 20}),  # a melee weapon with a range
    (f.EwWeaponFactory, {"kind": "fists", "damage_bonus": 2}),
    (f.EwWeaponFactory, {"ranged": True, "impact": 0}),
    (f.EwWeaponFactory, {"ranged": True, "damage_bonus": 2}),
    (f.EwWeaponFactory, {"ranged": True, "range_m": None}),
    (f.EwWeaponFactory, {"ranged": True, "magazine": 0}),
    (f.EwArmourFactory, {"protection": 0}),
    (f.EwArmourFactory, {"protection": 11}),
    (f.EwResolutionTableFactory, {"grid": FULL_GRID[:20]}),
    (f.EwResolutionTableFactory, {"grid": [row[:20] for row in FULL_GRID]}),
    (f.EwResolutionTableFactory, {"grid": [[0, *row[1:]] for row in FULL_GRID]}),
    (f.EwResolutionTableFactory, {"grid": [[*row[:-1], 21] for row in FULL_GRID]}),
    (f.EwResolutionTableFactory, {"grid": [*FULL_GRID[:-1], [*FULL_GRID[-1], 1]]}),
    (f.EwResolutionTableFactory, {"grid": [["10", *row[1:]] for row in FULL_GRID]}),
    (f.EwResolutionTableFactory, {"grid": "table"}),
    (f.AethoriaSkillFactory, {"characteristic": "charisme"}),
    (f.AethoriaWeaponFactory, {"damage_dice": 11}),
    (f.AethoriaWeaponFactory, {"damage_dice": -1}),
    (f.AethoriaWeaponFactory, {"damage_fixed": 21}),
    (f.AethoriaWeaponFactory, {"damage_fixed": 0, "damage_dice": 0}),
    (f.AethoriaWeaponFactory, {"parry_value": 0}),
    (f.AethoriaWeaponFactory, {"parry_value": 11}),
    (f.AethoriaWeaponFactory, {"hands": 3}),
    (f.AethoriaWeaponFactory, {"range_short": 10}),  # melee with a range band
    (f.AethoriaWeaponFactory, {"ranged": True, "range_extreme": None}),
    (f.AethoriaWeaponFactory, {"ranged": True, "range_medium": 5}),  # shorter than short
    (f.AethoriaShieldFactory, {"parry_value": 0}),
    (f.AethoriaShieldFactory, {"parry_value": 11}),
    (f.AethoriaArmourCoverageFactory, {"rd": -1}),
    (f.AethoriaArmourCoverageFactory, {"rd": 11}),
    (f.AethoriaArmourCoverageFactory, {"location": "tail"}),
    (f.AethoriaHitLocationFactory, {"low": 0}),
    (f.AethoriaHitLocationFactory, {"high": 21}),
    (f.AethoriaHitLocationFactory, {"low": 12, "high": 11}),
    (f.AethoriaGodFactory, {"pouvoir": 0}),
    (f.AethoriaGodFactory, {"pouvoir": 10}),
]


def case_id(case) -> str:
    factory, values = case
    return f"{factory._meta.model.__name__}-" + "-".join(f"{k}={v}"[:20] for k, v in values.items())


@pytest.mark.django_db
@pytest.mark.parametrize("case", IMPOSSIBLE, ids=[case_id(case) for case in IMPOSSIBLE])
def test_the_database_refuses_an_impossible_row(case):
    factory, values = case
    model = factory._meta.model
    before = model.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        factory(**values)  # Model.objects.create: no form, no clean()
    assert model.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "factory", [f.EwSpecialtyFactory, f.AethoriaGodFactory, f.AethoriaWeaponFactory]
)
def test_names_are_unique(factory):
    factory(name="Même nom")
    with pytest.raises(IntegrityError), transaction.atomic():
        factory(name="Même nom")


@pytest.mark.django_db
def test_only_one_resolution_table_is_the_default():
    f.EwResolutionTableFactory(is_default=True)
    f.EwResolutionTableFactory(is_default=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        f.EwResolutionTableFactory(is_default=True)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", m.AETHORIA_SINGLE_KINDS)
def test_there_is_one_dodge_one_parry_and_one_magic_skill(kind):
    f.AethoriaSkillFactory(kind=kind)
    f.AethoriaSkillFactory(kind=m.AethoriaSkillKind.WEAPON)
    f.AethoriaSkillFactory(kind=m.AethoriaSkillKind.WEAPON)
    with pytest.raises(IntegrityError), transaction.atomic():
        f.AethoriaSkillFactory(kind=kind)


@pytest.mark.django_db
def test_a_location_is_listed_once_in_the_hit_table_and_once_per_armour_piece():
    f.AethoriaHitLocationFactory(location="head")
    with pytest.raises(IntegrityError), transaction.atomic():
        f.AethoriaHitLocationFactory(location="head", low=3, high=4)
    coverage = f.AethoriaArmourCoverageFactory(location="torso")
    with pytest.raises(IntegrityError), transaction.atomic():
        f.AethoriaArmourCoverageFactory(piece=coverage.piece, location="torso")


@pytest.mark.django_db
def test_a_valid_factory_row_passes_full_clean():
    # The boundaries the constraints allow are the ones clean() allows.
    for factory in f.FACTORIES.values():
        factory().full_clean()
