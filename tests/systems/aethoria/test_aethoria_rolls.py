"""Aethoria spells, tests and fatigue dice (before and after the roll), through HTTP."""

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSheet
from tests.encounters.factories import aethoria_fighter
from tests.systems.aethoria.support import (
    aethoria_table,  # noqa: F401 - the `table` fixture
    errors,
    last,
    post,
    snapshot,
    start,
    state,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mage(table):
    # A doué: Pouvoir 7, Magie 3; fatigue 10 physical (Force 5 + Vitalité 5), 8 mental.
    maelle = aethoria_fighter(
        table["campaign"], "Maëlle", magic_type="doue", pouvoir=7, magie=3, esquive=0
    )
    table["maelle"] = maelle
    return maelle


def start_with_mage(table):
    response = post(
        table,
        "combatants_add",
        {"characters": [table["maelle"].pk, table["brandon"].pk]},
    )
    assert response.status_code == 200
    m = table["encounter"].combatants.get(character=table["maelle"])
    b = table["encounter"].combatants.get(character=table["brandon"])
    post(table, "start", {f"face_{m.pk}": 18, f"face_{b.pk}": 3})
    return m, b


def sheet(character) -> AethoriaSheet:
    return AethoriaSheet.objects.get(pk=character.pk)


def test_spell_with_an_erys_burn_costs_fatigue_and_pv(table, mage):
    m, _b = start_with_mage(table)
    at_start = state(table)
    response = table["client"].get(
        reverse("encounters:aethoria_spell_odds", args=[table["encounter"].pk]),
        {"version": table["encounter"].version, "caster": m.pk, "invested": 4, "difficulty": 2},
        HTTP_HX_REQUEST="true",
    )
    # Burn: every one of 3 dice at or under 4, (4/10)^3 = 6.4 %.
    assert "6,4 %" in response.text or "6.4 %" in response.text
    # Magie 3 under the Pouvoir invested 4: 1 2 3 -> 2 + 1 + 1 = 4 successes, all succeed.
    response = post(
        table,
        "aethoria_spell",
        {"caster": m.pk, "invested": 4, "difficulty": 2, "label": "Lévitation", "faces": "1 2 3"},
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_spell")
    assert event.data["verdict"]["success"] and event.data["burn"]
    s = sheet(mage)
    # ceil(4 / 3) = 2 of each fatigue pool; the burn costs 4 PV (armour never applies).
    assert (s.pv, s.fatigue_physical, s.fatigue_mental) == (20 - 4, 10 - 2, 8 - 2)
    assert "brûlure d&#x27;érys : 4 PV" in response.text or "brûlure d'érys : 4 PV" in response.text
    # Spell fatigue dice after the roll: a failing die means not every die succeeded.
    response = post(table, "aethoria_fatigue", {"event": event.pk, "count": 1, "faces": "9"})
    assert not errors(response), errors(response)
    s = sheet(mage)
    assert (s.pv, s.fatigue_mental) == (20, 8 - 2 - 1)
    assert "plus de brûlure" in response.text
    # The roll named by what it was, never by a step number.
    assert "1 dé de fatigue à son jet (Lévitation)" in response.text
    assert "n°" not in response.text
    # Undo the fatigue dice, then the spell: pools, turn and states as at the start.
    response = post(table, "undo")
    assert sheet(mage).pv == 20 - 4
    assert "Annulé : Maëlle ajoute 1 dé de fatigue à son jet (Lévitation)" in response.text
    response = post(table, "undo")
    assert state(table) == at_start
    assert "Annulé : Maëlle lance Lévitation" in response.text
    response = post(table, "redo")
    assert "Rétabli : Maëlle lance Lévitation" in response.text


def test_spell_with_fatigue_dice_before_and_only_a_doue_casts_in_combat(table, mage):
    m, b = start_with_mage(table)
    response = post(
        table,
        "aethoria_spell",
        {
            "caster": m.pk,
            "invested": 7,
            "difficulty": 3,
            "fatigue": 2,
            "faces": "8 9 10",
            "fatigue_faces": "1 2",
        },
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_spell")
    assert event.data["roll"]["fatigue_faces"] == [1, 2] and event.data["verdict"]["successes"] == 3
    assert not event.data["burn"]
    s = sheet(mage)
    # 2 fatigue dice then ceil(7 / 3) = 3 of each pool.
    assert (s.fatigue_physical, s.fatigue_mental) == (10 - 3, 8 - 2 - 3)
    # Already decided before: no fatigue after on this roll.
    before = snapshot(table)
    response = post(table, "aethoria_fatigue", {"event": event.pk, "count": 1})
    assert "une seule fois" in response.text
    assert snapshot(table) == before
    # Brandon is no mage.
    post(table, "next_turn")
    before = snapshot(table)
    response = post(table, "aethoria_spell", {"caster": b.pk, "invested": 1, "difficulty": 1})
    assert "ne pratique pas la magie" in response.text
    assert snapshot(table) == before


def test_generic_test_with_fatigue_after_the_roll_once(table):
    _y, b = start(table)
    # Adresse as a characteristic test: 6 dice at 6. All fail: 0 vs 3, much lower.
    response = post(
        table,
        "aethoria_test",
        {"combatant": b.pk, "source": "adresse", "difficulty": 3, "faces": "7 8 9 10 7 8"},
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_test")
    assert not event.data["verdict"]["success"] and event.data["verdict"]["much_lower"]
    assert "très en dessous" in response.text
    response = post(table, "aethoria_fatigue", {"event": event.pk, "count": 2, "faces": "1 1"})
    assert not errors(response), errors(response)
    after = last(table, "aethoria_fatigue")
    assert after.data["verdict"]["success"] and after.data["verdict"]["successes"] == 4
    assert sheet(table["brandon"]).fatigue_physical == 10 - 2
    before = snapshot(table)
    response = post(table, "aethoria_fatigue", {"event": event.pk, "count": 1, "faces": "1"})
    assert "une seule fois" in response.text
    assert snapshot(table) == before


def test_skill_test_under_a_swapped_characteristic_with_fatigue_before(table):
    y, _b = start(table)
    skill = table["ysolde"].aethoria.skills.select_related("skill").get(skill__kind="weapon").skill
    response = post(
        table,
        "aethoria_test",
        {
            "combatant": y.pk,
            "source": f"skill:{skill.pk}",
            "characteristic": "esprit",
            "difficulty": 2,
            "fatigue": 1,
            "faces": "4 4 5 5",
            "fatigue_faces": "1",
        },
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_test")
    # Rank 4 under Esprit 4: 4 4 -> 2, plus the fatigue die 1 -> 2: 4 successes.
    assert event.data["roll"]["threshold"] == 4 and event.data["verdict"]["successes"] == 4
    # Esprit is mental: the mental pool pays.
    assert sheet(table["ysolde"]).fatigue_mental == 8 - 1


def test_fatigue_the_pool_cannot_pay_is_refused_with_nothing_changed(table):
    s = sheet(table["ysolde"])
    s.fatigue_physical = 1
    s.save()
    y, _b = start(table)
    before = snapshot(table)
    response = post(
        table,
        "aethoria_test",
        {"combatant": y.pk, "source": "force", "difficulty": 1, "fatigue": 2},
    )
    assert "Fatigue physique insuffisante" in response.text
    assert snapshot(table) == before
    response = post(table, "aethoria_test", {"combatant": y.pk, "source": "force", "difficulty": 1})
    event = last(table, "aethoria_test")
    response = post(table, "aethoria_fatigue", {"event": event.pk, "count": 3})
    assert "Fatigue physique insuffisante" in response.text
    assert state(table) == before[0]
