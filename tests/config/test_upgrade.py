"""The README's upgrade steps keep what the table made and what the admin edited."""

import pytest
from django.core.management import call_command

from apps.campaigns.models import Campaign
from apps.compendium.models import EwWeapon
from tests.campaigns.factories import CampaignFactory


@pytest.mark.django_db
def test_migrate_and_seed_keep_an_admins_edit_and_a_campaign(admin_client):
    call_command("seed", verbosity=0)
    knife = EwWeapon.objects.get(name="Couteau")
    knife.damage_bonus = 4  # what the admin's change form saves
    knife.save()
    campaign = CampaignFactory(name="Les Ombres de Marseille, saison 2")

    # The README's upgrade, after installing the new version:
    call_command("migrate", interactive=False, verbosity=0)
    call_command("seed", verbosity=0)

    knife.refresh_from_db()
    assert knife.damage_bonus == 4
    assert Campaign.objects.get(pk=campaign.pk).name == "Les Ombres de Marseille, saison 2"
    assert admin_client.get(f"/admin/compendium/ewweapon/{knife.pk}/change/").status_code == 200
