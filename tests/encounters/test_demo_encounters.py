import pytest
from django.core.management import call_command

from apps.accounts.models import User
from apps.encounters import services
from apps.encounters.models import Encounter, Status


@pytest.mark.django_db
def test_each_demo_campaign_has_a_fight_ready_to_start(settings):
    settings.DEBUG = True  # the demo is for development
    call_command("seed", verbosity=0)
    call_command("demo")
    call_command("demo")
    encounters = list(Encounter.objects.select_related("campaign"))
    assert sorted(e.campaign.system for e in encounters) == ["aethoria", "ew"]
    gm = User.objects.get(username="mj")
    for encounter in encounters:
        assert encounter.status == Status.PREPARING
        assert encounter.combatants.filter(character__kind="pc").count() == 2
        assert encounter.combatants.filter(hidden=True).count() == 1
        assert not encounter.combatants.filter(character__is_template=True).exists()
        if encounter.campaign.system == "aethoria":  # a doué, so spells can be tried
            assert encounter.combatants.filter(character__aethoria__magic_type="doue").exists()
        services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
        encounter.refresh_from_db()
        assert encounter.status == Status.RUNNING and encounter.round == 1
