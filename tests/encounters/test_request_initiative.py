"""Initiative asked of the players (issue #31): each player's die kept on their request, taken
by the step that rolls the initiative; the sheet refuses a spend while a roll is asked; an
idle phone costs nothing; the player ends their own turn."""

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.encounters.request_fixtures import table
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def at_round_end(t):
    """The last fighter acts: the next turn opens a new round (EW rolls initiative again)."""
    Encounter.objects.filter(pk=t.encounter.pk).update(turn=2)
    return t.refresh()


def test_the_players_dice_open_the_new_round(client):
    t = at_round_end(table())
    client.force_login(t.gm)
    response = client.post(t.url("request_initiative"), {"version": t.encounter.version}, **HTMX)
    assert response.status_code == 200
    t.refresh()
    assert t.lysandre.request["kind"] == "initiative" and t.ysolde.request
    assert not t.npc.request
    assert "en attente de Lysandre Vey" in client.get(t.url("console")).content.decode()
    client.force_login(t.lysandre_player)
    panel = client.get(t.url("request_panel"), **HTMX).content.decode()
    assert "initiative" in panel and "1d10" in panel
    data = {"request": t.lysandre.request["id"], "kind": "initiative", "face": 7}
    response = client.post(t.url("request_answer", t.lysandre.pk), data, **HTMX)
    assert "7" in response.content.decode()
    assert t.refresh().lysandre.request["face"] == 7
    # Its answer given, the request takes no second one.
    again = client.post(t.url("request_answer", t.lysandre.pk), data, **HTMX)
    assert "plus ouverte" in again.content.decode()
    client.force_login(t.gm)
    client.post(t.url("next_turn"), {"version": t.encounter.version}, **HTMX)
    t.refresh()
    assert t.encounter.round == 2
    assert t.lysandre.initiative_roll == 7
    assert t.lysandre.request == {} and t.ysolde.request == {}
    # One undo: the round is closed again, the answered request back as it was.
    client.post(t.url("undo"), {"version": t.encounter.version}, **HTMX)
    assert t.refresh().lysandre.request["face"] == 7


def test_a_face_out_of_range_is_refused_in_french(client):
    t = at_round_end(table())
    client.force_login(t.gm)
    client.post(t.url("request_initiative"), {"version": t.encounter.version}, **HTMX)
    request = t.refresh().lysandre.request
    client.force_login(t.lysandre_player)
    data = {"request": request["id"], "kind": "initiative", "face": 11}
    response = client.post(t.url("request_answer", t.lysandre.pk), data, **HTMX)
    assert "d10 donne de 1 à 10" in response.content.decode()
    assert "face" not in t.refresh().lysandre.request


def test_the_gm_cancels_and_a_late_answer_is_refused(client):
    t = at_round_end(table())
    client.force_login(t.gm)
    client.post(t.url("request_initiative"), {"version": t.encounter.version}, **HTMX)
    request = t.refresh().lysandre.request
    client.post(t.url("request_cancel", t.lysandre.pk), {"version": t.encounter.version}, **HTMX)
    assert t.refresh().lysandre.request == {}
    client.force_login(t.lysandre_player)
    data = {"request": request["id"], "kind": "initiative", "dice": "app"}
    response = client.post(t.url("request_answer", t.lysandre.pk), data, **HTMX)
    assert "plus ouverte" in response.content.decode()


def test_the_sheet_refuses_an_eclat_spend_while_a_defence_is_asked(client):
    t = table()
    client.force_login(t.gm)
    data = {
        "version": t.encounter.version,
        "attacker": t.npc.pk,
        "target": t.lysandre.pk,
        "defence": "none",
        "modifier": 0,
        "request_kind": "defence",
    }
    client.post(t.url("ew_request"), data, **HTMX)
    client.force_login(t.lysandre_player)
    sheet = t.lysandre.character.ew
    url = reverse("characters:eclat_spend", args=[t.lysandre.character_id])
    response = client.post(url, once(note="chance", confirmed=True), **HTMX)
    assert "Un jet t" in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.eclat == 3


def test_the_acting_player_ends_their_own_turn_and_the_gm_can_undo_it(client):
    t = table(first="lysandre")
    client.force_login(t.ysolde_player)
    refused = client.post(t.url("end_own_turn"), {}, **HTMX)
    assert "pas ton tour" in refused.content.decode()
    client.force_login(t.lysandre_player)
    response = client.post(t.url("end_own_turn"), {}, **HTMX)
    assert response.status_code == 200
    t.refresh()
    assert t.encounter.turn == 1
    client.force_login(t.gm)
    client.post(t.url("undo"), {"version": t.encounter.version}, **HTMX)
    assert t.refresh().encounter.turn == 0


def test_an_idle_phone_costs_no_query(client):
    """The phone's panel asks nothing while nothing changes: it follows a stream, or the
    table's own check; no timer of its own."""
    t = table()
    client.force_login(t.lysandre_player)
    page = client.get(t.url("table")).content.decode()
    assert 'id="my-turn"' in page and "every" not in page.split('id="my-turn"')[1][:400]


def test_the_initiative_is_asked_before_the_start(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre Vey", owner=player)
    npc = ew_fighter(campaign, "Garnier")
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    services.combatants_add(encounter_id=encounter.pk, characters=[pc, npc])
    encounter.refresh_from_db()
    client.force_login(gm)
    url = reverse("encounters:request_initiative", args=[encounter.pk])
    asked = client.post(url, {"version": encounter.version}, **HTMX)
    assert asked.status_code == 200
    # A console in preparation has no undo: its answer sends none to swap in (htmx would
    # report a missing target in the GM's browser).
    assert 'id="undo-redo"' not in asked.text
    fighter = encounter.combatants.get(character=pc)
    client.force_login(player)
    answer = reverse("encounters:request_answer", args=[encounter.pk, fighter.pk])
    client.post(answer, {"request": fighter.request["id"], "kind": "initiative", "face": 9})
    encounter.refresh_from_db()
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    fighter.refresh_from_db()
    assert fighter.initiative_roll == 9 and fighter.request == {}


def test_a_house_rule_hides_the_odds_against_npcs(client):
    t = table()
    campaign = t.encounter.campaign
    campaign.set_house_rules(dataclasses.replace(campaign.house(), odds_against_npcs=False))
    client.force_login(t.gm)
    data = {
        "version": t.encounter.version,
        "attacker": t.npc.pk,
        "target": t.lysandre.pk,
        "defence": "none",
        "modifier": 0,
        "request_kind": "defence",
    }
    client.post(t.url("ew_request"), data, **HTMX)
    client.force_login(t.lysandre_player)
    panel = client.get(t.url("request_panel"), **HTMX).content.decode()
    assert "secrètes" in panel and "touché à" not in panel


def test_the_initiative_answer_costs_no_more_queries_than_the_gms_attack(client):
    t = at_round_end(table())
    client.force_login(t.gm)
    client.post(t.url("request_initiative"), {"version": t.encounter.version}, **HTMX)
    request = t.refresh().lysandre.request
    client.force_login(t.lysandre_player)
    data = {"request": request["id"], "kind": "initiative", "face": 4}
    with CaptureQueriesContext(connection) as queries:
        client.post(t.url("request_answer", t.lysandre.pk), data, **HTMX)
    steps = [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The user, the fight's system, the lock, the request, the event, the versions: 6.
    assert len(steps) <= 6, "\n".join(q["sql"][:120] for q in steps)
