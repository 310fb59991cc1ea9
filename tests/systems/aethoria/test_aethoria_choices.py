"""The GM's choices on the Aethoria console: a lost aim, extra successes kept for a special
capability, a prepared action fired as what was prepared, and the dice fields."""

import re

import pytest

from apps.rules import aethoria
from tests.encounters.factories import aethoria_fighter
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    attack,
    errors,
    last,
    post,
    snapshot,
    start,
    state,
    url,
)

pytestmark = pytest.mark.django_db


def console(table):
    return table["client"].get(url("console", table["encounter"]), **HTMX)


def text(response) -> str:
    return response.text.replace("&#x27;", "'")


# --- Viser: the target gets out of reach ------------------------------------------------------


def test_the_target_out_of_reach_loses_the_aim_bonus_and_undo_restores_it(table):
    y, b = start(table)
    post(table, "aethoria_special", {"combatant": y.pk, "action": "viser", "target": b.pk})
    post(table, "next_turn")
    post(table, "next_turn")
    y.refresh_from_db()
    assert y.state["aim_ready"]
    response = console(table)
    assert "Visées en cours" in response.text and "Ysolde vise Brandon" in response.text
    aiming = state(table)
    response = post(table, "aethoria_aim_lost", {"combatant": y.pk})
    assert response.status_code == 200
    y.refresh_from_db()
    assert y.state["aim_target"] is None and not y.state["aim_ready"]
    assert "Brandon passe hors d'atteinte : Ysolde perd sa visée." in text(response)
    assert "Visées en cours" not in response.text
    # No bonus any more: 4 dice, not 7.
    attack(table, y, b, attack_faces="9 9 9 9", location_faces="12")
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["attack"]["dice"] == 4
    post(table, "undo")
    post(table, "undo")
    assert state(table) == aiming


def test_losing_an_aim_nobody_has_is_refused_with_nothing_changed(table):
    y, _b = start(table)
    before = snapshot(table)
    response = post(table, "aethoria_aim_lost", {"combatant": y.pk})
    assert "Ysolde ne vise personne." in response.text
    assert snapshot(table) == before


# --- Extra successes kept for a special capability --------------------------------------------


def test_extra_successes_kept_for_a_capability_buy_no_damage_die(table):
    y, b = start(table)
    # 1 1 1 2 -> 7 successes, net 7: converted, 3 bonus dice; kept, none and 6 kept.
    response = attack(
        table,
        y,
        b,
        extra_successes="keep",
        attack_faces="1 1 1 2",
        location_faces="12",
        damage_faces="10 10",
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_attack")
    blow = event.data["blows"][0]
    assert not event.data["convert"]
    assert blow["outcome"]["bonus_dice"] == 0 and blow["outcome"]["kept_successes"] == 6
    assert blow["damage"]["dice"] == 2 and blow["damage"]["total"] == 2
    assert "6 réussites nettes en plus gardées pour une capacité spéciale" in response.text


def test_the_campaign_house_rule_is_the_default_choice_and_the_odds_follow_it(table):
    campaign = table["campaign"]
    campaign.set_house_rules(aethoria.AethoriaHouseRules(convert_extra_successes=False))
    y, b = start(table)
    response = console(table)
    assert re.search(r'<option value="keep" selected>', response.text)
    query = {
        "version": table["encounter"].version,
        "attacker": y.pk,
        "target": b.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.first().pk,
        "defence": "none",
    }
    odds = table["client"].get(url("aethoria_attack_odds", table["encounter"]), query, **HTMX)
    converted = table["client"].get(
        url("aethoria_attack_odds", table["encounter"]),
        {**query, "extra_successes": "convert"},
        **HTMX,
    )
    expected = re.compile(r"après RD[^:]*: ([\d,]+) PV")
    assert float(expected.search(odds.text)[1].replace(",", ".")) < float(
        expected.search(converted.text)[1].replace(",", ".")
    )
    # Without a choice posted, the house rule holds: nothing converted.
    attack(table, y, b, attack_faces="1 1 1 2", location_faces="12", damage_faces="10 10")
    assert last(table, "aethoria_attack").data["blows"][0]["outcome"]["bonus_dice"] == 0


# --- A prepared action fired as what was prepared ---------------------------------------------


def prepare(table, combatant, kind, description="frapper", trigger="elle bouge"):
    data = {
        "combatant": combatant.pk,
        "action": "preparer",
        "prepared_kind": kind,
        "description": description,
        "trigger": trigger,
    }
    return post(table, "aethoria_special", data)


def test_a_prepared_free_text_action_is_only_logged_when_fired(table):
    y, b = start(table, ysolde_face=5, brandon_face=15)
    prepare(table, b, "other", description="crier l'alerte", trigger="l'ennemi entre")
    post(table, "next_turn")
    response = post(table, "aethoria_fire", {"combatant": b.pk})
    assert "Brandon déclenche son action préparée (l'ennemi entre) : crier l'alerte." in text(
        response
    )
    b.refresh_from_db()
    assert b.state["prepared"] is None and "fired" not in b.state
    # Nothing left to roll: no attack form for Brandon, and his attack is refused.
    assert "Action préparée de Brandon" not in response.text
    before = snapshot(table)
    response = attack(table, b, y, attack_faces="1 1 1 1", location_faces="12")
    assert "pas son tour" in response.text
    assert snapshot(table) == before


@pytest.fixture
def mage(table):
    table["maelle"] = aethoria_fighter(
        table["campaign"], "Maëlle", magic_type="doue", pouvoir=7, magie=3, esquive=0
    )
    return table["maelle"]


def test_a_prepared_spell_is_cast_when_fired(table, mage):
    post(table, "combatants_add", {"characters": [mage.pk, table["brandon"].pk]})
    m = table["encounter"].combatants.get(character=mage)
    b = table["encounter"].combatants.get(character=table["brandon"])
    post(table, "start", {f"face_{m.pk}": 18, f"face_{b.pk}": 3})
    prepare(table, m, "spell", description="lévitation", trigger="il charge")
    assert "prépare une action (un sort) : lévitation, si il charge." in console(table).text
    post(table, "next_turn")
    at_fire = state(table)
    response = post(table, "aethoria_fire", {"combatant": m.pk})
    assert "Action préparée de Maëlle : lancer un sort" in response.text
    assert "Action préparée de Maëlle : attaquer" not in response.text
    # Magie 3 under 4 invested: 1 2 9 -> 3 successes against 2.
    data = {"caster": m.pk, "invested": 4, "difficulty": 2, "faces": "1 2 9"}
    response = post(table, "aethoria_spell", data)
    assert not errors(response), errors(response)
    event = last(table, "aethoria_spell")
    assert event.data["fired"] and event.actor_id == m.pk
    assert "[action préparée]" in response.text
    m.refresh_from_db()
    assert "fired" not in m.state and "fired_kind" not in m.state
    # Once only; and Brandon (acting) keeps his own action.
    before = snapshot(table)
    response = post(table, "aethoria_spell", data)
    assert "pas son tour" in response.text
    assert snapshot(table) == before
    post(table, "undo")
    post(table, "undo")
    assert state(table) == at_fire


def test_only_a_doue_prepares_a_spell(table):
    y, _b = start(table)
    response = table["client"].get(url("console", table["encounter"]), **HTMX)
    assert '<option value="spell">' not in response.text
    before = snapshot(table)
    response = prepare(table, y, "spell")
    assert "Sélectionnez un choix valide" in text(response)
    assert snapshot(table) == before


# --- One partial for the dice fields ----------------------------------------------------------


def test_every_dice_field_block_is_the_shared_partial_and_opens_on_an_error(table):
    _y, b = start(table)
    # The attack's, the test's (and the spell's) faces sit in the same labelled block; the
    # test's comes with its panel, when the GM opens it.
    page = console(table).text
    page += table["client"].get(url("aethoria_test_odds", table["encounter"]), **HTMX).text
    blocks = re.findall(r'<details class="physical-dice"[^>]*>', page)
    assert len(blocks) == 2 and not any("open" in block for block in blocks)
    response = post(
        table, "aethoria_test", {"combatant": b.pk, "source": "adresse", "difficulty": 1}
    )
    # The test's fatigue card after the roll uses the same fields, labelled.
    assert 'for="fatigue_after_faces">d10 de fatigue (dés physiques, sinon vide)' in response.text
    response = post(
        table,
        "aethoria_test",
        {"combatant": b.pk, "source": "adresse", "difficulty": 1, "faces": "1 2 99"},
    )
    assert '<details class="physical-dice" open>' in response.text
    refused = r'for="test_faces">d10</label>.*?Un d10 donne de 1 à 10\.'
    assert re.search(refused, response.text, re.S)
