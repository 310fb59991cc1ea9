"""A point d'éclat spent from an EW sheet: its reason, then a confirmation; refusals next to
the field."""

import re

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign, LogEntry
from apps.characters.models import EwSheet
from tests.characters.factories import (
    ew_pc_with_a_pistol,
)
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def version(campaign) -> int:
    return Campaign.objects.get(pk=campaign.pk).version


@pytest.fixture
def pc(campaign, player):
    return ew_pc_with_a_pistol(campaign, player)


def test_the_owner_spends_a_point_d_eclat_with_htmx(client, pc, player, campaign):
    client.force_login(player)
    before = version(campaign)
    url = reverse("characters:eclat_spend", args=[pc.pk])
    # The reason first: the sheet asks for a confirmation, nothing spent yet.
    response = client.post(url, once(note="la porte cède"), **HTMX)
    assert response.status_code == 200
    assert "Dépenser 1 point d'éclat pour « la porte cède » ? Il vous en restera 2." in (
        response.text
    )
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3 and not LogEntry.objects.exists()
    response = client.post(url, once(note="la porte cède", confirmed="1"), **HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<article id="sheet"')
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2
    assert "la porte cède" in LogEntry.objects.get().text
    assert version(campaign) > before


def test_a_spend_without_its_reason_is_refused_next_to_the_field(client, pc, player):
    client.force_login(player)
    url = reverse("characters:eclat_spend", args=[pc.pk])
    response = client.post(url, once(note="", confirmed="1"), **HTMX)
    assert re.search(r'id="err-note"[^>]*><p class="field-error">Dites pour quoi', response.text)
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3 and not LogEntry.objects.exists()


def test_without_htmx_the_confirmation_is_a_page_then_the_spend_redirects(client, pc, player):
    client.force_login(player)
    url = reverse("characters:eclat_spend", args=[pc.pk])
    response = client.post(url, once(note="la porte cède"))
    assert response.status_code == 200 and "Oui, dépenser" in response.text
    assert "<html" in response.text and EwSheet.objects.get(pk=pc.pk).eclat == 3
    response = client.post(url, once(note="la porte cède", confirmed="1"))
    assert response["Location"] == reverse("characters:detail", args=[pc.pk])
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2


def test_no_eclat_left_is_told_next_to_the_field_and_nothing_changes(client, pc, player):
    EwSheet.objects.filter(pk=pc.pk).update(eclat=0)
    client.force_login(player)
    url = reverse("characters:eclat_spend", args=[pc.pk])
    response = client.post(url, once(note="encore", confirmed="1"), **HTMX)
    assert response.status_code == 200
    assert response.context["eclat_form"].errors["note"]
    assert EwSheet.objects.get(pk=pc.pk).eclat == 0
    assert not LogEntry.objects.exists()


def test_a_forged_spend_on_another_players_character_is_refused(client, pc, other_player):
    client.force_login(other_player)
    response = client.post(reverse("characters:eclat_spend", args=[pc.pk]), once(), **HTMX)
    assert response.status_code == 403
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3
