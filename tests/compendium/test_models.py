"""Compendium rows: natural keys, snapshots for the logs, rules inputs, the two tables."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db.models import ProtectedError
from django.urls import reverse

from apps.compendium import models as m
from apps.rules import aethoria, ew

from . import factories as f


@pytest.mark.django_db
@pytest.mark.parametrize("model", list(f.FACTORIES), ids=lambda model: model.__name__)
def test_a_row_is_found_again_by_its_natural_key(model):
    row = f.FACTORIES[model]()
    key = row.natural_key()
    assert all(isinstance(part, str) for part in key)
    assert model.objects.get_by_natural_key(*key) == row


def test_the_choices_use_the_rules_engine_names():
    assert tuple(m.EwField.values) == ew.FIELDS
    assert tuple(m.AethoriaCharacteristic.values) == aethoria.CHARACTERISTICS
    assert {loc for _, _, loc in aethoria.DEFAULT_HIT_LOCATIONS} == set(m.AethoriaLocation.values)
    assert tuple(band for band, _ in aethoria.DEFAULT_RANGE_BAND_MALUS) == m.RANGE_BANDS


# --- History: a snapshot taken before an edit is what the log keeps ---------------------------


@pytest.mark.django_db
def test_an_ew_weapon_snapshot_does_not_follow_later_edits():
    weapon = f.EwWeaponFactory(ranged=True, name="Pistolet", impact=5)
    logged = weapon.rules_snapshot()
    expected = dict(logged)
    weapon.impact, weapon.name = 9, "Pistolet lourd"
    weapon.save()
    weapon.refresh_from_db()
    assert logged == expected
    assert logged["impact"] == 5 and logged["rules_kind"] == "ranged"
    assert weapon.rules_snapshot()["impact"] == 9


@pytest.mark.django_db
def test_an_aethoria_weapon_snapshot_does_not_follow_later_edits():
    weapon = f.AethoriaWeaponFactory(ranged=True, damage_fixed=3, damage_dice=3)
    logged = weapon.rules_snapshot()
    weapon.damage_dice, weapon.range_long = 5, 70
    weapon.save()
    assert logged["damage"] == "3+3d"
    assert logged["range_bands"] == {"short": 10, "medium": 30, "long": 60, "extreme": 100}


@pytest.mark.django_db
def test_armour_snapshots_do_not_follow_later_edits():
    coverage = f.AethoriaArmourCoverageFactory(location="torso", rd=3)
    piece_log = coverage.piece.rules_snapshot()
    coverage.rd = 5
    coverage.save()
    f.AethoriaArmourCoverageFactory(piece=coverage.piece, location="head", rd=1)
    armour = f.EwArmourFactory(protection=2)
    armour_log = armour.rules_snapshot()
    armour.protection = 6
    armour.save()
    assert piece_log == {"name": coverage.piece.name, "rd": {"torso": 3}}
    assert armour_log["protection"] == 2
    assert m.AethoriaArmourPiece.objects.get().rules_snapshot()["rd"] == {"head": 1, "torso": 5}


# --- Rules inputs -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "values", "rules_kind", "impact_phy_8"),
    [
        ("fists", {"damage_bonus": 0}, ew.FISTS, 2),
        ("blunt", {"damage_bonus": 1}, ew.MELEE, 3),
        ("bladed", {"damage_bonus": 3}, ew.MELEE, 5),
        ("firearm", {"damage_bonus": 0, "impact": 6, "range_m": 25}, ew.RANGED, 6),
        ("bow", {"damage_bonus": 0, "impact": 4, "range_m": 100}, ew.RANGED, 4),
        ("thrown", {"damage_bonus": 0, "impact": 2, "range_m": 10}, ew.RANGED, 2),
    ],
)
def test_an_ew_weapon_becomes_the_rules_weapon(kind, values, rules_kind, impact_phy_8):
    weapon = f.EwWeaponFactory(kind=kind, **values)
    rules_weapon = weapon.as_rules_weapon()
    assert rules_weapon.kind == rules_kind
    assert ew.weapon_impact(rules_weapon, attacker_phy=8) == impact_phy_8


@pytest.mark.django_db
def test_an_archetype_gives_its_factors_and_aptitudes_to_the_rules():
    archetype = f.EwArchetypeFactory(con_factor=1, com_factor=3, hab_factor=2, soc_factor=2)
    aptitude = f.EwAptitudeFactory(archetype=archetype, name="Diagnostic", cost=2)
    assert archetype.factor("com") == 3
    assert archetype.field_factors() == ew.FieldFactors(con=1, com=3, hab=2, soc=2)
    assert aptitude.as_rules_choice() == ew.AptitudeChoice(name="Diagnostic", cost=2)
    trait = f.EwTraitFactory(kind="restriction", cost=-3)
    assert trait.as_rules_choice().cost == -3
    assert f.EwPowerFactory(cost_per_level=4).as_rules_choice(2).cost_per_level == 4


@pytest.mark.django_db
def test_aethoria_weapons_shields_and_armour_become_rules_inputs():
    sword = f.AethoriaWeaponFactory(damage_fixed=4, damage_dice=4, parry_value=6, hands=2)
    assert sword.as_rules_weapon() == aethoria.AethoriaWeapon.from_notation(
        "4+4d", name=sword.name, parry=6, hands=2
    )
    shield = f.AethoriaShieldFactory(parry_value=7).as_rules_weapon()
    assert shield.shield and shield.parry == 7 and shield.dice == 0
    piece = f.AethoriaArmourPieceFactory()
    for location, rd in (("torso", 3), ("right_arm", 2), ("left_arm", 2)):
        f.AethoriaArmourCoverageFactory(piece=piece, location=location, rd=rd)
    pieces = piece.as_rules_pieces()
    assert aethoria.location_rd(pieces, "torso") == 3
    assert aethoria.location_rd(pieces, "left_arm") == 2
    assert aethoria.location_rd(pieces, "head") == 0


@pytest.mark.parametrize(
    ("fixed", "dice", "notation"), [(4, 4, "4+4d"), (0, 2, "2d"), (3, 0, "3"), (0, 1, "1d")]
)
def test_damage_is_written_as_in_the_source_and_read_back_by_the_rules(fixed, dice, notation):
    assert m.damage_notation(fixed, dice) == notation
    assert aethoria.parse_damage(notation) == (fixed, dice)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("distance", "band"),
    [(1, "short"), (10, "short"), (11, "medium"), (100, "extreme"), (101, None)],
)
def test_a_ranged_weapon_says_which_band_a_distance_falls_in(distance, band):
    assert f.AethoriaWeaponFactory(ranged=True).range_band(distance) == band


# --- Reference data other rows rely on is protected -------------------------------------------


@pytest.mark.django_db
def test_deleting_a_skill_or_specialty_still_in_use_is_refused():
    weapon = f.AethoriaWeaponFactory()
    with pytest.raises(ProtectedError):
        weapon.skill.delete()
    ew_weapon = f.EwWeaponFactory()
    with pytest.raises(ProtectedError):
        ew_weapon.specialty.delete()
    archetype = f.EwArchetypeFactory()
    with pytest.raises(ProtectedError):
        archetype.starting_specialty.delete()


# --- The EW resolution grid -------------------------------------------------------------------


@pytest.mark.django_db
def test_without_a_default_table_a_campaign_gets_the_formula():
    f.EwResolutionTableFactory(grid=[[20] * 21] * 21, is_default=False)
    grid = m.EwResolutionTable.default_grid()
    assert len(grid) == 21 and all(len(row) == 21 for row in grid)
    assert grid == [[ew.default_table_score(na, nd) for nd in range(21)] for na in range(21)]


@pytest.mark.django_db
def test_the_default_table_is_copied_not_shared():
    f.EwResolutionTableFactory(is_default=True)
    copy = m.EwResolutionTable.default_grid()
    copy[0][0] = 20
    assert m.EwResolutionTable.default_grid()[0][0] == 10
    assert ew.ResolutionTable.from_grid(copy).score(0, 0) == 20


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([[10] * 21] * 20, "au moins 21 lignes"),
        ([[10] * 20] * 21, "au moins 21 colonnes"),
        ([[10] * 21] * 20 + [[10] * 22], "La ligne NA 20 a 22 cases au lieu de 21."),
        ([[10] * 21] * 20 + [[10] * 20 + [0]], "La case NA 20 / ND 20 doit être un score"),
        ("table", "liste de lignes"),
    ],
)
def test_a_bad_grid_is_explained(grid, message):
    problems = m.grid_errors(grid)
    assert problems and message in problems[0]


def test_the_formula_grid_is_valid():
    assert m.grid_errors(m.formula_grid()) == []


# --- The Aethoria hit-location table ----------------------------------------------------------

DEFAULT = list(aethoria.DEFAULT_HIT_LOCATIONS)


def test_the_default_hit_table_has_no_problem():
    assert m.hit_table_problems(DEFAULT) == []
    assert m.hit_table_problems(list(reversed(DEFAULT))) == []
    m.AethoriaHitLocation.validate_hit_table(DEFAULT)


@pytest.mark.parametrize(
    ("rows", "kind", "message"),
    [
        ([(2, 20, "torso")], "gap", "Aucune localisation pour le d20 1 : « Torse » devrait"),
        ([(1, 18, "torso")], "gap", "Aucune localisation pour le d20 19–20."),
        ([(1, 10, "torso"), (12, 20, "head")], "gap", "d20 11 : « Tête » devrait commencer à 11"),
        ([(1, 10, "torso"), (10, 20, "head")], "overlap", "« Tête » chevauche « Torse »"),
        ([(1, 20, "torso"), (5, 6, "head")], "overlap", "sur le d20 5–6."),
        ([], "empty", "vide"),
    ],
)
def test_gaps_and_overlaps_are_named(rows, kind, message):
    [problem] = m.hit_table_problems(rows)
    assert problem.kind == kind
    assert message in problem.message


def test_validate_hit_table_refuses_a_broken_table():
    with pytest.raises(ValidationError, match="chevauche"):
        m.AethoriaHitLocation.validate_hit_table([(1, 10, "torso"), (10, 20, "head")])


@pytest.mark.django_db
def test_a_logged_snapshot_survives_an_admin_edit_and_fits_in_json(staff_client):
    weapon = f.AethoriaWeaponFactory(damage_fixed=3, damage_dice=3, parry_value=6)
    logged = json.loads(json.dumps(weapon.rules_snapshot()))  # what a log line stores
    url = reverse("admin:compendium_aethoriaweapon_change", args=[weapon.pk])
    data = {"name": weapon.name, "skill": weapon.skill.pk, "hands": 1, "damage_fixed": 5}
    data |= {"damage_dice": 4, "parry_value": 4}
    assert staff_client.post(url, data).status_code == 302
    weapon.refresh_from_db()
    assert weapon.damage == "5+4d"
    assert (logged["damage"], logged["parry_value"]) == ("3+3d", 6)
