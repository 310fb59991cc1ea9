"""An attack that puts out of the fight the last fighter still to act this round makes "next
turn" open a new round: its answer then carries the new round's physical-dice faces, as a
reload would, instead of the attack's fragments alone (which would leave them out until the
page is reloaded)."""

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.characters.models import AethoriaSheet, EwSheet
from tests.encounters.factories import started_duel
from tests.systems.aethoria.support import aethoria_table as table  # noqa: F401 (fixture)
from tests.systems.aethoria.support import arm_blow, start

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_ROUND = 'id="new-round"'


def ew_blow(client, duel):
    """Brandon (acting first) hits Garnier, who is to act after him: 9 on the damage die."""
    encounter = duel.encounter
    brandon, garnier = (encounter.combatants.get(character=c) for c in (duel.pc, duel.npc))
    encounter.refresh_from_db()
    data = {
        "version": encounter.version,
        "attacker": brandon.pk,
        "target": garnier.pk,
        "defence": "none",
        "modifier": 0,
        "to_hit_face": 1,
        "damage_face": 9,
    }
    response = client.post(reverse("encounters:ew_attack", args=[encounter.pk]), data, **HTMX)
    assert response.status_code == 200 and 'class="field-error"' not in response.text
    return response


def test_an_ew_attack_that_knocks_out_the_last_one_to_act_offers_the_new_rounds_dice(client):
    duel = started_duel(first="pc")
    EwSheet.objects.filter(pk=duel.npc.pk).update(superficial_left=1)
    client.force_login(duel.gm)
    answer = ew_blow(client, duel).text
    assert EwSheet.objects.get(pk=duel.npc.pk).superficial_left == 0  # Garnier is out
    assert NEW_ROUND in answer and "Initiative du round 2 aux dés physiques" in answer
    reload = client.get(reverse("encounters:console", args=[duel.encounter.pk])).text
    assert NEW_ROUND in reload


def test_an_ew_attack_that_leaves_someone_to_act_answers_with_its_fragments(client):
    duel = started_duel(first="pc")
    client.force_login(duel.gm)
    answer = ew_blow(client, duel).text
    assert NEW_ROUND not in answer
    assert 'id="console-actions"' not in answer  # the light answer: the panel stays


@pytest.mark.parametrize("reroll", [True, False])
def test_an_aethoria_blow_that_knocks_out_the_last_one_to_act(table, reroll):  # noqa: F811
    """With initiative rolled again each round (a house rule), the new round's dice are
    offered at once; without it, the new round keeps its order and asks for no dice."""
    campaign = table["campaign"]
    Campaign.objects.filter(pk=campaign.pk).update(
        house_rules={**campaign.house_rules, "initiative_reroll_each_round": reroll}
    )
    ysolde, brandon = start(table)  # Ysolde first: 15 against 5
    AethoriaSheet.objects.filter(pk=table["brandon"].pk).update(pv=1)
    answer = arm_blow(table, ysolde, brandon).text
    assert AethoriaSheet.objects.get(pk=table["brandon"].pk).pv <= 0
    assert (NEW_ROUND in answer) is reroll
    reload = table["client"].get(reverse("encounters:console", args=[table["encounter"].pk]))
    assert (NEW_ROUND in reload.text) is reroll
