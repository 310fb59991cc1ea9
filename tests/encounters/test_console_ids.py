"""No id is used twice on the console, whatever forms it shows at once: a label must name
its own field (for screen readers, and for a click on the label)."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter


def duplicate_ids(html: str) -> list[str]:
    counts = Counter(re.findall(r'\sid="([^"]+)"', html))
    return sorted(name for name, count in counts.items() if count > 1)


@pytest.mark.django_db
@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_no_id_is_used_twice_on_the_console(client, system):
    campaign = campaign_with_gm(system)
    gm = campaign.memberships.get().user
    if system == "ew":
        first = ew_fighter(campaign, "Ysolde", owner=add_player(campaign))
        second = ew_fighter(campaign, "Brandon")
    else:  # a doué acting first: the attack, special action, spell and test forms at once
        owner = add_player(campaign)
        first = aethoria_fighter(
            campaign, "Ysolde", owner=owner, magic_type="doue", pouvoir=5, magie=3
        )
        second = aethoria_fighter(campaign, "Brandon")
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    ysolde, brandon = services.combatants_add(encounter_id=encounter.pk, characters=[first, second])
    client.force_login(gm)
    url = reverse("encounters:console", args=[encounter.pk])
    pages = {"preparing": client.get(url).text}
    services.encounter_start(
        encounter_id=encounter.pk, version=None, by=gm, initiative={ysolde.pk: 9, brandon.pk: 1}
    )
    pages["running, test panel open"] = client.get(url, {"panel": "test"}).text
    services.encounter_end(encounter_id=encounter.pk, version=None, by=gm)
    pages["finished"] = client.get(url).text
    for state, html in pages.items():
        assert duplicate_ids(html) == [], state
