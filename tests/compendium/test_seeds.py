"""The project's seeds/ load the whole compendium, idempotently, with valid tables."""

from importlib import import_module
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

from apps.compendium import models as m
from apps.rules import aethoria, ew


def seed() -> str:
    out = StringIO()
    call_command("seed", stdout=out)
    return out.getvalue()


def compendium_state() -> list:
    """Every compendium row as plain values, to compare two loads."""
    state = []
    for model in sorted(
        (model for model in m.CompendiumModel.__subclasses__() if not model._meta.abstract),
        key=lambda model: model.__name__,
    ):
        state.append(list(model.objects.order_by("pk").values()))
    for archetype in m.EwArchetype.objects.order_by("pk"):
        state.append(sorted(archetype.starting_weapons.values_list("pk", flat=True)))
        state.append(sorted(archetype.starting_armours.values_list("pk", flat=True)))
    return state


@pytest.fixture
def seeded(db) -> str:
    return seed()


def test_a_second_load_changes_nothing(seeded):
    before = compendium_state()
    second = seed()
    assert " 0 created, 0 updated," in second
    assert compendium_state() == before


def test_ew_reference_data_is_complete(seeded):
    named = {"Baroudeur", "Investigateur", "Médecin", "Mercenaire"}
    assert named <= set(m.EwArchetype.objects.values_list("name", flat=True))
    for archetype in m.EwArchetype.objects.all():
        assert archetype.aptitudes.count() >= 2, archetype
        assert archetype.starting_specialty is not None, archetype
        assert archetype.starting_gear, archetype
    mercenaire = m.EwArchetype.objects.get(name="Mercenaire")
    assert mercenaire.field_factors() == ew.FieldFactors(con=3, com=1, hab=1, soc=2)
    assert set(mercenaire.starting_weapons.values_list("name", flat=True)) == {
        "Fusil d'assaut",
        "Pistolet",
        "Couteau",
    }
    for field in m.EwField.values:
        assert m.EwSpecialty.objects.filter(field=field).count() >= 8, field
    assert m.EwTrait.objects.filter(kind=m.EwTraitKind.ADVANTAGE).count() >= 5
    assert m.EwTrait.objects.filter(kind=m.EwTraitKind.RESTRICTION).count() >= 5
    assert m.EwPower.objects.count() >= 3
    weapons = set(m.EwWeapon.objects.values_list("name", flat=True))
    assert {"Poings", "Couteau", "Matraque", "Épée", "Arc", "Pistolet", "Fusil"} <= weapons
    assert m.EwArmour.objects.count() >= 3


def test_the_default_resolution_grid_is_the_formula(seeded):
    grid = m.EwResolutionTable.default_grid()
    assert grid == ew.ResolutionTable.default().to_rows()
    assert grid[10][10] == 10 and grid[0][20] == 1 and grid[20][0] == 19


def test_aethoria_reference_data_is_complete(seeded):
    kinds = dict(m.AethoriaSkill.objects.values_list("kind", "name"))
    assert kinds["dodge"] == "Esquive" and kinds["parry"] == "Parade" and kinds["magic"] == "Magie"
    assert m.AethoriaSkill.objects.filter(kind=m.AethoriaSkillKind.WEAPON).count() >= 7
    assert m.AethoriaGod.objects.count() == 12
    domains = set(m.AethoriaMagicDomain.objects.values_list("name", flat=True))
    assert {
        "Lévitation",
        "Télékinésie",
        "Télépathie",
        "Illusion",
        "Accroissement des capacités physiques",
    } < domains
    assert m.AethoriaShield.objects.count() >= 2
    two_handed = m.AethoriaWeapon.objects.get(name="Épée à deux mains")
    assert (two_handed.damage, two_handed.parry_value, two_handed.hands) == ("4+4d", 6, 2)
    bow = m.AethoriaWeapon.objects.get(name="Arc long")
    assert bow.is_ranged and bow.parry_value is None and bow.range_band(70) == "long"
    mail = m.AethoriaArmourPiece.objects.get(name="Cotte de mailles")
    assert mail.rd_by_location() == {
        "torso": 3,
        "right_arm": 2,
        "left_arm": 2,
        "right_leg": 1,
        "left_leg": 1,
    }


def test_the_hit_location_table_is_valid_and_the_rules_default(seeded):
    m.AethoriaHitLocation.validate_hit_table()
    table = m.AethoriaHitLocation.table()
    assert tuple(table) == aethoria.DEFAULT_HIT_LOCATIONS
    # A campaign can take it as its house rule as it is.
    assert aethoria.AethoriaHouseRules(hit_locations=tuple(table)).locations[0] == "head"


def test_the_gods_players_read_carry_no_note_for_the_gm(seeded):
    """A marqué's sheet shows its god's name (issue 29): "Dieu de la forge", not "Dieu de la
    forge (à renommer)"."""
    names = list(m.AethoriaGod.objects.values_list("name", flat=True))
    assert len(names) == 12 and "Dieu de la forge" in names
    assert not [name for name in names if "renommer" in name]


def test_the_gods_seeded_with_the_note_lose_it_unless_the_name_is_taken(db):
    drop_note = import_module("apps.compendium.migrations.0003_gods_named_for_players").drop_note
    god = {"domain": "Forge", "way_of_life": "Finir l'ouvrage."}
    m.AethoriaGod.objects.create(name="Dieu de la forge (à renommer)", **god)
    m.AethoriaGod.objects.create(name="Dieu de la mer (à renommer)", **god)
    m.AethoriaGod.objects.create(name="Dieu de la mer", **god)  # the GM's own god
    drop_note(apps, None)
    names = set(m.AethoriaGod.objects.values_list("name", flat=True))
    assert names == {"Dieu de la forge", "Dieu de la mer (à renommer)", "Dieu de la mer"}
