"""Bad input in the admin is refused next to the field, in words naming it, and nothing is saved."""

import html
import re

import pytest
from django.urls import reverse

from apps.compendium import models as m

from . import factories as f

pytestmark = pytest.mark.django_db


def field_errors(response, field_id: str) -> list[str]:
    """The messages rendered in the error list tied to one input (``id_<name>_error``)."""
    pattern = rf'<ul class="errorlist[^"]*" id="id_{field_id}_error">(.*?)</ul>'
    match = re.search(pattern, response.text)
    items = re.findall(r"<li>(.*?)</li>", match[1]) if match else []
    return [html.unescape(item) for item in items]


def management(prefix: str, total: int = 0, initial: int = 0) -> dict[str, int]:
    return {
        f"{prefix}-TOTAL_FORMS": total,
        f"{prefix}-INITIAL_FORMS": initial,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": 1000,
    }


def add_url(model) -> str:
    return reverse(f"admin:compendium_{model._meta.model_name}_add")


def change_url(row) -> str:
    return reverse(f"admin:compendium_{row._meta.model_name}_change", args=[row.pk])


# --- Aethoria weapon: "X+Nd" out of range ----------------------------------------------------


def aethoria_weapon_data(skill, **values) -> dict:
    return {
        "name": "Fléau",
        "skill": skill.pk,
        "hands": 1,
        "damage_fixed": 3,
        "damage_dice": 2,
        "parry_value": 4,
        **values,
    }


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [("damage_dice", 11, "Dés de dégâts (N)"), ("damage_fixed", 21, "Dégâts fixes (X)")],
)
def test_a_weapon_with_damage_out_of_range_is_refused(staff_client, field, value, label):
    skill = f.AethoriaSkillFactory()
    response = staff_client.post(
        add_url(m.AethoriaWeapon), aethoria_weapon_data(skill, **{field: value})
    )
    assert response.status_code == 200
    [message] = field_errors(response, field)
    assert label in message and str(value) in message
    assert not m.AethoriaWeapon.objects.exists()


def test_a_valid_weapon_is_saved(staff_client):
    skill = f.AethoriaSkillFactory()
    response = staff_client.post(add_url(m.AethoriaWeapon), aethoria_weapon_data(skill))
    assert response.status_code == 302
    assert m.AethoriaWeapon.objects.get().damage == "3+2d"


def test_editing_a_weapon_out_of_range_leaves_it_as_it_was(staff_client):
    weapon = f.AethoriaWeaponFactory(damage_dice=3)
    data = aethoria_weapon_data(weapon.skill, name=weapon.name, damage_dice=12)
    response = staff_client.post(change_url(weapon), data)
    assert field_errors(response, "damage_dice")
    weapon.refresh_from_db()
    assert weapon.damage_dice == 3


def test_a_ranged_weapon_needs_increasing_range_bands(staff_client):
    skill = f.AethoriaSkillFactory()
    data = aethoria_weapon_data(
        skill,
        is_ranged="on",
        parry_value="",
        range_short=10,
        range_medium=30,
        range_long=20,
        range_extreme=100,
    )
    response = staff_client.post(add_url(m.AethoriaWeapon), data)
    assert field_errors(response, "range_long") == [
        "Chaque portée doit dépasser la précédente (30 m)."
    ]
    assert not m.AethoriaWeapon.objects.exists()


# --- EW archetype: a cost factor of 0 --------------------------------------------------------


def archetype_data(**values) -> dict:
    return {
        "name": "Pilote",
        "con_factor": 2,
        "com_factor": 2,
        "hab_factor": 1,
        "soc_factor": 2,
        "starting_specialty_level": 1,
        **management("aptitudes"),
        **values,
    }


def test_an_archetype_cost_factor_of_zero_is_refused(staff_client):
    response = staff_client.post(add_url(m.EwArchetype), archetype_data(com_factor=0))
    assert response.status_code == 200
    assert field_errors(response, "com_factor") == [
        "« Facteur com » doit être compris entre 1 et 5 (reçu : 0)."
    ]
    assert not m.EwArchetype.objects.exists()


def test_an_archetype_with_a_bad_aptitude_saves_neither(staff_client):
    data = archetype_data(
        **management("aptitudes", total=1),
        **{"aptitudes-0-name": "As du volant", "aptitudes-0-cost": 0, "aptitudes-0-effect": ""},
    )
    response = staff_client.post(add_url(m.EwArchetype), data)
    assert response.status_code == 200
    assert field_errors(response, "aptitudes-0-cost") == [
        "« Coût » doit être compris entre 1 et 20 (reçu : 0)."
    ]
    assert not m.EwArchetype.objects.exists()
    assert not m.EwAptitude.objects.exists()


def test_an_archetype_and_its_aptitudes_are_saved_together(staff_client):
    data = archetype_data(
        **management("aptitudes", total=1),
        **{"aptitudes-0-name": "As du volant", "aptitudes-0-cost": 3, "aptitudes-0-effect": "+2"},
    )
    assert staff_client.post(add_url(m.EwArchetype), data).status_code == 302
    archetype = m.EwArchetype.objects.get()
    assert [(a.name, a.cost) for a in archetype.aptitudes.all()] == [("As du volant", 3)]


# --- Other rules spanning fields -------------------------------------------------------------


def test_a_melee_weapon_with_an_impact_is_refused(staff_client):
    data = {"name": "Gourdin", "kind": "blunt", "damage_bonus": 1, "impact": 4}
    response = staff_client.post(add_url(m.EwWeapon), data)
    assert "Seules les armes à distance ont un impact" in field_errors(response, "impact")[0]
    assert not m.EwWeapon.objects.exists()


def test_a_restriction_must_give_points_back(staff_client):
    data = {"name": "Insomnie", "kind": "restriction", "cost": 2, "effect": ""}
    response = staff_client.post(add_url(m.EwTrait), data)
    assert "doit être négatif" in field_errors(response, "cost")[0]
    assert not m.EwTrait.objects.exists()


def test_an_armour_rd_out_of_range_is_refused_with_its_piece(staff_client):
    data = {
        "name": "Plastron",
        "description": "",
        **management("coverages", total=1),
        "coverages-0-location": "torso",
        "coverages-0-rd": 11,
    }
    response = staff_client.post(add_url(m.AethoriaArmourPiece), data)
    assert field_errors(response, "coverages-0-rd") == [
        "« RD » doit être compris entre 0 et 10 (reçu : 11)."
    ]
    assert not m.AethoriaArmourPiece.objects.exists()


def test_a_resolution_grid_with_a_bad_score_is_refused(staff_client):
    grid = m.formula_grid()
    grid[3][4] = 25
    text = "\n".join(" ".join(map(str, row)) for row in grid)
    response = staff_client.post(add_url(m.EwResolutionTable), {"name": "Livre", "grid": text})
    assert field_errors(response, "grid") == [
        "La case NA 3 / ND 4 doit être un score entre 1 et 20 (reçu : 25)."
    ]
    assert not m.EwResolutionTable.objects.exists()


def test_a_resolution_grid_typed_as_text_is_saved_as_rows(staff_client):
    table = f.EwResolutionTableFactory()
    grid = m.formula_grid()
    grid[10][10] = 12
    text = "\n".join(" ".join(map(str, row)) for row in grid)
    response = staff_client.post(
        change_url(table), {"name": table.name, "grid": text, "is_default": "on"}
    )
    assert response.status_code == 302
    assert m.EwResolutionTable.default_grid() == grid


def test_a_resolution_grid_with_words_is_refused(staff_client):
    response = staff_client.post(add_url(m.EwResolutionTable), {"name": "Livre", "grid": "10 dix"})
    assert field_errors(response, "grid") == ["Ligne 1 : seuls des scores entiers sont attendus."]


# --- Aethoria hit-location table: gaps and overlaps ------------------------------------------

CHANGELIST = reverse("admin:compendium_aethoriahitlocation_changelist")


def changelist_data(rows: list[m.AethoriaHitLocation], **changes: tuple[int, int]) -> dict:
    """The list_editable POST, with (low, high) changes by location."""
    data = {**management("form", total=len(rows), initial=len(rows)), "_save": "Enregistrer"}
    for index, row in enumerate(rows):
        low, high = changes.get(row.location, (row.low, row.high))
        data |= {f"form-{index}-id": row.pk, f"form-{index}-low": low, f"form-{index}-high": high}
    return data


def table() -> list[tuple[int, int, str]]:
    return m.AethoriaHitLocation.table()


def test_a_gap_in_the_hit_table_is_refused_and_nothing_saved(staff_client):
    rows = f.default_hit_table()
    before = table()
    response = staff_client.post(CHANGELIST, changelist_data(rows, torso=(3, 9)))
    assert response.status_code == 200
    assert field_errors(response, "form-2-low") == [
        "Aucune localisation pour le d20 10 : « Bras droit » devrait commencer à 10."
    ]
    assert "sans trou ni chevauchement" in response.text
    assert table() == before


def test_an_overlap_in_the_hit_table_is_refused_and_nothing_saved(staff_client):
    rows = f.default_hit_table()
    before = table()
    response = staff_client.post(CHANGELIST, changelist_data(rows, torso=(3, 11)))
    assert field_errors(response, "form-2-low") == [
        "« Bras droit » chevauche « Torse » sur le d20 11."
    ]
    assert table() == before


def test_moving_limits_of_the_whole_hit_table_at_once_is_saved(staff_client):
    rows = f.default_hit_table()
    response = staff_client.post(
        CHANGELIST, changelist_data(rows, torso=(3, 9), right_arm=(10, 13))
    )
    assert response.status_code == 302
    assert table()[1:3] == [(3, 9, "torso"), (10, 13, "right_arm")]


def test_changing_one_row_of_a_complete_hit_table_is_refused(staff_client):
    torso = f.default_hit_table()[1]
    data = {"location": "torso", "low": 3, "high": 12}
    response = staff_client.post(change_url(torso), data)
    assert field_errors(response, "low") == []
    assert "« Bras droit » chevauche « Torse » sur le d20 11–12." in response.text
    torso.refresh_from_db()
    assert (torso.low, torso.high) == (3, 10)


def test_an_incomplete_hit_table_can_be_built_row_by_row_but_never_overlap(staff_client):
    url = add_url(m.AethoriaHitLocation)
    assert staff_client.post(url, {"location": "head", "low": 1, "high": 2}).status_code == 302
    response = staff_client.post(url, {"location": "torso", "low": 2, "high": 10})
    assert field_errors(response, "low") == ["« Torse » chevauche « Tête » sur le d20 2."]
    assert staff_client.post(url, {"location": "torso", "low": 3, "high": 10}).status_code == 302
    assert table() == [(1, 2, "head"), (3, 10, "torso")]


def test_a_hit_range_ending_before_it_starts_is_refused(staff_client):
    response = staff_client.post(
        add_url(m.AethoriaHitLocation), {"location": "head", "low": 5, "high": 2}
    )
    assert field_errors(response, "high") == ["La plage finit avant de commencer (5 > 2)."]
    assert not m.AethoriaHitLocation.objects.exists()


def test_hit_locations_cannot_be_deleted_in_the_admin(staff_client):
    head = f.default_hit_table()[0]
    url = reverse("admin:compendium_aethoriahitlocation_delete", args=[head.pk])
    assert staff_client.post(url, {"post": "yes"}).status_code == 403
    assert m.AethoriaHitLocation.objects.count() == 6
