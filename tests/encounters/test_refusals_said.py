"""Issue 12, point 11: every refusal says why — next to its field when the answer shows the
form, else in the message area — and changes nothing."""

import pytest
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fight():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    a, b = ew_fighter(campaign, "Amaury"), ew_fighter(campaign, "Bérénice")
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    services.combatants_add(encounter_id=encounter.pk, characters=[a, b])
    return {"campaign": campaign, "gm": gm, "encounter": encounter}


def _start(fight):
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    services.encounter_start(
        encounter_id=encounter.pk, version=encounter.version, by=fight["gm"], initiative={}
    )
    encounter.refresh_from_db()
    return encounter


def _followed(client, response) -> str:
    assert response.status_code == 302
    return client.get(response["Location"]).text


@pytest.mark.parametrize("face", [0, 11])
def test_next_turn_with_a_bad_initiative_face_says_why(client, fight, face):
    encounter = _start(fight)
    client.force_login(fight["gm"])
    name = encounter.combatants.first().character.name
    url = reverse("encounters:next_turn", args=[encounter.pk])
    data = {"version": encounter.version, f"face_{encounter.combatants.first().pk}": face}
    answers = [
        client.post(url, data, **HTMX).text,
        _followed(client, client.post(url, data)),
    ]
    # With htmx, next to the face's field in the new round's form (issue 17); without, in
    # the message area of the page it goes back to.
    assert 'class="field-error" id="id_round_face_' in answers[0]
    assert "message-error" in answers[1]
    for html in answers:
        assert name in html and "10" in html  # "Amaury : … entre 1 et 10" in some words
    encounter.refresh_from_db()
    assert encounter.version == data["version"] and encounter.turn == 0


def test_adding_another_campaigns_character_says_why(client, fight):
    stranger = ew_fighter(campaign_with_gm("ew"), "Étranger")
    client.force_login(fight["gm"])
    encounter = fight["encounter"]
    url = reverse("encounters:combatants_add", args=[encounter.pk])
    data = {"characters": [stranger.pk], "version": encounter.version}
    htmx = client.post(url, data, **HTMX).text
    assert 'class="field-error"' in htmx
    plain = _followed(client, client.post(url, data))
    assert "message-error" in plain and "Personnages" in plain
    assert "Étranger" not in plain and "Étranger" not in htmx
    assert encounter.combatants.count() == 2


def test_the_sheet_says_why_a_form_was_refused_without_htmx(client):
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Brandon", owner=player)
    client.force_login(player)
    page = _followed(client, client.post(reverse("characters:notes", args=[pc.pk]), {"name": ""}))
    assert "message-error" in page
    pc.refresh_from_db()
    assert pc.name == "Brandon"


def test_revealing_a_pc_says_why_nothing_happened(client):
    campaign = campaign_with_gm("ew")
    pc = ew_fighter(campaign, "Brandon", owner=add_player(campaign))
    client.force_login(campaign.memberships.get(role="gm").user)
    page = _followed(client, client.post(reverse("characters:reveal", args=[pc.pk]), once()))
    assert "seul un PNJ se révèle" in page


def test_resetting_the_grid_of_an_aethoria_campaign_says_why(client):
    campaign = campaign_with_gm("aethoria")
    client.force_login(campaign.memberships.get().user)
    page = _followed(client, client.post(reverse("campaigns:grid_reset", args=[campaign.pk])))
    assert "Seul EW-System a une table de résolution" in page
