"""A fight for the roll requests' tests (issue #31): a GM, two players with a PC each, an NPC
acting first (typed initiative faces)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Combatant, Encounter
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter


@dataclass
class Table:
    encounter: Encounter
    gm: object
    lysandre_player: object
    ysolde_player: object
    npc: Combatant
    lysandre: Combatant
    ysolde: Combatant

    @property
    def system(self) -> str:
        return self.encounter.campaign.system

    def refresh(self) -> Table:
        self.encounter.refresh_from_db()
        for fighter in (self.npc, self.lysandre, self.ysolde):
            fighter.refresh_from_db()
        return self

    def url(self, name: str, *args) -> str:
        return reverse(f"encounters:{name}", args=[self.encounter.pk, *args])


def table(system: str = "ew", *, first: str = "npc", **house) -> Table:
    fighter = aethoria_fighter if system == "aethoria" else ew_fighter
    campaign = campaign_with_gm(system)
    if house:
        campaign.set_house_rules(dataclasses.replace(campaign.house(), **house))
    gm = campaign.memberships.get().user
    one, two = add_player(campaign), add_player(campaign)
    lysandre = fighter(campaign, "Lysandre Vey", owner=one)
    ysolde = fighter(campaign, "Ysolde", owner=two)
    npc = fighter(campaign, "Garnier")
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    services.combatants_add(encounter_id=encounter.pk, characters=[lysandre, ysolde, npc])
    order = {"npc": npc, "lysandre": lysandre}[first]
    faces = {
        c.pk: 10 if c.character_id == order.pk else (5 if c.character_id != ysolde.pk else 1)
        for c in encounter.combatants.all()
    }
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    encounter.refresh_from_db()
    by_character = {c.character_id: c for c in encounter.combatants.all()}
    return Table(
        encounter,
        gm,
        one,
        two,
        by_character[npc.pk],
        by_character[lysandre.pk],
        by_character[ysolde.pk],
    )
