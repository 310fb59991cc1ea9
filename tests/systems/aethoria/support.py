"""A small Aethoria table for the console tests: Ysolde (PC) against Brandon (NPC)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSkillRank
from apps.encounters.models import Encounter
from tests.compendium.factories import (
    AethoriaArmourCoverageFactory,
    AethoriaShieldFactory,
    AethoriaWeaponFactory,
)
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, single_skill

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(name="table")
def aethoria_table(client):
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    # Ysolde: Force 5, Adresse 6, Vitalité 5 -> PV 20; épée 2+2d, rank 4; esquive 3.
    ysolde = aethoria_fighter(campaign, "Ysolde", owner=player)
    # Brandon: same body; a breastplate (torso RD 2) and a shield (parade 6, rank 2).
    brandon = aethoria_fighter(campaign, "Brandon")
    sheet = brandon.aethoria
    coverage = AethoriaArmourCoverageFactory(location="torso", rd=2)
    sheet.armour_pieces.add(coverage.piece)
    sheet.shield = AethoriaShieldFactory(parry_value=6)
    sheet.save()
    AethoriaSkillRank.objects.create(sheet=sheet, skill=single_skill("parry"), rank=2)
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    client.force_login(gm)
    return {
        "campaign": campaign,
        "gm": gm,
        "ysolde": ysolde,
        "brandon": brandon,
        "encounter": encounter,
        "client": client,
    }


def url(name, encounter, *args):
    return reverse(f"encounters:{name}", args=[encounter.pk, *args])


def post(table, name, data=None, **extra):
    encounter = table["encounter"]
    encounter.refresh_from_db()
    payload = {"version": encounter.version, **(data or {})}
    return table["client"].post(url(name, encounter), payload, **HTMX, **extra)


def combatant(table, name):
    return table["encounter"].combatants.get(character=table[name])


def start(table, ysolde_face=15, brandon_face=5):
    response = post(
        table, "combatants_add", {"characters": [table["ysolde"].pk, table["brandon"].pk]}
    )
    assert response.status_code == 200
    y, b = combatant(table, "ysolde"), combatant(table, "brandon")
    response = post(table, "start", {f"face_{y.pk}": ysolde_face, f"face_{b.pk}": brandon_face})
    assert response.status_code == 200, response.text
    return y, b


def last(table, kind):
    """The latest event of that kind."""
    return table["encounter"].events.filter(kind=kind).order_by("-sequence").first()


def weapon(table, name):
    # Their first weapon, by creation: weapons sort by name, and factory names ("Arme 10"
    # before "Arme 9") would pick a weapon given later in the test once enough exist.
    return table[name].aethoria.weapons.order_by("pk").first()


def give_weapon(character, rank: int = 4, **kwargs):
    weapon = AethoriaWeaponFactory(**kwargs)
    character.aethoria.weapons.add(weapon)
    AethoriaSkillRank.objects.create(sheet=character.aethoria, skill=weapon.skill, rank=rank)
    return weapon


def attack(table, attacker, target, **fields):
    attacker_name = "ysolde" if attacker.character_id == table["ysolde"].pk else "brandon"
    data = {
        "attacker": attacker.pk,
        "target": target.pk,
        "mode": "attack",
        "weapon": weapon(table, attacker_name).pk,
        "defence": "none",
        "modifier": 0,
        "fatigue": 0,
    }
    data.update(fields)
    return post(table, "aethoria_attack", data)


# Ysolde's blow that beats Brandon's dodge and lands on his right arm hard enough to propose
# bleeding: attack 1 3 7 9 -> 3 successes against a dodge 2 8 9 -> 1 (net 2), d20 12 -> the
# right arm, damage 1 4 under Force 5 + 2 fixed -> 5 >= Vitalité 5.
ARM_BLOW = {
    "defence": "dodge",
    "attack_faces": "1 3 7 9",
    "location_faces": "12",
    "defence_faces": "2 8 9",
    "damage_faces": "1 4",
}


def arm_blow(table, attacker, target, **fields):
    """``attack`` with the dice of ``ARM_BLOW`` (``fields`` add to them)."""
    return attack(table, attacker, target, **{**ARM_BLOW, **fields})


def errors(response) -> list[str]:
    """The refusal messages shown in a response."""
    import re

    return re.findall(r'class="field-error"[^>]*>([^<]*)<', response.text)


def state(table):
    """Everything an undo must restore: pools, turn, round, combatant states."""
    encounter = table["encounter"]
    encounter.refresh_from_db()
    rows = []
    for c in encounter.combatants.select_related("character__aethoria").order_by("pk"):
        sheet = c.character.aethoria
        rows.append(
            (c.pk, sheet.pv, sheet.fatigue_physical, sheet.fatigue_mental, c.state, c.position)
        )
    return (encounter.status, encounter.round, encounter.turn, rows)


def snapshot(table):
    """State plus the number of events: a refused action changes neither."""
    return state(table), table["encounter"].events.count()
