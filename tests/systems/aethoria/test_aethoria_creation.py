"""The Aethoria creation wizard: checked by the rules as the user types; only valid sheets
saved."""

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSheet, Character
from tests.characters.factories import (
    AethoriaGodFactory,
    AethoriaMagicDomainFactory,
    AethoriaSkillFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def aethoria_compendium():
    return {
        "sword": AethoriaSkillFactory(name="Épée"),
        "magic": AethoriaSkillFactory(name="Magie", kind="magic", characteristic="pouvoir"),
        "god": AethoriaGodFactory(name="Ferrun", pouvoir=6),
        "domain": AethoriaMagicDomainFactory(name="Télékinésie"),
    }


def aethoria_data(c, **changes):
    data = {
        "name": "Maëlle",
        "force": 6,
        "adresse": 7,
        "vitalite": 5,
        "concentration": 4,
        "intelligence": 5,
        "esprit": 6,
        "magic_type": "none",
        f"skill_{c['sword'].pk}": 5,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_player_creates_an_aethoria_pc(client, aethoria_campaign, player, aethoria_compendium):
    client.force_login(player)
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    response = client.post(url, aethoria_data(aethoria_compendium))
    assert response.status_code == 302
    sheet = AethoriaSheet.objects.get()
    assert (sheet.pv, sheet.fatigue_physical, sheet.fatigue_mental) == (22, 11, 10)
    assert sheet.skills.get().rank == 5


def test_a_marque_takes_the_pouvoir_of_the_god(
    client, aethoria_campaign, player, aethoria_compendium
):
    client.force_login(player)
    data = aethoria_data(
        aethoria_compendium, magic_type="marque", god=aethoria_compendium["god"].pk, pouvoir=9
    )
    client.post(reverse("characters:create", args=[aethoria_campaign.pk]), data)
    sheet = AethoriaSheet.objects.get()
    assert (sheet.magic_type, sheet.pouvoir, sheet.god) == ("marque", 6, aethoria_compendium["god"])


@pytest.mark.parametrize(
    ("changes", "slot"),
    [
        ({"force": 10}, "force"),
        ({"esprit": 0}, "esprit"),
        ({"magic_type": "doue", "pouvoir": 5}, "domain"),
        ({"magic_type": "doue", "domain": "DOMAIN", "pouvoir": ""}, "pouvoir"),
        ({"magic_type": "none", "pouvoir": 4}, "pouvoir"),
        ({"skill_SWORD": 10}, "skill_SWORD"),
    ],
)
def test_a_broken_aethoria_rule_is_named_and_nothing_is_saved(
    client, aethoria_campaign, player, aethoria_compendium, changes, slot
):
    c = aethoria_compendium
    sword = str(c["sword"].pk)
    changes = {k.replace("SWORD", sword): v for k, v in changes.items()}
    changes = {k: (c["domain"].pk if v == "DOMAIN" else v) for k, v in changes.items()}
    slot = slot.replace("SWORD", sword)
    client.force_login(player)
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    response = client.post(url, aethoria_data(c, **changes))
    assert response.status_code == 200
    assert dict(response.context["form"].error_slots())[slot]
    assert not Character.objects.exists() and not AethoriaSheet.objects.exists()


def test_only_the_gm_may_allow_exceptional_values(
    client, aethoria_campaign, gm, player, aethoria_compendium
):
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    client.force_login(player)
    response = client.post(url, aethoria_data(aethoria_compendium, force=11, exceptional="on"))
    assert response.status_code == 200 and not Character.objects.exists()
    client.force_login(gm)
    response = client.post(url, aethoria_data(aethoria_compendium, force=11, exceptional="on"))
    assert response.status_code == 302
    assert Character.objects.get().aethoria.force == 11
