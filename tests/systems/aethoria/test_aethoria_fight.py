"""An Aethoria fight driven through HTTP with typed (physical) dice, then undone to the start."""

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from apps.encounters.models import Event
from apps.systems.aethoria.effects import pending_effects
from apps.systems.aethoria.events import ATTACK_EVENT
from tests.systems.aethoria.support import (
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
    weapon,
)

pytestmark = pytest.mark.django_db


def pv(table, name):
    sheet = table[name].aethoria
    sheet.refresh_from_db()
    return sheet.pv


def test_the_players_read_where_an_npc_was_hit_not_its_damage_or_armour(table):
    y, b = start(table)
    arm_blow(table, y, b)
    phone = Client()
    phone.force_login(table["ysolde"].owner)
    page = phone.get(reverse("encounters:table", args=[table["encounter"].pk])).text
    line = next(part for part in page.split("<li") if "Ysolde attaque Brandon" in part)
    assert "touché au bras droit" in line and "RD" not in line and "dégâts" not in line
    # The GM's own log keeps every number.
    assert "5 dégâts − RD 0 = 5 PV" in last_line_for_gm(table)


def last_line_for_gm(table) -> str:
    url = reverse("encounters:console", args=[table["encounter"].pk])
    return table["client"].get(url).text


def test_melee_attack_against_a_dodge_lands_on_the_location_and_proposes_bleeding(table):
    y, b = start(table)
    # Épée rank 4 under Adresse 6: 1 3 7 9 -> 2 + 1 = 3; esquive 3 dice at 6: 2 8 9 -> 1.
    # Net 2: lands, no bonus die (2 more are needed). d20 12: right arm, no armour there.
    # Damage 2 d10 under Force 5 + 2 fixed: 1 4 -> 2 + 1 + 2 = 5 >= Vitalité 5: bleeding.
    response = arm_blow(table, y, b)
    assert response.status_code == 200, response.text
    event = last(table, "aethoria_attack")
    assert event.dice == "physical"
    blow = event.data["blows"][0]
    assert blow["outcome"]["net"] == 2 and blow["outcome"]["location"] == "right_arm"
    assert blow["damage"]["damage"] == 5 and blow["severe"] == "bleeding"
    assert pv(table, "brandon") == 20 - 5
    b.refresh_from_db()
    assert b.state["defences"] == 0
    assert (
        "Ysolde attaque Brandon" in response.text
        and "3 réussites contre 1 (esquive), touché au bras droit ; 5 dégâts − RD 0 = 5 PV"
        in response.text
    )
    assert "Effet grave proposé" in response.text
    # The GM confirms: Brandon bleeds (services lose 1 PV at the start of each of its turns).
    response = post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "confirm"})
    assert response.status_code == 200
    b.refresh_from_db()
    assert b.state["bleeding"] is True
    assert "Effet grave proposé" not in response.text
    post(table, "next_turn")
    assert pv(table, "brandon") == 15 - 1


def bleeding_proposed(table):
    """Ysolde's blow proposes bleeding on Brandon's right arm (the faces of the test above)."""
    y, b = start(table)
    arm_blow(table, y, b)
    return last(table, "aethoria_attack")


def test_the_summary_names_the_severe_effects_left_undecided(table):
    """A GM who ends the fight before deciding an effect is told, and may reopen it."""
    bleeding_proposed(table)
    post(table, "end")
    encounter = table["encounter"]
    encounter.refresh_from_db()
    assert encounter.summary["undecided"] == [
        {"target": "Brandon", "effect": "bleeding", "location": "right_arm"}
    ]
    response = table["client"].get(f"/rencontres/{encounter.pk}/")
    assert "Effets graves non décidés" in response.text
    assert "Brandon : <strong>saignement</strong> (bras droit)" in response.text
    assert "Rouvrez le combat pour en décider." in response.text


def test_a_decided_effect_is_not_named_in_the_summary(table):
    event = bleeding_proposed(table)
    post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "dismiss"})
    post(table, "end")
    table["encounter"].refresh_from_db()
    assert table["encounter"].summary["undecided"] == []
    response = table["client"].get(f"/rencontres/{table['encounter'].pk}/")
    assert "Effets graves non décidés" not in response.text


def test_parry_with_a_shield_and_armour_on_the_torso(table):
    y, b = start(table)
    # Parade rank 2 with the shield (6): 1 5 -> 3 successes; attack 1 1 2 8 -> 5. Net 2.
    # d20 5: torso, RD 2. Damage 3 3 -> 2 + 2 = 4 - 2 = 2.
    attack(
        table,
        y,
        b,
        defence="parry",
        parry_with="shield",
        attack_faces="1 1 2 8",
        location_faces="5",
        defence_faces="1 5",
        damage_faces="3 3",
    )
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["defence"]["kind"] == "parry" and blow["defence"]["successes"] == 3
    assert blow["damage"]["rd"] == 2 and blow["damage"]["damage"] == 2
    assert pv(table, "brandon") == 18


def test_extra_net_successes_buy_damage_dice_and_the_count_is_checked(table):
    y, b = start(table)
    before = snapshot(table)
    # 1 1 1 2 -> 7 successes, net 7: (7 - 1) // 2 = 3 bonus dice, 2 + 3 = 5 damage dice.
    data = {"attack_faces": "1 1 1 2", "location_faces": "12", "damage_faces": "1 1"}
    response = attack(table, y, b, **data)
    assert "il faut exactement 5 d10" in response.text
    assert "2 de l&#x27;arme + 3 bonus" in response.text or "2 de l'arme + 3 bonus" in response.text
    assert snapshot(table) == before
    response = attack(table, y, b, **{**data, "damage_faces": "10 10 10 10 10"})
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["outcome"]["bonus_dice"] == 3 and blow["damage"]["total"] == 2


def test_parry_is_refused_against_a_much_stronger_attacker(table):
    brandon = table["brandon"].aethoria
    ysolde = table["ysolde"].aethoria
    ysolde.force = 8
    ysolde.pv = 26
    ysolde.fatigue_physical = 13
    ysolde.save()
    y, b = start(table)
    before = snapshot(table)
    response = attack(table, y, b, defence="parry", parry_with="shield", attack_faces="1 1 1 1")
    assert "Parade impossible" in response.text
    assert snapshot(table) == before
    assert brandon.force == 5


def test_ranged_shot_on_a_covered_location_hits_the_obstacle(table):
    bow = give_weapon(table["ysolde"], ranged=True)
    y, b = start(table)
    # Medium range: -1 die, 3 dice. 1 2 3 -> 4 successes; d20 17: right leg, covered.
    data = {"weapon": bow.pk, "range_band": "medium", "covered": ["right_leg", "left_leg"]}
    response = attack(table, y, b, **data, attack_faces="1 2 3", location_faces="17")
    assert response.status_code == 200
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["outcome"]["hits_obstacle"] and blow["damage"] is None
    assert pv(table, "brandon") == 20
    assert "le tir frappe l&#x27;obstacle" in response.text or "frappe l'obstacle" in response.text
    # The target of a shot cannot defend.
    post(table, "undo")
    response = attack(table, y, b, **data, defence="dodge")
    assert "ne peut pas se défendre" in response.text


def test_attaque_double_with_a_dodge_and_a_parry_splitting_the_malus(table):
    dague = give_weapon(table["ysolde"], rank=6)
    epee = weapon(table, "ysolde")
    skill = table["ysolde"].aethoria.skills.get(skill=epee.skill)
    skill.rank = 6
    skill.save()
    y, b = start(table, ysolde_face=5, brandon_face=15)
    # Brandon takes the Défense action: two defences until his next action.
    post(table, "aethoria_special", {"combatant": b.pk, "action": "defense"})
    post(table, "next_turn")
    # Each attack 6 - 3 = 3 dice. Dodge esquive 3 - 1 = 2 dice; parry rank 2 - 2 = 0 dice.
    response = attack(
        table,
        y,
        b,
        mode="double",
        weapon=epee.pk,
        second_weapon=dague.pk,
        defence="dodge",
        defence2="parry",
        parry_with2="shield",
        split1=1,
        attack_faces="1 2 9",
        location_faces="12",
        defence_faces="9 9",
        damage_faces="5 5 9",
        attack_faces2="2 2 9",
        location_faces2="4",
        damage_faces2="3 9",
    )
    assert not errors(response), errors(response)
    event = last(table, "aethoria_attack")
    first, second = event.data["blows"]
    assert first["attack"]["dice"] == 3 and first["defence"]["dice"] == 2
    assert second["defence"]["dice"] == 0
    # First: net 3, 1 bonus die: 5 5 9 -> 2 + 2 = 4. Second under Force 3: 3 9 -> 1 + 2 = 3
    # on the torso (RD 2) = 1.
    assert first["damage"]["damage"] == 4
    assert second["damage"]["threshold"] == 3 and second["damage"]["damage"] == 1
    assert pv(table, "brandon") == 20 - 5
    b.refresh_from_db()
    assert b.state["defences"] == 0
    assert "1re arme" in response.text and "2e arme" in response.text


def test_attaque_double_cannot_parry_both_with_one_item(table):
    dague = give_weapon(table["ysolde"], rank=6)
    y, b = start(table)
    before = snapshot(table)
    response = attack(
        table,
        y,
        b,
        mode="double",
        second_weapon=dague.pk,
        defence="parry",
        parry_with="shield",
        defence2="parry",
        parry_with2="shield",
    )
    assert "parer les deux" in response.text.lower() or "Plus assez de défenses" in response.text
    assert snapshot(table) == before


def test_cibler_keeps_the_die_on_the_wanted_location(table):
    y, b = start(table)
    # Rank 4 - 4 = 0 dice: make it 6 first.
    epee = weapon(table, "ysolde")
    rank = table["ysolde"].aethoria.skills.get(skill=epee.skill)
    rank.rank = 6
    rank.save()
    response = attack(
        table,
        y,
        b,
        mode="cibler",
        prefer_location="head",
        attack_faces="1 2",
        location_faces="15 2",
        damage_faces="1 1 1",
    )
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["attack"]["dice"] == 2
    assert blow["location_faces"] == [15, 2] and blow["outcome"]["location"] == "head"
    # 3 successes: lands, 1 bonus die -> 3 damage dice; the head has no armour.
    assert blow["outcome"]["bonus_dice"] == 1 and blow["damage"]["total"] == 2 + 6


def test_defense_viser_and_a_single_action_per_turn(table):
    y, b = start(table)
    response = post(
        table, "aethoria_special", {"combatant": y.pk, "action": "viser", "target": b.pk}
    )
    assert response.status_code == 200
    y.refresh_from_db()
    assert y.state["aim_target"] == b.pk and y.state["acted"]
    before = snapshot(table)
    response = attack(table, y, b, attack_faces="1 1 1 1")
    assert "déjà agi" in response.text
    assert snapshot(table) == before
    post(table, "next_turn")
    response = post(table, "aethoria_special", {"combatant": b.pk, "action": "defense"})
    b.refresh_from_db()
    assert b.state["defences"] == 2
    post(table, "next_turn")
    # Round 2, Ysolde's aim has matured: 4 + 3 = 7 dice on Brandon.
    response = attack(table, y, b, attack_faces="9 9 9 9 9 9 9", location_faces="1")
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["attack"]["dice"] == 7 and not blow["outcome"]["lands"]
    assert "visée +3 dés" in response.text


def test_prepared_action_is_fired_out_of_turn(table):
    y, b = start(table, ysolde_face=5, brandon_face=15)
    response = post(
        table,
        "aethoria_special",
        {
            "combatant": b.pk,
            "action": "preparer",
            "description": "frapper",
            "trigger": "elle bouge",
        },
    )
    assert response.status_code == 200
    post(table, "next_turn")
    # Ysolde acts; Brandon's trigger happens: the GM fires it, Brandon attacks now.
    response = post(table, "aethoria_fire", {"combatant": b.pk})
    assert "Action préparée de Brandon" in response.text
    b.refresh_from_db()
    assert b.state["prepared"] is None and b.state["fired"]
    response = attack(table, b, y, attack_faces="1 9 9 9", location_faces="12", damage_faces="9 9")
    assert response.status_code == 200, response.text
    event = last(table, "aethoria_attack")
    assert event.data["fired"] and event.actor_id == b.pk
    b.refresh_from_db()
    assert "fired" not in b.state
    # Only once.
    response = attack(table, b, y, attack_faces="1 9 9 9", location_faces="12")
    assert table["encounter"].events.filter(kind="aethoria_attack").count() == 1
    # Ysolde still has her own action.
    response = attack(table, y, b, attack_faces="9 9 9 9", location_faces="12")
    assert table["encounter"].events.filter(kind="aethoria_attack").count() == 2


def test_full_fight_then_undo_everything_restores_the_start(table):
    y, b = start(table)
    start_state = state(table)
    attack(
        table,
        y,
        b,
        defence="dodge",
        fatigue=2,
        attack_faces="1 3 7 9",
        fatigue_faces="1 1",
        location_faces="12",
        defence_faces="2 8 9",
        damage_faces="1 1 4 9",
    )
    event = last(table, "aethoria_attack")
    assert event.data["fatigue"] == 2
    assert (
        table["ysolde"].aethoria.__class__.objects.get(pk=table["ysolde"].pk).fatigue_physical == 8
    )
    post(table, "aethoria_effect", {"event": event.pk, "blow": 0, "decision": "confirm"})
    post(table, "next_turn")
    post(table, "aethoria_special", {"combatant": b.pk, "action": "defense"})
    post(table, "next_turn")
    assert state(table) != start_state
    undos = 0
    while undos < 20:
        if not (
            Event.objects.filter(encounter=table["encounter"], undone=False)
            .exclude(kind__in=["start", "undo", "redo"])
            .exists()
        ):
            break
        assert post(table, "undo").status_code == 200
        undos += 1
    assert undos == 5
    assert state(table) == start_state


def test_fatigue_dice_before_the_defence_and_the_damage_rolls(table):
    y, b = start(table)
    # Attack 1 3 7 9 -> 3; dodge 2 8 9 + 1 fatigue die (1) -> 3: net 0, a miss: the
    # damage fatigue was "if it lands", so it is not paid.
    attack(
        table,
        y,
        b,
        defence="dodge",
        defence_fatigue=1,
        damage_fatigue=2,
        attack_faces="1 3 7 9",
        location_faces="12",
        defence_faces="2 8 9",
        defence_fatigue_faces="1",
    )
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["defence"]["successes"] == 3 and not blow["outcome"]["lands"]
    table["ysolde"].aethoria.refresh_from_db()
    table["brandon"].aethoria.refresh_from_db()
    assert table["brandon"].aethoria.fatigue_physical == 10 - 1
    assert table["ysolde"].aethoria.fatigue_physical == 10
    post(table, "undo")
    # Now no defence: it lands, and the 2 damage fatigue dice are rolled and paid.
    response = attack(
        table,
        y,
        b,
        damage_fatigue=2,
        attack_faces="1 3 7 9",
        location_faces="12",
        damage_faces="9 9 9",
        damage_fatigue_faces="1 2",
    )
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack").data["blows"][0]
    # Net 3 -> 1 bonus die: 3 damage dice (all 9) + fatigue 1 2 -> 3, + 2 fixed = 5.
    assert blow["damage"]["fatigue_faces"] == [1, 2] and blow["damage"]["total"] == 5
    assert pv(table, "brandon") == 20 - 5
    table["ysolde"].aethoria.refresh_from_db()
    assert table["ysolde"].aethoria.fatigue_physical == 10 - 2
    assert "dégâts +2 dé(s) de fatigue" in response.text


def proposal(sequence: int, round_: int, blows: int = 1) -> Event:
    """An attack of Ysolde on Brandon whose every blow proposes bleeding on his right arm."""
    blow = {"severe": "bleeding", "outcome": {"location": "right_arm"}}
    data = {"attacker": "Ysolde", "target": "Brandon", "blows": [blow] * blows}
    return Event(kind=ATTACK_EVENT, sequence=sequence, round=round_, data=data)


def test_two_proposals_alike_say_which_blow_each_comes_from(table):
    """The same effect on the same target and location, from two attacks and from the two
    blows of a double attack: each panel names its blow, so the GM knows which one decides."""
    pending = pending_effects([proposal(9, 3, blows=2), proposal(4, 2)])
    assert [p["source"] for p in pending] == [
        "coup 1 sur 2 de Ysolde, round 3",
        "coup 2 sur 2 de Ysolde, round 3",
        "coup de Ysolde, round 2",
    ]
    html = render_to_string(
        "systems/aethoria/_actions.html#aethoria-severe-effect",
        {"pending": pending[2], "encounter": table["encounter"]},
    )
    assert "Effet grave proposé <span" in html and "(coup de Ysolde, round 2)" in html
    assert "Brandon :" in html and "saignement" in html
