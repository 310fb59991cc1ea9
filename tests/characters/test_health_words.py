"""A character's state in words is the same on its sheet, the campaign page, the encounter
console and the players' table view (it was "indemne" on a scratched PC's sheet while the
table view said "égratigné")."""

import re

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSheet, EwSheet
from apps.encounters import services
from apps.encounters.models import Encounter, Status
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db


def words_on_pages(client, campaign, character, player) -> dict[str, str]:
    """The word each page gives the character: sheet headline, console and table rows."""
    encounter = Encounter.objects.create(campaign=campaign, name="Quais")
    services.combatants_add(encounter_id=encounter.pk, characters=[character])
    gm = campaign.memberships.get(role="gm").user
    # Players follow a fight once it runs (a fight in preparation is not theirs to see).
    Encounter.objects.filter(pk=encounter.pk).update(status=Status.RUNNING, round=1)
    client.force_login(gm)
    sheet = client.get(reverse("characters:detail", args=[character.pk])).content.decode()
    console = client.get(reverse("encounters:console", args=[encounter.pk])).content.decode()
    client.force_login(player)
    table = client.get(reverse("encounters:table", args=[encounter.pk])).content.decode()
    row = r'<span class="words[^"]*">([^<]+)</span>'
    return {
        "sheet": re.search(r'<p class="state-word[^"]*">([^<·]+)', sheet).group(1).strip().lower(),
        "console": re.search(row, console).group(1),
        "table": re.search(row, table).group(1),
    }


@pytest.mark.parametrize(
    ("superficial", "lethal", "word"),
    [
        (24, 24, "indemne"),
        (20, 24, "égratignures"),
        (11, 24, "blessure légère"),
        (5, 24, "blessure grave"),
    ],
)
def test_ew_words_agree_everywhere(client, superficial, lethal, word):
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre", owner=player)  # PHY 8: 24 points per pool
    EwSheet.objects.filter(pk=pc.pk).update(superficial_left=superficial, lethal_left=lethal)
    assert words_on_pages(client, campaign, pc, player) == dict.fromkeys(
        ("sheet", "console", "table"), word
    )


@pytest.mark.parametrize(
    ("pv", "word"),
    [(20, "indemne"), (12, "blessure légère"), (9, "blessure grave"), (-5, "sans vie")],
)
def test_aethoria_words_agree_everywhere(client, pv, word):
    campaign = campaign_with_gm("aethoria")
    player = add_player(campaign)
    pc = aethoria_fighter(campaign, "Torvald", owner=player, force=5, vitalite=5)
    pv_max = AethoriaSheet.objects.get(pk=pc.pk).derived(campaign.house()).pv
    assert pv_max == 20
    AethoriaSheet.objects.filter(pk=pc.pk).update(pv=pv)
    assert words_on_pages(client, campaign, pc, player) == dict.fromkeys(
        ("sheet", "console", "table"), word
    )
