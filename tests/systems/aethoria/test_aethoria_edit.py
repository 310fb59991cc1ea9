"""The GM edits an Aethoria sheet in the creation wizard: pre-filled, the same rules, all or
nothing."""

import pytest
from django.urls import reverse

from apps.campaigns.models import LogEntry
from apps.characters.models import AethoriaSheet, Character
from apps.compendium import models as compendium
from tests.characters.factories import (
    AethoriaGodFactory,
    AethoriaMagicDomainFactory,
    AethoriaSkillFactory,
    CharacterFactory,
    NpcFactory,
)

pytestmark = pytest.mark.django_db


def url(character):
    return reverse("characters:edit", args=[character.pk])


@pytest.fixture
def a():
    return {
        "stealth": AethoriaSkillFactory(name="Discrétion"),
        "lore": AethoriaSkillFactory(name="Érudition", characteristic="intelligence"),
        "domain": AethoriaMagicDomainFactory(name="Feu"),
        "god": AethoriaGodFactory(name="Vulcain", pouvoir=6),
        "shield": compendium.AethoriaShield.objects.create(name="Rondache", parry_value=5),
    }


@pytest.fixture
def hero(aethoria_campaign, player, a):
    character = CharacterFactory(
        campaign=aethoria_campaign, owner=player, name="Ysolde", sheet__pv=15
    )
    character.aethoria.skills.create(skill=a["stealth"], rank=4)
    return character


def aethoria_data(**changes):
    data = {
        "name": "Ysolde",
        "concept": "",
        "force": 5,
        "adresse": 5,
        "vitalite": 5,
        "concentration": 5,
        "intelligence": 5,
        "esprit": 5,
        "magic_type": "none",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def aethoria_snapshot(character):
    sheet = AethoriaSheet.objects.get(pk=character.pk)
    return (
        Character.objects.values("name", "concept").get(pk=character.pk),
        AethoriaSheet.objects.filter(pk=character.pk).values().get(),
        sorted(sheet.skills.values_list("skill_id", "rank")),
        sorted(sheet.weapons.values_list("pk", flat=True)),
        sorted(sheet.armour_pieces.values_list("pk", flat=True)),
        LogEntry.objects.count(),
    )


def test_the_aethoria_wizard_is_filled_with_the_sheet(client, gm, hero, a):
    client.force_login(gm)
    response = client.get(url(hero))
    assert response.status_code == 200
    form = response.context["form"]
    assert form["force"].value() == 5 and form["magic_type"].value() == "none"
    assert form[f"skill_{a['stealth'].pk}"].value() == 4
    assert "exceptional" not in form.fields  # a PC, as at creation
    assert 'data-counter="pv">20<' in response.text


def test_a_valid_aethoria_edit_rewrites_the_sheet_and_clamps_the_pools(
    client, gm, hero, a, aethoria_campaign
):
    client.force_login(gm)
    data = aethoria_data(
        force=4,
        vitalite=3,
        esprit=7,
        magic_type="doue",
        domain=a["domain"].pk,
        pouvoir=4,
        shield=a["shield"].pk,
        **{f"skill_{a['stealth'].pk}": 6, f"skill_{a['lore'].pk}": 2},
    )
    response = client.post(url(hero), data)
    assert response.status_code == 302
    sheet = AethoriaSheet.objects.get(pk=hero.pk)
    assert (sheet.force, sheet.vitalite, sheet.esprit) == (4, 3, 7)
    assert (sheet.magic_type, sheet.domain, sheet.pouvoir) == ("doue", a["domain"], 4)
    assert sheet.shield == a["shield"]
    assert dict(sheet.skills.values_list("skill__name", "rank")) == {
        "Discrétion": 6,
        "Érudition": 2,
    }
    derived = sheet.derived(aethoria_campaign.house())
    # PV were 15 of 20; the new maximum is lower, so they are clamped to it.
    assert sheet.pv == min(15, derived.pv)
    assert sheet.fatigue_physical == derived.physical_fatigue == 7
    assert sheet.fatigue_mental == 10  # the maximum rose to 12; the current value stays
    assert LogEntry.objects.filter(campaign=aethoria_campaign).last().text == (
        "Fiche de Ysolde modifiée par le MJ"
    )


def test_a_marque_takes_the_pouvoir_of_the_god(client, gm, hero, a):
    client.force_login(gm)
    client.post(url(hero), aethoria_data(magic_type="marque", god=a["god"].pk))
    sheet = AethoriaSheet.objects.get(pk=hero.pk)
    assert (sheet.god, sheet.pouvoir, sheet.domain) == (a["god"], 6, None)


@pytest.mark.parametrize(
    ("changes", "slot"),
    [
        ({"force": 11}, "force"),
        ({"force": 10}, "force"),  # a PC: 9 at most, as at creation
        ({"skill_STEALTH": 10}, "skill_STEALTH"),
        ({"magic_type": "doue", "pouvoir": 4}, "domain"),
    ],
)
def test_a_broken_aethoria_rule_is_named_and_no_row_changes(client, gm, hero, a, changes, slot):
    stealth = str(a["stealth"].pk)
    changes = {k.replace("STEALTH", stealth): v for k, v in changes.items()}
    slot = slot.replace("STEALTH", stealth)
    before = aethoria_snapshot(hero)
    client.force_login(gm)
    response = client.post(url(hero), aethoria_data(name="Autre", **changes))
    assert response.status_code == 200
    assert response.context["form"].errors.get(slot)
    assert f'id="err-{slot}"' in response.text
    assert aethoria_snapshot(hero) == before


def test_an_aethoria_npc_may_have_exceptional_values(client, gm, aethoria_campaign):
    npc = NpcFactory(campaign=aethoria_campaign, name="Ogre")
    client.force_login(gm)
    data = aethoria_data(name="Ogre", force=12, exceptional="on")
    assert client.post(url(npc), data).status_code == 302
    sheet = AethoriaSheet.objects.get(pk=npc.pk)
    assert (sheet.force, sheet.exceptional) == (12, True)
