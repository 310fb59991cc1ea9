"""The admin deletes a campaign that was played — fights, XP taken back, everything — while
a character that fought still cannot be deleted on its own (its fights' history names it)."""

import pytest
from django.db.models import RestrictedError
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.characters.models import Character, XpEntry
from apps.characters.services import character_delete
from apps.characters.services.pools import CharacterInUse
from apps.characters.services.xp import xp_award, xp_award_cancel
from apps.encounters import services
from apps.encounters.models import Combatant, Encounter
from tests.demo_data import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(settings):
    """Both demo campaigns, their fights started and a PC's XP award taken back."""
    gm = load_demo(settings)
    for encounter in Encounter.objects.all():
        services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    for campaign in Campaign.objects.all():
        pc = campaign.characters.filter(owner__isnull=False).first()
        (award,) = xp_award(campaign=campaign, characters=[pc], amount=5, reason="Prime", by=gm)
        xp_award_cancel(entry=award, by=gm)
    return gm


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_the_admin_deletes_a_played_campaign_and_leaves_the_other_whole(
    admin_client, played, system
):
    campaign = Campaign.objects.get(system=system)
    other = Campaign.objects.exclude(pk=campaign.pk).get()
    others = (other.characters.count(), Combatant.objects.filter(encounter__campaign=other).count())
    assert Combatant.objects.filter(encounter__campaign=campaign).exists()
    url = reverse("admin:campaigns_campaign_delete", args=[campaign.pk])

    confirmation = admin_client.get(url)
    assert confirmation.status_code == 200
    assert not confirmation.context["protected"]  # nothing stands in the way

    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Character.objects.filter(campaign_id=campaign.pk).exists()
    assert not Encounter.objects.filter(campaign_id=campaign.pk).exists()
    assert not XpEntry.objects.filter(character__campaign_id=campaign.pk).exists()
    assert (
        other.characters.count(),
        Combatant.objects.filter(encounter__campaign=other).count(),
    ) == others


def test_a_character_that_fought_is_still_not_deleted_alone(admin_client, played):
    fought = Combatant.objects.filter(encounter__campaign__system="ew").first().character
    with pytest.raises(CharacterInUse):
        character_delete(character=fought, by=played)
    with pytest.raises(RestrictedError):
        fought.delete()
    url = reverse("admin:characters_character_delete", args=[fought.pk])
    assert admin_client.get(url).context["protected"]
    admin_client.post(url, {"post": "yes"})
    assert Character.objects.filter(pk=fought.pk).exists()


def test_an_xp_line_that_another_cancels_is_still_not_deleted_alone(played):
    cancelled = XpEntry.objects.filter(cancelled_by__isnull=False).first()
    with pytest.raises(RestrictedError):
        cancelled.delete()
