import pytest
from django.core.management import call_command

from apps.campaigns.models import Campaign
from apps.characters.models import Character
from apps.demo.models import DemoRecord
from apps.systems.aethoria.demo import DEMO_CAMPAIGN as AETHORIA_DEMO_CAMPAIGN
from apps.systems.ew.demo import DEMO_CAMPAIGN as EW_DEMO_CAMPAIGN

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seeded", [True, False], ids=["with-seeds", "without-seeds"])
def test_the_demo_has_one_living_campaign_per_system_created_once(client, seeded, settings):
    settings.DEBUG = True  # the demo is for development
    if seeded:
        call_command("seed", verbosity=0)
    call_command("demo")
    call_command("demo")
    campaigns = {c.name: c for c in Campaign.objects.all()}
    assert set(campaigns) == {EW_DEMO_CAMPAIGN, AETHORIA_DEMO_CAMPAIGN}
    for campaign in campaigns.values():
        assert campaign.memberships.count() == 3
        pcs = Character.objects.for_campaign(campaign).pcs()
        assert sorted(pc.owner.username for pc in pcs) == ["alice", "bruno"]
        assert Character.objects.for_campaign(campaign).npcs().count() >= 3
        assert all(pc.xp_balance() > 0 for pc in pcs)
    from apps.accounts.models import User

    client.force_login(User.objects.get(username="alice"))
    body = client.get("/").text
    assert "Lysandre Vey" in body and "Maëlle" in body


def test_a_renamed_or_deleted_demo_campaign_stays_so():
    call_command("demo")
    Campaign.objects.filter(name=EW_DEMO_CAMPAIGN).update(name="Marseille, saison 2")
    aethoria = Campaign.objects.get(name=AETHORIA_DEMO_CAMPAIGN)
    aethoria.encounters.all().delete()  # a fight protects its fighters, who protect it
    aethoria.delete()
    call_command("demo")
    assert list(Campaign.objects.values_list("name", flat=True)) == ["Marseille, saison 2"]


def test_demo_campaigns_made_before_the_demo_kept_records_are_not_made_twice():
    call_command("demo")
    DemoRecord.objects.filter(key__startswith="campaign:").delete()  # as an older demo left it
    call_command("demo")
    assert Campaign.objects.count() == 2
    assert DemoRecord.objects.filter(key__startswith="campaign:").count() == 2
