"""Fatigue dice decided after an attack's rolls: the attack is resolved again, exactly, and
undone like any step."""

import pytest

from apps.characters.models import AethoriaSheet
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    arm_blow,
    attack,
    errors,
    give_weapon,
    last,
    post,
    snapshot,
    start,
    state,
    url,
    weapon,
)

pytestmark = pytest.mark.django_db


def sheet(table, name) -> AethoriaSheet:
    return AethoriaSheet.objects.get(pk=table[name].pk)


def after(table, roll, count, **fields):
    latest = table["encounter"].events.exclude(kind__in=["undo", "redo"])
    latest = latest.filter(undone=False).order_by("-sequence").first()
    data = {"event": latest.pk, "roll": roll, "count": count, **fields}
    return post(table, "aethoria_attack_fatigue", data)


def get_console(table):
    encounter = table["encounter"]
    return table["client"].get(url("console", encounter), **HTMX)


def offer(table):
    """The folded offer of fatigue dice, as it loads when the GM opens it."""
    encounter = table["encounter"]
    return table["client"].get(url("aethoria_attack_fatigue_offer", encounter), **HTMX)


def text(response) -> str:
    return response.text.replace("&#x27;", "'")


def test_fatigue_after_a_missed_attack_roll_makes_it_land_then_undo(table):
    y, b = start(table)
    # Épée rank 4 under Adresse 6: 7 8 9 9 -> 0 successes, no defence: a miss.
    response = attack(table, y, b, attack_faces="7 8 9 9", location_faces="12")
    assert "Dés de fatigue après le jet (dernière attaque)" in response.text
    # Exact odds of landing with 1, 2, 3 more dice at 6: 60 %, 1 − 0.4² = 84 %, 93.6 %.
    # Its form and odds load when the GM opens the folded offer.
    opened = offer(table).text
    assert "chance de toucher" in opened
    assert "60 %" in opened and "84 %" in opened and "93,6 %" in opened
    at_attack = state(table)
    # 2 fatigue dice 1 3 -> 2 + 1 = 3 successes: net 3 lands, 1 bonus die -> 3 damage dice.
    data = {"faces": "1 3", "damage_faces": "1 4"}
    response = after(table, "0:attack", 2, **data)
    assert "il faut exactement 3 d10" in text(response)
    assert state(table) == at_attack
    response = after(table, "0:attack", 2, **{**data, "damage_faces": "1 4 9"})
    assert not errors(response), errors(response)
    event = last(table, "aethoria_attack_fatigue")
    assert event.dice == "physical"
    blow = event.data["blows"][0]
    assert blow["attack"]["fatigue_faces"] == [1, 3]
    assert blow["attack"]["fatigue_timing"] == "after"
    assert blow["outcome"]["lands"] and blow["outcome"]["bonus_dice"] == 1
    # 1 4 9 under Force 5: 2 + 1 + 0, + 2 fixed = 5 on the right arm (no armour) = Vitalité.
    assert blow["damage"]["total"] == 5 and blow["severe"] == "bleeding"
    assert blow["pv"] == {"before": 20, "after": 15}
    assert sheet(table, "brandon").pv == 15
    assert sheet(table, "ysolde").fatigue_physical == 10 - 2
    assert "Ysolde ajoute 2 dés de fatigue à son jet d'attaque contre Brandon" in text(
        response
    ) and "3 réussites, touché au bras droit ; 5 dégâts − RD 0 = 5 PV" in text(response)
    # The severe effect proposed is the revised attack's.
    assert "Effet grave proposé" in response.text
    # Once per roll: the attack roll is no longer offered, and is refused if forged.
    assert 'value="0:attack"' not in offer(table).text
    before = snapshot(table)
    response = after(table, "0:attack", 1, faces="1")
    assert "Sélectionnez un choix valide" in text(response)
    assert snapshot(table) == before
    # The GM confirms it: the attack event's proposal is the revised one.
    attack_event = last(table, "aethoria_attack")
    response = post(
        table, "aethoria_effect", {"event": attack_event.pk, "blow": 0, "decision": "confirm"}
    )
    b.refresh_from_db()
    assert b.state["bleeding"] is True
    post(table, "undo")
    # Undo: back to the missed attack, its roll open to fatigue dice again.
    response = post(table, "undo")
    assert state(table) == at_attack
    assert "Effet grave proposé" not in response.text
    assert 'value="0:attack"' in offer(table).text


def test_fatigue_after_the_defence_turns_the_blow_into_a_miss(table):
    y, b = start(table)
    # Attack 1 3 7 9 -> 3 against a dodge 2 8 9 -> 1: net 2 lands; damage 1 4 -> 5, with
    # one damage fatigue die declared before ("if it lands"): 9 -> 0.
    arm_blow(table, y, b, damage_fatigue=1, damage_fatigue_faces="9")
    assert sheet(table, "brandon").pv == 15
    assert sheet(table, "ysolde").fatigue_physical == 10 - 1
    # Brandon adds 2 fatigue dice to his dodge: 1 5 -> 3 more, 4 against 3: a miss.
    response = after(table, "0:defence", 2, faces="1 5")
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack_fatigue").data["blows"][0]
    assert blow["defence"]["successes"] == 4 and not blow["outcome"]["lands"]
    assert blow["damage"] is None and blow["severe"] == "none"
    # The PV come back; Brandon pays his dice; the damage die "if it lands" is given back.
    assert sheet(table, "brandon").pv == 20
    assert sheet(table, "brandon").fatigue_physical == 10 - 2
    assert sheet(table, "ysolde").fatigue_physical == 10
    assert "Brandon ajoute 2 dés de fatigue à son jet de défense contre Ysolde" in text(response)
    assert "Effet grave proposé" not in response.text


def test_fatigue_after_the_attack_buys_one_more_damage_die(table):
    y, b = start(table)
    # 1 3 7 9 -> 3 vs dodge 2 8 9 -> 1: net 2, no bonus die (3 are needed for one).
    attack(
        table,
        y,
        b,
        defence="dodge",
        attack_faces="1 3 7 9",
        location_faces="12",
        defence_faces="2 8 9",
        damage_faces="9 9",
    )
    # 1 die at 6 adds at least 1 success 60 % of the time: exactly what a bonus die needs.
    assert "chance d'un dé de dégâts en plus" in text(offer(table))
    response = after(table, "0:attack", 1, faces="4", damage_faces="1")
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack_fatigue").data["blows"][0]
    # Net 3: 1 bonus die, rolled now (1 -> 2 successes): 9 9 1 -> 2 + 2 fixed = 4.
    assert blow["outcome"]["bonus_dice"] == 1 and blow["damage"]["faces"] == [9, 9, 1]
    assert blow["damage"]["total"] == 4
    assert sheet(table, "brandon").pv == 16
    assert "(dont 1 dé bonus)" in response.text


def test_fatigue_after_the_damage_roll_with_its_expected_damage(table):
    y, b = start(table)
    attack(table, y, b, attack_faces="1 3 7 9", location_faces="12", damage_faces="1 4 9")
    # Net 3: 1 bonus die; 1 4 9 -> 3 + 2 fixed = 5. One die at Force 5 adds 0, 1, 2 with
    # 50, 40, 10 %: 5.6 PV expected.
    opened = offer(table)
    assert "dégâts attendus (aujourd'hui 5 PV)" in text(opened) and "5,6 PV" in opened.text
    assert "Dégâts de Ysolde (5 dégâts)" in text(opened)  # its damage, fixed part included
    at_attack = state(table)
    response = after(table, "0:damage", 1, faces="1", damage_faces="3")
    assert "Aucun dé de dégâts à lancer en plus" in text(response)
    assert state(table) == at_attack
    response = after(table, "0:damage", 1, faces="1")
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack_fatigue").data["blows"][0]
    assert blow["damage"]["total"] == 7 and blow["damage"]["fatigue_timing"] == "after"
    assert sheet(table, "brandon").pv == 13
    assert sheet(table, "ysolde").fatigue_physical == 9
    # Then the attack roll too (a different roll of the same attack).
    response = after(table, "0:attack", 1, faces="9")
    assert not errors(response), errors(response)
    assert sheet(table, "brandon").pv == 13 and sheet(table, "ysolde").fatigue_physical == 8
    # Every roll of it has its fatigue dice: the card goes.
    assert "Dés de fatigue après le jet (dernière attaque)" not in response.text


def test_fatigue_after_is_refused_once_another_step_happened(table):
    y, b = start(table)
    attack(table, y, b, attack_faces="7 8 9 9", location_faces="12")
    event = last(table, "aethoria_attack")
    post(table, "next_turn")
    before = snapshot(table)
    response = post(
        table, "aethoria_attack_fatigue", {"event": event.pk, "roll": "0:attack", "count": 1}
    )
    assert "Trop tard" in text(response)
    assert snapshot(table) == before


def test_fatigue_after_the_pool_cannot_pay_is_refused(table):
    s = sheet(table, "ysolde")
    s.fatigue_physical = 1
    s.save()
    y, b = start(table)
    attack(table, y, b, attack_faces="7 8 9 9", location_faces="12")
    before = snapshot(table)
    response = after(table, "0:attack", 2, faces="1 1")
    assert "Fatigue physique insuffisante : 2 demandé(s), 1 restant(s)." in text(response)
    assert snapshot(table) == before
    response = after(table, "0:attack", 1, faces="11")
    assert "Un d10 donne de 1 à 10." in errors(response)
    assert snapshot(table) == before


def test_fatigue_after_the_second_attack_of_an_attaque_double(table):
    dague = give_weapon(table["ysolde"], rank=6)
    epee = weapon(table, "ysolde")
    rank = table["ysolde"].aethoria.skills.get(skill=epee.skill)
    rank.rank = 6
    rank.save()
    y, b = start(table)
    # Each attack 6 - 3 = 3 dice. First: 1 2 9 -> 3, 1 bonus die: 5 5 9 -> 2 + 2 = 4 on the
    # right arm. Second: 9 9 9, a miss (d20 4: the torso, RD 2).
    response = attack(
        table,
        y,
        b,
        mode="double",
        weapon=epee.pk,
        second_weapon=dague.pk,
        attack_faces="1 2 9",
        location_faces="12",
        damage_faces="5 5 9",
        attack_faces2="9 9 9",
        location_faces2="4",
    )
    assert not errors(response), errors(response)
    assert sheet(table, "brandon").pv == 16
    opened = offer(table).text
    assert '<option value="1:attack">2e arme — Attaque de Ysolde (0 réussite' in opened
    # One die on the second attack roll: 1 -> 2 successes, it lands with no bonus die;
    # the dague's 2 dice under Force 5 - 2: 3 9 -> 1 + 2 fixed = 3 - RD 2 = 1.
    response = after(table, "1:attack", 1, faces="1", damage_faces="3 9")
    assert not errors(response), errors(response)
    event = last(table, "aethoria_attack_fatigue")
    first, second = event.data["blows"]
    assert first["pv"] == {"before": 20, "after": 16}
    assert second["damage"]["damage"] == 1 and second["pv"] == {"before": 16, "after": 15}
    assert sheet(table, "brandon").pv == 15
    assert ", 2e arme : 2 réussites, touché au torse" in text(response)


def test_deciding_a_severe_effect_keeps_the_fatigue_dice_of_that_roll_until_the_next_step(table):
    """Confirming the effect the blow proposed is part of the exchange: the card adding
    fatigue dice to its rolls stays, and still works, until the next step (issue 29)."""
    y, b = start(table)
    arm_blow(table, y, b)
    attack_event = last(table, "aethoria_attack")
    response = post(
        table, "aethoria_effect", {"event": attack_event.pk, "blow": 0, "decision": "confirm"}
    )
    assert "Dés de fatigue après le jet (dernière attaque)" in response.text
    assert "Dés de fatigue après le jet (dernière attaque)" in get_console(table).text
    # Ysolde adds a die to the damage: the card still names the attack, not the decision.
    data = {"event": attack_event.pk, "roll": "0:damage", "count": 1, "faces": "1"}
    response = post(table, "aethoria_attack_fatigue", data)
    assert not errors(response), errors(response)
    assert last(table, "aethoria_attack_fatigue").data["of"] == attack_event.sequence
    post(table, "next_turn")
    assert "Dés de fatigue après le jet (dernière attaque)" not in get_console(table).text
