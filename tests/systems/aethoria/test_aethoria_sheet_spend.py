"""Fatigue spent from an Aethoria sheet for extra dice; more than the pool holds is refused."""

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSheet
from tests.characters.factories import AethoriaSkillFactory, CharacterFactory
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def aethoria_pc(aethoria_campaign, player):
    character = CharacterFactory(campaign=aethoria_campaign, owner=player, name="Maëlle")
    character.aethoria.skills.create(skill=AethoriaSkillFactory(name="Épée"), rank=4)
    return character


def test_the_owner_spends_fatigue(client, aethoria_pc, player):
    client.force_login(player)
    url = reverse("characters:fatigue_spend", args=[aethoria_pc.pk])
    response = client.post(url, once(kind="mental", count=2), **HTMX)
    assert response.status_code == 200
    assert AethoriaSheet.objects.get(pk=aethoria_pc.pk).fatigue_mental == 8


@pytest.mark.parametrize(
    ("data", "left"), [({"kind": "physical", "count": 3}, 2), ({"kind": "mental", "count": 4}, 10)]
)
def test_more_fatigue_than_available_or_allowed_is_refused(client, aethoria_pc, player, data, left):
    AethoriaSheet.objects.filter(pk=aethoria_pc.pk).update(fatigue_physical=2)
    client.force_login(player)
    url = reverse("characters:fatigue_spend", args=[aethoria_pc.pk])
    response = client.post(url, once(data), **HTMX)
    assert response.status_code == 200
    assert response.context["fatigue_form"].errors
    sheet = AethoriaSheet.objects.get(pk=aethoria_pc.pk)
    assert (sheet.fatigue_physical, sheet.fatigue_mental) == (2, 10)
