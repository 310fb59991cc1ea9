"""Aethoria roll requests (issue #31): the defence goes to the player, who chooses dodge or
parry and fatigue dice with their odds shown, and rolls their pool; one step, one undo."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.encounters.models import Event
from tests.encounters.request_fixtures import table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def send_defence(client, t):
    client.force_login(t.gm)
    weapon = t.npc.character.aethoria.weapons.first()
    data = {
        "version": t.encounter.version,
        "attacker": t.npc.pk,
        "target": t.lysandre.pk,
        "mode": "attack",
        "weapon": weapon.pk,
        "defence": "none",
        "modifier": 0,
        "fatigue": 0,
        "defence_fatigue": 0,
        "damage_fatigue": 0,
    }
    response = client.post(t.url("aethoria_request"), data, **HTMX)
    assert response.status_code == 200, response.content[:500]
    request = t.refresh().lysandre.request
    assert request, response.content.decode()[:3000]
    return request


def answer(client, t, request, **fields):
    data = {"request": request["id"], "kind": "defence", "other": t.npc.pk, **fields}
    data.setdefault("combatant", t.lysandre.pk)
    return client.post(t.url("aethoria_request_answer"), data, **HTMX)


def test_the_panel_shows_each_defence_with_its_odds_and_the_fatigue_dice(client):
    t = table("aethoria")
    send_defence(client, t)
    client.force_login(t.lysandre_player)
    page = client.get(t.url("request_panel"), {"choice": "dodge", "fatigue": 2}, **HTMX)
    text = page.content.decode()
    assert "Esquiver" in text and "touché à" in text and "PV perdus en moyenne" in text
    # Esquive 3 and two fatigue dice: five fields, one a die.
    assert text.count('name="face"') == 5


def test_the_dodge_with_fatigue_and_physical_dice_is_one_step_undone_at_once(client):
    t = table("aethoria")
    request = send_defence(client, t)
    sheet = t.lysandre.character.aethoria
    before = (sheet.pv, sheet.fatigue_physical)
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, choice="dodge", fatigue=1, face=["1", "1", "1", "2"])
    assert response.status_code == 200
    assert "est joué" in response.content.decode(), response.content.decode()[:2000]
    event = Event.objects.filter(encounter=t.encounter).first()
    assert event.kind == "aethoria_attack" and event.data["defence_fatigue"] == 1
    assert event.data["blows"][0]["defence"]["faces"] == [1, 1, 1]
    sheet.refresh_from_db()
    assert sheet.fatigue_physical == before[1] - 1
    assert t.refresh().lysandre.request == {}
    client.force_login(t.gm)
    client.post(t.url("undo"), {"version": t.encounter.version}, **HTMX)
    sheet.refresh_from_db()
    assert (sheet.pv, sheet.fatigue_physical) == before
    assert t.refresh().lysandre.request["id"] == request["id"]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"choice": "dodge", "face": ["11", "1", "1"]}, "d10"),
        ({"choice": "dodge", "fatigue": 3, "face": ["1"]}, "dé"),
        ({"choice": "parry:shield"}, "bouclier"),
    ],
)
def test_tampered_answers_change_nothing(client, fields, said):
    t = table("aethoria")
    request = send_defence(client, t)
    version = t.encounter.version
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, **fields)
    assert said in response.content.decode()
    assert t.refresh().encounter.version == version


def test_a_spend_above_the_pool_is_refused(client):
    t = table("aethoria")
    request = send_defence(client, t)
    sheet = t.lysandre.character.aethoria
    sheet.fatigue_physical = 1
    sheet.save(update_fields=["fatigue_physical"])
    version = t.refresh().encounter.version
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, choice="dodge", fatigue=3, dice="app")
    assert response.status_code == 200
    assert "fatigue" in response.content.decode()
    assert t.refresh().encounter.version == version


def test_answering_costs_no_more_queries_than_the_gms_attack(client):
    t = table("aethoria")
    request = send_defence(client, t)
    client.force_login(t.lysandre_player)
    with CaptureQueriesContext(connection) as queries:
        response = answer(client, t, request, choice="dodge", fatigue=1, dice="app")
    assert response.status_code == 200
    steps = [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The GM's Aethoria attack step: 8 at most.
    assert len(steps) <= 8, "\n".join(q["sql"][:150] for q in steps)


def send_attack(client, t):
    client.force_login(t.gm)
    weapon = t.lysandre.character.aethoria.weapons.first()
    data = {
        "version": t.encounter.version,
        "attacker": t.lysandre.pk,
        "target": t.npc.pk,
        "mode": "attack",
        "weapon": weapon.pk,
        "defence": "none",
        "modifier": 0,
        "fatigue": 0,
        "defence_fatigue": 0,
        "damage_fatigue": 0,
        "request_kind": "attack",
    }
    assert client.post(t.url("aethoria_request"), data, **HTMX).status_code == 200
    return t.refresh().lysandre.request


def test_the_pcs_attack_goes_to_its_player_with_fatigue_dice_and_physical_dice(client):
    t = table("aethoria", first="lysandre")
    request = send_attack(client, t)
    assert request["kind"] == "attack"
    client.force_login(t.lysandre_player)
    panel = client.get(t.url("request_panel"), {"fatigue": 2}, **HTMX).content.decode()
    assert "ton attaque sur Garnier" in panel and "tu touches à" in panel
    assert panel.count('name="face"') == 6  # weapon skill 4, two fatigue dice
    sheet = t.lysandre.character.aethoria
    fatigue = sheet.fatigue_physical
    faces = ["1", "1", "1", "1", "1"]
    data = {"request": request["id"], "kind": "attack", "other": t.npc.pk, "fatigue": 1}
    data |= {"combatant": t.lysandre.pk, "face": faces}
    response = client.post(t.url("aethoria_request_answer"), data, **HTMX)
    assert "est joué" in response.content.decode(), response.content.decode()[:1500]
    event = Event.objects.filter(encounter=t.encounter).first()
    assert event.kind == "aethoria_attack" and event.data["fatigue"] == 1
    assert event.data["blows"][0]["attack"]["faces"] == [1, 1, 1, 1]
    sheet.refresh_from_db()
    assert sheet.fatigue_physical == fatigue - 1
    client.force_login(t.gm)
    client.post(t.url("undo"), {"version": t.refresh().encounter.version}, **HTMX)
    sheet.refresh_from_db()
    assert sheet.fatigue_physical == fatigue


def test_the_player_types_the_weapons_damage_dice_the_bonus_dice_are_the_apps(client):
    t = table("aethoria", first="lysandre")
    request = send_attack(client, t)
    weapon_dice = t.lysandre.character.aethoria.weapons.first().damage_dice
    client.force_login(t.lysandre_player)
    panel = client.get(t.url("request_panel"), **HTMX).content.decode()
    assert panel.count('name="damage_face"') == weapon_dice
    data = {"request": request["id"], "kind": "attack", "other": t.npc.pk, "fatigue": 0}
    data |= {"combatant": t.lysandre.pk, "face": ["1"] * 4, "damage_face": ["1"] * weapon_dice}
    response = client.post(t.url("aethoria_request_answer"), data, **HTMX)
    assert "est joué" in response.content.decode(), response.content.decode()[:1500]
    event = Event.objects.filter(encounter=t.encounter).first()
    blow = event.data["blows"][0]
    assert blow["outcome"]["lands"] and blow["outcome"]["bonus_dice"], blow["outcome"]
    assert blow["damage"]["faces"][:weapon_dice] == [1] * weapon_dice
    assert len(blow["damage"]["faces"]) == weapon_dice + blow["outcome"]["bonus_dice"]
    client.force_login(t.gm)
    client.post(t.url("undo"), {"version": t.refresh().encounter.version}, **HTMX)
    assert t.refresh().lysandre.request["id"] == request["id"]


def test_a_wrong_count_of_damage_dice_is_refused_before_any_roll(client):
    t = table("aethoria", first="lysandre")
    request = send_attack(client, t)
    version = t.refresh().encounter.version
    client.force_login(t.lysandre_player)
    data = {"request": request["id"], "kind": "attack", "other": t.npc.pk, "fatigue": 0}
    data |= {"combatant": t.lysandre.pk, "dice": "", "damage_face": ["1"] * 9}
    response = client.post(t.url("aethoria_request_answer"), data, **HTMX)
    assert "Dégâts : il faut exactement" in response.content.decode()
    assert t.refresh().encounter.version == version


def test_the_gm_taking_over_an_attack_types_the_attackers_faces(client):
    t = table("aethoria", first="lysandre")
    request = send_attack(client, t)
    data = {"version": t.refresh().encounter.version, "request": request["id"]}
    data |= {"kind": "attack", "other": t.npc.pk, "face": "1 1 1 1"}
    response = client.post(t.url("request_take_over", t.lysandre.pk), data, **HTMX)
    assert response.status_code == 200
    event = Event.objects.filter(encounter=t.encounter).first()
    assert event.kind == "aethoria_attack", response.content.decode()[:1500]
    assert event.data["blows"][0]["attack"]["faces"] == [1, 1, 1, 1]
    assert t.refresh().lysandre.request == {}
