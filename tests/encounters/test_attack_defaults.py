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
    campaign = campaign_with_gm("ew")
    people = [
        ew_fighter(campaign, "Brandon", owner=add_player(campaign)),
        ew_fighter(campaign, "Ysolde"),
    ]
    encounter, gm = started(campaign, people, (10, 1))
    brandon = encounter.combatants.get(character=people[0])
    client.force_login(gm)
    client.post(
        reverse("encounters:ew_stance", args=[encounter.pk]),
        {
            "version": Encounter.objects.get(pk=encounter.pk).version,
            "combatant": brandon.pk,
            "stance": "total_defence",
        },
        **HTMX,
    )
    odds = console(client, encounter)
    odds = odds[odds.index('id="ew-attack-odds"') :]
    odds = odds[: odds.index("</div>")]
    assert "ne peut pas attaquer ce round" in odds
