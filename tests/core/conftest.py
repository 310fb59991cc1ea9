"""Fixtures shared by the core tests."""

import pytest

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter


@pytest.fixture
def english_table(client, db):
    """An EW campaign with a running fight (Brandon acts first), its GM logged in with
    English chosen."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    gm.set_language("en")
    brandon = ew_fighter(campaign, "Brandon", owner=add_player(campaign))
    ysolde = ew_fighter(campaign, "Ysolde", phy=6, armour=1)
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade")
    services.combatants_add(encounter_id=encounter.pk, characters=[brandon, ysolde])
    b = encounter.combatants.get(character=brandon)
    y = encounter.combatants.get(character=ysolde)
    services.encounter_start(
        encounter_id=encounter.pk, version=None, by=gm, initiative={b.pk: 9, y.pk: 2}
    )
    client.force_login(gm)
    return {"campaign": campaign, "brandon": brandon, "encounter": encounter, "b": b, "y": y}
