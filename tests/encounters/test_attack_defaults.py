"""The attack form as first shown: aimed at someone worth striking, and saying up front when
the acting fighter cannot attack at all."""

import re

import pytest
from django.urls import reverse

from apps.campaigns.models import Role
from apps.characters.models import EwSpecialtyRank
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.compendium.factories import EwSpecialtyFactory, EwWeaponFactory
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


# --- Issue 29: a fighter knocked out is not a default target; bare hands count -------------


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_an_npc_opens_on_the_first_pc_still_standing_not_an_unconscious_one(client, system):
    campaign = campaign_with_gm(system)
    player = add_player(campaign)
    fighter = ew_fighter if system == "ew" else aethoria_fighter
    people = [
        fighter(campaign, "Sbire"),
        fighter(campaign, "Lysandre", owner=player),  # knocked out, still alive
        fighter(campaign, "Marco", owner=player),
    ]
    faces = (10, 9, 8) if system == "ew" else (20, 19, 18)
    encounter, gm = started(campaign, people, faces)
    lysandre = people[1]
    if system == "ew":
        lysandre.ew.superficial_left = 0  # unconscious, lethal points left
        lysandre.ew.save()
    else:
        lysandre.aethoria.pv = 0  # out of the fight, above the death threshold
        lysandre.aethoria.save()
    client.force_login(gm)
    form_id = "ew-attack" if system == "ew" else "aethoria-attack"
    assert selected_target(console(client, encounter), form_id) == "Marco"


def brawler_fight(client):
    """Rocco carries a bat he has no specialty for, and fights bare-handed at Corps à corps
    3; he acts first against Nina, who is built the same."""
    corps = EwSpecialtyFactory(name="Corps à corps")
    EwWeaponFactory(name="Poings", kind="fists", specialty=corps, damage_bonus=0)
    bat = EwWeaponFactory(name="Batte", kind="blunt", damage_bonus=2)
    campaign = campaign_with_gm("ew")
    people = [ew_fighter(campaign, "Rocco", weapon_bonus=None), ew_fighter(campaign, "Nina")]
    for character in people:
        sheet = character.ew
        sheet.weapons.set([bat])
        EwSpecialtyRank.objects.create(sheet=sheet, specialty=corps, level=3)
    encounter, gm = started(campaign, people, (10, 1))
    client.force_login(gm)
    return encounter, corps


def selected(html: str, name: str) -> str:
    form = html[html.index('id="ew-attack"') :]
    select = form[form.index(f'name="{name}"') :]
    select = select[: select.index("</select>")]
    return re.search(r'<option value="\d*" selected>([^<]+)</option>', select).group(1)


def test_an_ew_brawler_opens_bare_handed_with_corps_a_corps_and_defends_with_it(client):
    encounter, _corps = brawler_fight(client)
    html = console(client, encounter)
    assert selected(html, "weapon") == "Poings"
    assert selected(html, "specialty") == "Corps à corps (3)"
    assert selected(html, "defence_specialty") == "Corps à corps (3)"
    defence = html[html.index('id="ew-defence"') :]
    assert re.search(r'value="active"[^>]*checked', defence[: defence.index("</fieldset>")])


def test_an_ew_fighter_with_a_weapons_specialty_still_opens_with_that_weapon(client):
    encounter, _corps = brawler_fight(client)
    rocco = encounter.combatants.get(character__name="Rocco").character.ew
    bat = rocco.weapons.get()
    EwSpecialtyRank.objects.create(sheet=rocco, specialty=bat.specialty, level=3)
    html = console(client, encounter)
    assert selected(html, "weapon") == "Batte"  # a tie: the weapon hits harder
    assert selected(html, "specialty").startswith(bat.specialty.name)


def test_an_ew_target_switched_from_a_knocked_out_one_gets_its_own_defence(client):
    """The unconscious target forced "ne se défend pas": the new one defends (issue 29)."""
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    people = [
        ew_fighter(campaign, "Sbire"),
        ew_fighter(campaign, "Lysandre", owner=player),
        ew_fighter(campaign, "Marco", owner=player),
    ]
    encounter, gm = started(campaign, people, (10, 9, 8))
    people[1].ew.superficial_left = 0
    people[1].ew.save()
    client.force_login(gm)
    sbire, lysandre, marco = (encounter.combatants.get(character=c) for c in people)
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "attacker": sbire.pk,
        "target": marco.pk,
        "drawn_for": lysandre.pk,
        "weapon": people[0].ew.weapons.get().pk,
        "defence": "none",
        "modifier": 0,
    }
    url = reverse("encounters:ew_attack_odds", args=[encounter.pk])
    answer = client.get(url, data, **HTMX).text
    defence = answer[answer.index('id="ew-defence"') :]
    assert re.search(r'value="active"[^>]*checked', defence[: defence.index("</fieldset>")])
    assert f'name="drawn_for" value="{marco.pk}"' in defence
    # A defence the GM chose against a target that could defend stays as chosen.
    data.update(target=lysandre.pk, drawn_for=marco.pk)
    people[1].ew.superficial_left = 10
    people[1].ew.save()
    answer = client.get(url, data, **HTMX).text
    defence = answer[answer.index('id="ew-defence"') :]
    assert re.search(r'value="none"[^>]*checked', defence[: defence.index("</fieldset>")])


def test_an_aethoria_target_switched_from_a_knocked_out_one_gets_its_own_defence(client):
    campaign = campaign_with_gm("aethoria")
    player = add_player(campaign)
    people = [
        aethoria_fighter(campaign, "Sbire"),
        aethoria_fighter(campaign, "Lysandre", owner=player),
        aethoria_fighter(campaign, "Marco", owner=player),
    ]
    encounter, gm = started(campaign, people, (20, 19, 18))
    people[1].aethoria.pv = 0
    people[1].aethoria.save()
    client.force_login(gm)
    sbire, lysandre, marco = (encounter.combatants.get(character=c) for c in people)
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "attacker": sbire.pk,
        "target": marco.pk,
        "drawn_for": lysandre.pk,
        "mode": "attack",
        "weapon": people[0].aethoria.weapons.get().pk,
        "defence": "none",
        "modifier": 0,
        "fatigue": 0,
        "redraw": "1",
    }
    url = reverse("encounters:aethoria_attack_odds", args=[encounter.pk])
    answer = client.get(url, data, **HTMX).text
    select = answer[answer.index('name="defence"') :]
    assert re.search(r'<option value="dodge" selected>', select[: select.index("</select>")])
    assert f'name="drawn_for" value="{marco.pk}"' in answer
