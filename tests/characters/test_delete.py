"""The GM deletes a mistaken character; one that fought stays, and the page says why."""

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign, LogEntry
from apps.characters.models import Character, EwSheet, XpEntry
from apps.encounters import services as encounters
from apps.encounters.models import Encounter
from tests.characters.factories import CharacterFactory, NpcFactory, XpEntryFactory
from tests.submissions import once

pytestmark = pytest.mark.django_db


def url(character):
    return reverse("characters:delete", args=[character.pk])


def test_the_sheet_offers_the_gm_to_delete_and_the_page_asks_first(client, gm, player, campaign):
    pc = CharacterFactory(campaign=campaign, owner=player, name="Lysandre")
    client.force_login(gm)
    assert url(pc) in client.get(reverse("characters:detail", args=[pc.pk])).text
    page = client.get(url(pc))
    assert "Supprimer Lysandre ?" in page.text and "ne peut pas être annulé" in page.text
    assert Character.objects.filter(pk=pc.pk).exists()  # asking deletes nothing
    client.force_login(player)
    assert url(pc) not in client.get(reverse("characters:detail", args=[pc.pk])).text


def test_deleting_takes_the_sheet_and_the_xp_ledger_and_logs_it(client, gm, player, campaign):
    pc = CharacterFactory(campaign=campaign, owner=player, name="Lysandre")
    XpEntryFactory(character=pc, amount=5)
    before = Campaign.objects.get(pk=campaign.pk).version
    client.force_login(gm)
    response = client.post(url(pc), once())
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert not Character.objects.filter(pk=pc.pk).exists()
    assert not EwSheet.objects.filter(pk=pc.pk).exists()
    assert not XpEntry.objects.filter(character_id=pc.pk).exists()
    line = "Personnage Lysandre supprimé par le MJ."
    assert LogEntry.objects.filter(campaign=campaign, text=line).exists()
    # Open screens of the campaign (the party at a glance) learn of it.
    assert Campaign.objects.get(pk=campaign.pk).version > before
    assert "Le personnage Lysandre a été supprimé." in client.get(response["Location"]).text


def test_a_character_that_fought_is_kept_and_the_page_names_the_fight(client, gm, campaign):
    npc = NpcFactory(campaign=campaign, name="Sbire")
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe sur les quais")
    encounters.combatants_add(encounter_id=encounter.pk, characters=[npc])
    client.force_login(gm)
    page = client.get(url(npc))
    assert "Rixe sur les quais" in page.text and "effacerait l'histoire" in page.text
    assert "pour de bon" not in page.text  # no delete button
    response = client.post(url(npc), once())  # a forged or late POST changes nothing either
    assert response.status_code == 200 and "Rixe sur les quais" in response.text
    assert Character.objects.filter(pk=npc.pk).exists()
    assert not LogEntry.objects.filter(campaign=campaign, text__contains="supprimé").exists()
