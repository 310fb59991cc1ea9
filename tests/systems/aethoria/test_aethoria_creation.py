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
from tests.submissions import once

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
    response = client.post(url, once(aethoria_data(aethoria_compendium)))
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
    client.post(reverse("characters:create", args=[aethoria_campaign.pk]), once(data))
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
    response = client.post(url, once(aethoria_data(c, **changes)))
    assert response.status_code == 200
    assert dict(response.context["form"].error_slots())[slot]
    assert not Character.objects.exists() and not AethoriaSheet.objects.exists()


def test_only_the_gm_may_allow_exceptional_values(
    client, aethoria_campaign, gm, player, aethoria_compendium
):
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    client.force_login(player)
    response = client.post(
        url, once(aethoria_data(aethoria_compendium, force=11, exceptional="on"))
    )
    assert response.status_code == 200 and not Character.objects.exists()
    client.force_login(gm)
    response = client.post(
        url, once(aethoria_data(aethoria_compendium, force=11, exceptional="on"))
    )
    assert response.status_code == 302
    assert Character.objects.get().aethoria.force == 11


def status_line(response) -> str:
    return response.text.split('class="status-line">')[1].split("</p>")[0]


def test_the_sheet_is_not_valid_while_a_required_input_is_empty(
    client, aethoria_campaign, player, aethoria_compendium
):
    """The live check says "À remplir : Nom, Force", not "Fiche valide ✓" (issue 29)."""
    client.force_login(player)
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    data = {**aethoria_data(aethoria_compendium), "name": "", "force": "", "check": "1"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert status_line(response) == "À remplir : Nom, Force"
    data = {**data, "name": "Maëlle", "force": 6}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert status_line(response) == "Fiche valide ✓"
    data = {**data, "name": "", "esprit": 0}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert status_line(response) == "1 règle à corriger · À remplir : Nom"


def test_a_skill_rank_refused_does_not_name_its_skill_twice(
    client, aethoria_campaign, player, aethoria_compendium
):
    """Said under "Épée (Force)", the message need not say "Épée : " again (issue 29)."""
    client.force_login(player)
    sword = aethoria_compendium["sword"]
    url = reverse("characters:create", args=[aethoria_campaign.pk])
    response = client.post(
        url, once(aethoria_data(aethoria_compendium, **{f"skill_{sword.pk}": 12}))
    )
    errors = response.context["form"].errors[f"skill_{sword.pk}"]
    assert errors == ["Le rang de compétence : valeur attendue entre 0 et 9 (reçu : 12)."]
