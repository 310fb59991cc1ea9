"""The attack form as first shown: aimed at someone worth striking, and saying up front when
the acting fighter cannot attack at all."""

import re

import pytest
from django.urls import reverse

from apps.campaigns.models import Role
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import (
    add_player,
    aethoria_fighter,
    campaign_with_gm,
    ew_fighter,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def started(campaign, characters, faces):
    """A running fight in which ``characters`` act in this order (initiative faces)."""
    gm = campaign.memberships.get(role=Role.GM).user
    encounter = Encounter.objects.create(campaign=campaign, name="Mêlée")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=characters)
    initiative = {c.pk: face for c, face in zip(combatants, faces, strict=True)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=initiative)
    return encounter, gm


def selected_target(html: str, form_id: str) -> str:
    form = html[html.index(f'id="{form_id}"') :]
    select = form[form.index('name="target"') :]
    select = select[: select.index("</select>")]
    return re.search(r'<option value="\d+" selected>([^<]+)</option>', select).group(1)


def console(client, encounter) -> str:
    return client.get(reverse("encounters:console", args=[encounter.pk]), **HTMX).text


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_a_pc_first_aims_at_the_first_living_npc(client, system):
    campaign = campaign_with_gm(system)
    player = add_player(campaign)
    fighter = ew_fighter if system == "ew" else aethoria_fighter
    people = [
        fighter(campaign, "Brandon", owner=player),
        fighter(campaign, "Ysolde", owner=player),  # an ally, next in the order
        fighter(campaign, "Sbire mort"),
        fighter(campaign, "Sbire debout"),
    ]
    faces = (10, 9, 8, 7) if system == "ew" else (20, 19, 18, 17)
    encounter, gm = started(campaign, people, faces)
    dead = people[2]
    if system == "ew":
        dead.ew.superficial_left = dead.ew.lethal_left = 0
        dead.ew.save()
    else:
        dead.aethoria.pv = -dead.aethoria.vitalite * 2
        dead.aethoria.save()
    client.force_login(gm)
    html = console(client, encounter)
    form_id = "ew-attack" if system == "ew" else "aethoria-attack"
    # Not the ally next in line, not the dead one: the first NPC still standing.
    assert selected_target(html, form_id) == "Sbire debout"


def test_an_ew_fighter_in_total_defence_is_told_before_trying_to_attack(client):
    encounter, brandon, _ysolde = duel(client)
    post(client, "ew_stance", encounter, {"combatant": brandon.pk, "stance": "total_defence"})
    odds = console(client, encounter)
    odds = odds[odds.index('id="ew-attack-odds"') :]
    odds = odds[: odds.index("</div>")]
    assert "ne peut pas attaquer ce round" in odds


def duel(client):
    """Brandon (a PC) acts first against Ysolde; the GM is logged in."""
    campaign = campaign_with_gm("ew")
    people = [
        ew_fighter(campaign, "Brandon", owner=add_player(campaign)),
        ew_fighter(campaign, "Ysolde"),
    ]
    encounter, gm = started(campaign, people, (10, 1))
    client.force_login(gm)
    return encounter, *(encounter.combatants.get(character=c) for c in people)


def post(client, name: str, encounter, data: dict):
    version = Encounter.objects.get(pk=encounter.pk).version
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    return client.post(url, {"version": version, **data}, **HTMX)


def miss(client, encounter, attacker, target):
    data = {"attacker": attacker.pk, "target": target.pk, "defence": "none", "modifier": 0}
    return post(client, "ew_attack", encounter, {**data, "to_hit_face": 20})


def stance_card(html: str) -> str:
    card = html[html.index('class="card stance"') :]
    return card[: card.index("</div>")]


def test_the_console_offers_only_the_stances_the_rules_still_allow(client):
    encounter, brandon, ysolde = duel(client)
    card = stance_card(console(client, encounter))
    assert "Attaque totale (+" in card and "Défense totale (+" in card
    # Once he has attacked, total defence is no longer his to declare.
    miss(client, encounter, brandon, ysolde)
    card = stance_card(console(client, encounter))
    assert "Attaque totale (+" in card and "Défense totale (+" not in card
    # Declared, it is said, not offered again.
    post(client, "ew_stance", encounter, {"combatant": brandon.pk, "stance": "total_attack"})
    card = stance_card(console(client, encounter))
    assert "Attaque totale déclarée pour ce round." in card and "<button" not in card


def test_an_attack_answers_with_the_stances_left(client):
    encounter, brandon, ysolde = duel(client)
    response = miss(client, encounter, brandon, ysolde)
    # The attack form stays; the stance card is redrawn: total defence is gone.
    card = response.text[response.text.index('id="ew-stance" hx-swap-oob="true"') :]
    card = card[: card.index("</div>")]
    assert "Attaque totale (+" in card and "Défense totale (+" not in card
