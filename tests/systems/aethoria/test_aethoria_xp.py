"""Aethoria's rules price nothing in XP: its system has no XP costs, its sheets link no XP
spend, and a spend asked all the same is refused with the system's words."""

import pytest
from django.urls import reverse

from apps.characters import services
from apps.rules.errors import InvalidImprovement
from apps.systems import get_system
from tests.characters.factories import CharacterFactory, XpEntryFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def aethoria_pc(aethoria_campaign, player):
    character = CharacterFactory(campaign=aethoria_campaign, owner=player, name="Maëlle")
    XpEntryFactory(character=character, amount=10)
    return character


def test_aethoria_has_no_xp_costs():
    system = get_system("aethoria")
    assert system.xp_costs() is None and not system.spends_xp
    assert get_system("ew").spends_xp


def test_the_sheet_links_no_xp_spend_and_the_page_says_why(client, aethoria_pc, player):
    client.force_login(player)
    url = reverse("characters:xp_spend", args=[aethoria_pc.pk])
    assert url not in client.get(reverse("characters:detail", args=[aethoria_pc.pk])).text
    response = client.get(url, follow=True)
    assert "Les règles d&#x27;Aethoria ne fixent pas de coûts en XP" in response.text


def test_a_spend_asked_all_the_same_is_refused(aethoria_pc, player):
    with pytest.raises(InvalidImprovement):
        services.xp_spend(character=aethoria_pc, improvement=object(), by=player)
    assert aethoria_pc.xp_balance() == 10
