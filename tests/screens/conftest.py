"""A running EW fight the table screen shows: a player's PC, an NPC the players see (in words)
and one hidden from them; a screen link to it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from apps.campaigns.models import Campaign
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.systems.ew.combat import AttackChoice, ew_attack
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.screens.factories import make_link

# The NPCs' numbers as a page would show them: Garnier (PHY 6) has 18 points in each pool,
# the lurker (PHY 7) 21; Brandon, the PC (PHY 8), 24.
NPC_NUMBERS = ("/ 18", "18</strong>", "/ 21", "21</strong>")


@dataclass
class Table:
    campaign: Campaign
    encounter: Encounter
    gm: object
    player: object
    outsider_campaign: Campaign
    token: str


def start_ambush(campaign: Campaign, gm, player, *, extras: int = 0) -> Encounter:
    """Brandon acts first, the hidden lurker second, Garnier last (``extras`` NPC henchmen
    after them); Brandon hits Garnier."""
    brandon = ew_fighter(campaign, "Brandon", owner=player)
    garnier = ew_fighter(campaign, "Commissaire Garnier", phy=6)
    lurker = ew_fighter(campaign, "Rôdeur des quais", phy=7)
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade aux docks")
    services.combatants_add(encounter_id=encounter.pk, characters=[brandon, garnier])
    services.combatants_add(encounter_id=encounter.pk, characters=[lurker], hidden=True)
    henchmen = [ew_fighter(campaign, f"Sbire {n}", phy=5) for n in range(1, extras + 1)]
    if henchmen:
        services.combatants_add(encounter_id=encounter.pk, characters=henchmen)
    order = {brandon.pk: 10, lurker.pk: 6, garnier.pk: 2}
    faces = {c.pk: order.get(c.character_id, 1) for c in encounter.combatants.all()}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    fighters = {c.character_id: c.pk for c in encounter.combatants.all()}
    choice = AttackChoice(attacker_id=fighters[brandon.pk], target_id=fighters[garnier.pk])
    ew_attack(
        encounter_id=encounter.pk,
        version=None,
        by=gm,
        choice=choice,
        to_hit_face=1,
        damage_face=9,
    )
    encounter.refresh_from_db()
    return encounter


@pytest.fixture
def table(db) -> Table:
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    encounter = start_ambush(campaign, gm, player)
    other = campaign_with_gm("ew")
    return Table(campaign, encounter, gm, player, other, make_link(campaign))
