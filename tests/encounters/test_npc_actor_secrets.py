"""What the players read of an NPC that acts: never its numbers.

An NPC caster's érys burn, the fatigue it paid, the power it put in; the fatigue dice an
NPC adds to an attack or a defence; the PV it bleeds; an EW NPC's score and margin (its
level through the grid) and its initiative total (the die plus its com): the GM's log keeps
them, the players' table view says what happened without them. A PC's own numbers stay on
every line. Every role is walked: the GM, the PC's player, another player of the campaign,
another campaign's player, an outsider and an anonymous visitor."""

from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from apps.systems.aethoria.state import FighterState
from tests.accounts.factories import UserFactory
from tests.encounters.factories import (
    add_player,
    aethoria_fighter,
    campaign_with_gm,
    ew_fighter,
    started_duel,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def as_user(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post(client, name, encounter, data):
    encounter.refresh_from_db()
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    response = client.post(url, {"version": encounter.version, **data}, **HTMX)
    assert response.status_code == 200, response.text
    assert 'class="field-error"' not in response.text, response.text
    return response


def table_page(user, encounter, **extra) -> str:
    response = as_user(user).get(reverse("encounters:table", args=[encounter.pk]), **extra)
    assert response.status_code == 200
    return response.text


def console_page(gm, encounter) -> str:
    return as_user(gm).get(reverse("encounters:console", args=[encounter.pk])).text


def line_of(page: str, words: str) -> str:
    """The players' log line (or the GM's) holding these words."""
    lines = page.split("log-line")[1:]
    return next(part.split("</li>")[0] for part in lines if words in part)


# --- Aethoria: a mage of each side ---------------------------------------------------------


@pytest.fixture
def magic_table():
    """A running Aethoria fight: the NPC mage Sombre acts first, against Ysolde (a PC)."""
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    other_player = add_player(campaign)
    ysolde = aethoria_fighter(
        campaign, "Ysolde", owner=player, magic_type="doue", pouvoir=7, magie=3
    )
    # Pouvoir 7, Magie 3; fatigue 10 physical, 8 mental; PV 20.
    sombre = aethoria_fighter(campaign, "Sombre", magic_type="doue", pouvoir=7, magie=3)
    encounter = Encounter.objects.create(campaign=campaign, name="La tour")
    services.combatants_add(encounter_id=encounter.pk, characters=[ysolde, sombre])
    y = encounter.combatants.get(character=ysolde)
    s = encounter.combatants.get(character=sombre)
    services.encounter_start(
        encounter_id=encounter.pk, version=None, by=gm, initiative={s.pk: 18, y.pk: 3}
    )
    other_campaign = campaign_with_gm("aethoria")
    return {
        "encounter": encounter,
        "gm": gm,
        "player": player,
        "other_player": other_player,
        "stranger": add_player(other_campaign),
        "outsider": UserFactory(),
        "y": y,
        "s": s,
        "gm_client": as_user(gm),
    }


def burning_spell(table, caster):
    """Pouvoir 4 put in, 1 2 3 under 4: every die succeeds, an érys burn of 4 PV, and
    ceil(4 / 3) = 2 fatigue of each pool."""
    return post(
        table["gm_client"],
        "aethoria_spell",
        table["encounter"],
        {"caster": caster.pk, "invested": 4, "difficulty": 2, "label": "Feu", "faces": "1 2 3"},
    )


def assert_burning_spells_numbers(line):
    """Every number of ``burning_spell`` is on this log line."""
    assert "Pouvoir investi 4" in line and "brûlure d&#x27;érys : 4 PV" in line
    assert "fatigue 2 physique, 2 mentale" in line


def test_an_npc_casters_burn_and_spends_never_reach_a_players_screen(magic_table):
    table = magic_table
    encounter = table["encounter"]
    burning_spell(table, table["s"])
    for viewer in (table["player"], table["other_player"]):
        for extra in ({}, HTMX):
            line = line_of(table_page(viewer, encounter, **extra), "Sombre lance Feu")
            assert "brûlure d&#x27;érys" in line and "réussi" in line
            assert "PV" not in line and "Pouvoir investi" not in line
            assert "fatigue" not in line
    # The GM's log keeps every number.
    assert_burning_spells_numbers(line_of(console_page(table["gm"], encounter), "Sombre lance Feu"))


def test_other_campaigns_outsiders_and_anonymous_get_nothing_of_the_fight(magic_table):
    table = magic_table
    encounter = table["encounter"]
    burning_spell(table, table["s"])
    url = reverse("encounters:table", args=[encounter.pk])
    for viewer in (table["stranger"], table["outsider"]):
        assert as_user(viewer).get(url).status_code == 404
        assert as_user(viewer).get(url, **HTMX).status_code == 404
    anonymous = as_user(None).get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("accounts:login"))


def test_fatigue_dice_an_npc_adds_to_its_spell_are_told_without_their_number(magic_table):
    table = magic_table
    encounter = table["encounter"]
    burning_spell(table, table["s"])
    spell = encounter.events.get(kind="aethoria_spell")
    post(table["gm_client"], "aethoria_fatigue", encounter, {"event": spell.pk, "count": 2})
    line = line_of(table_page(table["player"], encounter), "Sombre ajoute")
    assert "Sombre ajoute des dés de fatigue à son jet (Feu)" in line
    assert "2 dés" not in line
    gm_line = line_of(console_page(table["gm"], encounter), "Sombre ajoute")
    assert "Sombre ajoute 2 dés de fatigue à son jet (Feu)" in gm_line


def test_a_pc_casters_own_numbers_stay_on_the_players_line(magic_table):
    table = magic_table
    encounter = table["encounter"]
    post(table["gm_client"], "next_turn", encounter, {})
    burning_spell(table, table["y"])
    assert_burning_spells_numbers(
        line_of(table_page(table["other_player"], encounter), "Ysolde lance Feu")
    )


def test_an_npcs_fatigue_dice_on_its_attack_and_defence_are_told_without_number(magic_table):
    table = magic_table
    encounter = table["encounter"]
    s, y = table["s"], table["y"]
    weapon = s.character.aethoria.weapons.get()
    attack = {
        "attacker": s.pk,
        "target": y.pk,
        "mode": "attack",
        "weapon": weapon.pk,
        "defence": "dodge",
        "modifier": 0,
        "fatigue": 2,
        "attack_faces": "1 3 7 9",
        "fatigue_faces": "9 9",  # no success: the blow stays ARM_BLOW's (net 2)
        "defence_faces": "2 8 9",
        "location_faces": "12",
        "damage_faces": "1 4",
    }
    post(table["gm_client"], "aethoria_attack", encounter, attack)
    line = line_of(table_page(table["player"], encounter), "Sombre attaque Ysolde")
    assert "[dés de fatigue]" in line and "2 dés" not in line
    # Ysolde's wound is hers: its numbers stay.
    assert "RD 0" in line and "PV" in line
    assert "2 dés de fatigue" in line_of(console_page(table["gm"], encounter), "Sombre attaque")
    # Ysolde's turn: Sombre, the target, defends with fatigue dice of its own.
    post(table["gm_client"], "next_turn", encounter, {})
    weapon = y.character.aethoria.weapons.get()
    defended = {
        **attack,
        "attacker": y.pk,
        "target": s.pk,
        "weapon": weapon.pk,
        "fatigue": 0,
        "fatigue_faces": "",
        "defence_fatigue": 1,
        "defence_fatigue_faces": "9",
    }
    post(table["gm_client"], "aethoria_attack", encounter, defended)
    line = line_of(table_page(table["player"], encounter), "Ysolde attaque Sombre")
    assert "défense + dés de fatigue" in line and "+1 dé" not in line
    gm_line = line_of(console_page(table["gm"], encounter), "Ysolde attaque Sombre")
    assert "défense +1 dé(s) de fatigue" in gm_line


def test_an_npc_bleeding_at_its_turn_is_told_without_its_pv(magic_table):
    table = magic_table
    encounter = table["encounter"]
    s = table["s"]
    s.state = replace(FighterState.of(s), bleeding=True).to_json()
    s.save(update_fields=["state"])
    post(table["gm_client"], "next_turn", encounter, {})  # Ysolde
    post(table["gm_client"], "next_turn", encounter, {})  # round 2: Sombre bleeds
    line = line_of(table_page(table["player"], encounter), "Au tour de Sombre")
    assert "Sombre saigne." in line and "PV perdu" not in line
    gm_line = line_of(console_page(table["gm"], encounter), "Au tour de Sombre")
    assert "Saignement : 1 PV perdu(s)." in gm_line


# --- EW: an NPC's score and its initiative ---------------------------------------------------


def test_an_ew_npcs_score_margin_and_initiative_stay_the_gms():
    duel = started_duel(first="npc")
    encounter = duel.encounter
    pc = encounter.combatants.get(character=duel.pc)
    npc = encounter.combatants.get(character=duel.npc)
    gm = as_user(duel.gm)
    attack = {
        "attacker": npc.pk,
        "target": pc.pk,
        "defence": "none",
        "modifier": 0,
        "to_hit_face": 3,
        "damage_face": 5,
    }
    post(gm, "ew_attack", encounter, attack)
    page = table_page(duel.player, encounter)
    line = line_of(page, "Garnier attaque Brandon")
    assert ": 3, touché" in line and "≤" not in line
    # Brandon's wound is his: its numbers stay.
    assert "superficiel" in line
    start = line_of(page, "Début du combat")
    # The PC's total (1 + com 8) shows, the NPC's does not.
    assert "Brandon (9)" in start and "Garnier (" not in start
    console = console_page(duel.gm, encounter)
    assert "3 ≤ " in line_of(console, "Garnier attaque Brandon")
    assert "Garnier (18)" in line_of(console, "Début du combat")


def test_an_ew_npcs_test_shows_its_face_and_verdict_not_its_score_or_margin():
    duel = started_duel(first="npc")
    encounter = duel.encounter
    npc = encounter.combatants.get(character=duel.npc)
    rank = duel.npc.ew.specialties.get()
    data = {
        "combatant": npc.pk,
        "na_source": "com",
        "specialty": rank.pk,
        "nd": 2,
        "modifier": 0,
        "label": "Guet",
        "face": 4,
    }
    post(as_user(duel.gm), "ew_test", encounter, data)
    line = line_of(table_page(duel.player, encounter), "Garnier tente Guet")
    assert ": 4, réussi" in line and "marge" not in line
    assert "marge" in line_of(console_page(duel.gm, encounter), "Garnier tente Guet")


def test_reinforcements_arrive_without_their_initiative_on_the_players_line():
    duel = started_duel(first="pc")
    encounter = duel.encounter
    guard = ew_fighter(encounter.campaign, "Garde")
    post(as_user(duel.gm), "reinforce", encounter, {"character": guard.pk})
    line = line_of(table_page(duel.player, encounter), "Renfort")
    assert "Garde rejoint" in line and "Garde (" not in line
    assert "Garde (" in line_of(console_page(duel.gm, encounter), "Renfort")
