"""Issue 12, point 9: an action of one system's console on a fight of the other system does
not exist (404), whatever is posted; its own system's fights still answer."""

import pytest
from django.urls import get_resolver, reverse

from tests.encounters.factories import (
    System,
    add_player,
    aethoria_fighter,
    campaign_with_gm,
    ew_fighter,
)
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _system_actions() -> list[str]:
    """Every route of the encounters app named after a system, from the URL configuration."""
    names = get_resolver().namespace_dict["encounters"][1].reverse_dict.keys()
    codes = tuple(f"{code}_" for code in System.values)
    return sorted(n for n in names if isinstance(n, str) and n.startswith(codes))


def _fight(system: str):
    campaign = campaign_with_gm(system)
    fighter = ew_fighter if system == System.EW else aethoria_fighter
    encounter = campaign.encounters.create(name="Rixe", status="running", round=1)
    for name in ("A", "B"):
        encounter.combatants.create(character=fighter(campaign, name))
    return encounter, campaign.memberships.get().user


def test_both_systems_have_actions_to_walk():
    names = _system_actions()
    assert any(n.startswith("ew_") for n in names)
    assert any(n.startswith("aethoria_") for n in names)


@pytest.mark.parametrize("name", _system_actions())
def test_the_other_systems_action_answers_404(client, name):
    other = System.AETHORIA if name.startswith("ew_") else System.EW
    encounter, gm = _fight(other)
    client.force_login(gm)
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    data = {"version": encounter.version, "combatant": encounter.combatants.first().pk}
    for answer in (
        client.get(url, data),
        client.get(url, data, **HTMX),
        client.post(url, data),
        client.post(url, data, **HTMX),
    ):
        assert answer.status_code in (404, 405), (name, answer.status_code)
    encounter.refresh_from_db()
    assert encounter.version == 1


def test_an_action_of_the_fights_own_system_still_answers(client):
    encounter, gm = _fight(System.EW)
    client.force_login(gm)
    response = client.get(reverse("encounters:ew_test_odds", args=[encounter.pk]), **HTMX)
    assert response.status_code == 200


def test_a_sheets_spend_of_the_other_system_answers_404(client):
    for system, url_name in ((System.AETHORIA, "eclat_spend"), (System.EW, "fatigue_spend")):
        campaign = campaign_with_gm(system)
        player = add_player(campaign)
        fighter = ew_fighter if system == System.EW else aethoria_fighter
        pc = fighter(campaign, "Brandon", owner=player)
        client.force_login(player)
        url = reverse(f"characters:{url_name}", args=[pc.pk])
        assert client.post(url, once(kind="physical", count=1)).status_code == 404
        assert client.post(url, once(note="x"), **HTMX).status_code == 404
