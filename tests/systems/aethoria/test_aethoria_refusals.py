"""Bad input on the Aethoria console: a clear message next to the field, nothing changed."""

import pytest

from apps.characters.models import AethoriaSheet
from apps.encounters.models import Combatant
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    attack,
    errors,
    post,
    snapshot,
    start,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"attack_faces": "1 2 11 3"}, "Un d10 donne de 1 à 10."),
        ({"attack_faces": "1 2 0 3"}, "Un d10 donne de 1 à 10."),
        ({"attack_faces": "1 deux"}, "Tapez les faces en chiffres"),
        ({"location_faces": "21"}, "Un d20 donne de 1 à 20."),
        ({"attack_faces": "1 2"}, "Attaque : il faut exactement 4 d10 (reçu : 2)."),
        ({"location_faces": "3 4"}, "Localisation : il faut exactement 1 d20 (reçu : 2)."),
        (
            {"defence": "dodge", "defence_faces": "1 2 3 4"},
            "Défense : il faut exactement 3 d10 (reçu : 4).",
        ),
        ({"defence_faces": "1 2 3"}, "Pas de défense choisie"),
        ({"fatigue": 2, "fatigue_faces": "1"}, "Dés de fatigue : il faut exactement 2 d10"),
        (
            {"attack_faces": "1 1 1 1", "location_faces": "12", "damage_faces": "1"},
            "il faut exactement 5 d10",
        ),
        ({"mode": "double"}, "seconde arme"),
        ({"defence_fatigue": 1}, "pas de dés de fatigue de défense"),
        ({"range_band": "medium", "covered": ["nowhere"]}, "Sélectionnez un choix valide"),
        ({"defence": "parry", "parry_with": ""}, "Choisissez l'arme ou le bouclier qui pare."),
        ({"defence": "parry", "parry_with": "999"}, "Sélectionnez un choix valide"),
    ],
)
def test_bad_attack_input_is_refused_with_nothing_changed(table, fields, message):
    y, b = start(table)
    before = snapshot(table)
    response = attack(table, y, b, **fields)
    assert response.status_code == 200
    shown = [e for e in errors(response) if message in e.replace("&#x27;", "'")]
    assert len(shown) == 1, errors(response)  # next to its field, not again under the form
    assert snapshot(table) == before


def test_a_fatigue_spend_the_pool_cannot_pay_is_refused(table):
    sheet = AethoriaSheet.objects.get(pk=table["ysolde"].pk)
    sheet.fatigue_physical = 1
    sheet.save()
    y, b = start(table)
    before = snapshot(table)
    response = attack(table, y, b, fatigue=2)
    assert "Fatigue physique insuffisante : 2 demandé(s), 1 restant(s)." in response.text
    assert snapshot(table) == before


def test_only_the_acting_combatant_may_attack(table):
    y, b = start(table)
    before = snapshot(table)
    response = attack(table, b, y, attack_faces="1 1 1 1", location_faces="3")
    assert "pas son tour" in response.text
    assert snapshot(table) == before
    response = post(table, "aethoria_special", {"combatant": b.pk, "action": "defense"})
    assert "pas son tour" in response.text
    assert snapshot(table) == before


def test_a_dead_target_cannot_be_attacked(table):
    y, b = start(table)
    sheet = AethoriaSheet.objects.get(pk=table["brandon"].pk)
    sheet.pv = -5  # dead at -Vitalité
    sheet.save()
    before = snapshot(table)
    response = attack(table, y, b, attack_faces="1 1 1 1")
    assert "déjà mort" in response.text
    assert snapshot(table) == before


def test_a_target_from_another_encounter_is_refused(table, client):
    y, _b = start(table)
    other = Combatant.objects.exclude(encounter=table["encounter"]).first()
    before = snapshot(table)
    response = table["client"].post(
        url("aethoria_attack", table["encounter"]),
        {
            "version": table["encounter"].version,
            "attacker": y.pk,
            "target": other.pk if other else 999999,
            "mode": "attack",
            "weapon": table["ysolde"].aethoria.weapons.first().pk,
            "defence": "none",
        },
        **HTMX,
    )
    assert errors(response)
    assert snapshot(table) == before


def test_an_out_target_cannot_defend_and_no_defence_left_is_refused(table):
    y, b = start(table)
    b.refresh_from_db()
    Combatant.objects.filter(pk=b.pk).update(state={**b.state, "defences": 0})
    before = snapshot(table)
    response = attack(table, y, b, defence="dodge")
    assert "Plus assez de défenses : 1 demandée(s), 0 disponible(s)." in response.text
    assert snapshot(table) == before
    sheet = AethoriaSheet.objects.get(pk=table["brandon"].pk)
    sheet.pv = 0
    sheet.save()
    before = snapshot(table)
    response = attack(table, y, b, defence="dodge")
    assert "hors de combat : pas de défense" in response.text
    assert snapshot(table) == before


def test_a_stale_version_gets_409_and_nothing_changes(table):
    y, b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    data = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.first().pk,
        "defence": "none",
        "attack_faces": "9 9 9 9",
        "location_faces": "3",
    }
    first = table["client"].post(url("aethoria_attack", encounter), data, **HTMX)
    assert first.status_code == 200
    before = snapshot(table)
    second = table["client"].post(url("aethoria_attack", encounter), data, **HTMX)
    assert second.status_code == 409
    assert snapshot(table) == before


def test_severe_effect_dismissed_changes_nothing_but_the_log_and_is_undoable(table):
    y, b = start(table)
    attack(table, y, b, attack_faces="1 1 1 1", location_faces="3", damage_faces="1 1 1 1 1")
    event = table["encounter"].events.get(kind="aethoria_attack")
    # 2 fixed + 10 = 12 - RD 2 = 10 >= 2 x Vitalité: fracture proposed on the torso.
    assert event.data["blows"][0]["severe"] == "fracture"
    before = snapshot(table)
    response = post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "dismiss"})
    assert "écarte" in response.text
    assert snapshot(table)[0] == before[0]
    response = post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "confirm"})
    assert "déjà été décidé" in response.text
    post(table, "undo")
    response = post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "confirm"})
    b.refresh_from_db()
    fracture = {"kind": "fracture", "location": "torso", "label": "fracture : torse"}
    assert b.state["effects"] == [fracture]
    assert "fracture : torse" in response.text  # on the row, in the viewer's language
    table["gm"].language = "en"
    table["gm"].save()
    assert "fracture: torso" in table["client"].get(url("console", table["encounter"])).text
    post(table, "undo")
    b.refresh_from_db()
    assert "effects" not in b.state


def test_instant_death_confirmed_sets_pv_to_the_death_threshold(table):
    y, b = start(table)
    epee = table["ysolde"].aethoria.weapons.first()
    epee.damage_dice = 6
    epee.save()
    # Net 7 -> 3 bonus dice: 9 dice of 1 = 18 + 2 = 20 on the head (no RD) >= 3 x 5.
    attack(
        table,
        y,
        b,
        attack_faces="1 1 1 2",
        location_faces="1",
        damage_faces="1 1 1 1 1 1 1 1 1",
    )
    event = table["encounter"].events.get(kind="aethoria_attack")
    assert event.data["blows"][0]["severe"] == "instant_death"
    post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "confirm"})
    assert AethoriaSheet.objects.get(pk=table["brandon"].pk).pv == -5


def test_another_action_needs_words_and_a_viser_needs_a_target(table):
    y, _b = start(table)
    before = snapshot(table)
    response = post(table, "aethoria_special", {"combatant": y.pk, "action": "other"})
    assert "Décrivez l&#x27;action." in response.text or "Décrivez l'action." in response.text
    response = post(table, "aethoria_special", {"combatant": y.pk, "action": "viser"})
    assert "Viser demande une cible" in response.text
    assert snapshot(table) == before
    response = post(
        table, "aethoria_special", {"combatant": y.pk, "action": "other", "note": "ouvre la porte"}
    )
    assert "Ysolde : ouvre la porte." in response.text
