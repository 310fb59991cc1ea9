"""Aethoria test requests (issue #31): the GM sets up a test in the console's test panel and
sends it to its fighter's player ("Test au joueur"), who sees their chance to succeed for each
number of fatigue dice, and rolls their pool; one step, one undo (fatigue included)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.encounters.models import Event
from tests.encounters.request_fixtures import table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ESPRIT = 4  # the fixture's: a test of Esprit rolls four dice, its fatigue dice are mental


def send_test(client, t, **fields):
    client.force_login(t.gm)
    data = {
        "version": t.refresh().encounter.version,
        "combatant": t.lysandre.pk,
        "source": "esprit",
        "characteristic": "",
        "difficulty": 2,
        "modifier": 0,
        "fatigue": 0,
        "label": "Déchiffrer la stèle",
        **fields,
    }
    response = client.post(t.url("aethoria_test_request"), data, **HTMX)
    assert response.status_code == 200, response.content[:500]
    request = t.refresh().lysandre.request
    assert request and request["kind"] == "test", response.content.decode()[:3000]
    return request


def answer(client, t, request, **fields):
    data = {"request": request["id"], "kind": "test", **fields}
    data.setdefault("combatant", t.lysandre.pk)
    return client.post(t.url("aethoria_request_answer"), data, **HTMX)


def test_the_panel_shows_the_test_and_its_chance_at_each_fatigue_count(client):
    t = table("aethoria")
    send_test(client, t)
    client.force_login(t.lysandre_player)
    text = client.get(t.url("request_panel"), {"fatigue": 2}, **HTMX).content.decode()
    assert "À toi : Déchiffrer la stèle (Esprit)" in text
    assert text.count("tu réussis à") == 4 and "fatigue mentale" in text
    assert "difficulté" not in text.lower()
    assert text.count('name="face"') == ESPRIT + 2


def test_the_answer_is_one_test_step_and_one_undo_restores_the_pool(client):
    t = table("aethoria")
    request = send_test(client, t)
    sheet = t.lysandre.character.aethoria
    before = (sheet.fatigue_physical, sheet.fatigue_mental)
    client.force_login(t.lysandre_player)
    faces = ["1", "2", "9", "10", "3"]  # four of the pool, one fatigue die
    response = answer(client, t, request, fatigue=1, face=faces)
    assert "est joué" in response.content.decode(), response.content.decode()[:2000]
    events = Event.objects.filter(encounter=t.encounter)
    event = events.first()
    assert event.kind == "aethoria_test" and event.dice == "physical"
    assert event.data["roll"]["faces"] == [1, 2, 9, 10]
    assert event.data["roll"]["fatigue_faces"] == [3]
    assert event.data["asked"] == "Lysandre Vey"
    sheet.refresh_from_db()
    assert (sheet.fatigue_physical, sheet.fatigue_mental) == (before[0], before[1] - 1)
    assert t.refresh().lysandre.request == {}
    client.force_login(t.gm)
    client.post(t.url("undo"), {"version": t.encounter.version}, **HTMX)
    sheet.refresh_from_db()
    assert (sheet.fatigue_physical, sheet.fatigue_mental) == before
    assert t.refresh().lysandre.request["id"] == request["id"]


def test_the_app_rolls_for_the_player(client):
    t = table("aethoria")
    request = send_test(client, t)
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, fatigue=3, dice="app")
    assert "est joué" in response.content.decode(), response.content.decode()[:2000]
    event = Event.objects.filter(encounter=t.encounter).first()
    assert event.dice == "app" and len(event.data["roll"]["fatigue_faces"]) == 3


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"fatigue": 0, "face": ["11", "1", "1", "1"]}, "d10"),
        ({"fatigue": 0, "face": ["1", "1"]}, "exactement"),
        ({"fatigue": 3, "face": ["1"]}, "dé"),
        ({"fatigue": 7, "dice": "app"}, "3"),
    ],
)
def test_tampered_answers_are_refused_in_french_and_change_nothing(client, fields, said):
    t = table("aethoria")
    request = send_test(client, t)
    version = t.refresh().encounter.version
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, **fields)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert t.refresh().encounter.version == version


def test_a_spend_above_the_pool_is_refused(client):
    t = table("aethoria")
    request = send_test(client, t)
    sheet = t.lysandre.character.aethoria
    sheet.fatigue_mental = 1
    sheet.save(update_fields=["fatigue_mental"])
    version = t.refresh().encounter.version
    client.force_login(t.lysandre_player)
    response = answer(client, t, request, fatigue=2, dice="app")
    assert "Fatigue mentale insuffisante" in response.content.decode()
    assert t.refresh().encounter.version == version


def test_another_players_answer_is_refused(client):
    t = table("aethoria")
    request = send_test(client, t)
    version = t.refresh().encounter.version
    client.force_login(t.ysolde_player)
    response = answer(client, t, request, fatigue=0, dice="app")
    assert "est pas le tien" in response.content.decode()
    assert t.refresh().encounter.version == version


def test_an_npcs_test_is_the_gms_to_roll(client):
    t = table("aethoria")
    client.force_login(t.gm)
    data = {"version": t.encounter.version, "combatant": t.npc.pk, "source": "force"}
    data |= {"difficulty": 1, "modifier": 0, "fatigue": 0}
    response = client.post(t.url("aethoria_test_request"), data, **HTMX)
    assert "a pas de joueur" in response.content.decode()
    assert t.refresh().npc.request == {}


def test_the_gm_rolls_in_the_players_place(client):
    t = table("aethoria")
    request = send_test(client, t)
    data = {"version": t.refresh().encounter.version, "request": request["id"], "kind": "test"}
    data["face"] = "10 10 10 10"
    response = client.post(t.url("request_take_over", t.lysandre.pk), data, **HTMX)
    assert response.status_code == 200
    event = Event.objects.filter(encounter=t.encounter).first()
    assert event.kind == "aethoria_test" and event.data["roll"]["faces"] == [10, 10, 10, 10]
    assert t.refresh().lysandre.request == {}


def test_answering_costs_no_more_queries_than_the_gms_attack(client):
    t = table("aethoria")
    request = send_test(client, t)
    client.force_login(t.lysandre_player)
    with CaptureQueriesContext(connection) as queries:
        response = answer(client, t, request, fatigue=1, dice="app")
    assert "est joué" in response.content.decode()
    steps = [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The GM's Aethoria attack step costs 8 at most; a test reads no weapon: 7.
    assert len(steps) <= 7, "\n".join(q["sql"][:150] for q in steps)
