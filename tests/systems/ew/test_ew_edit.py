"""The GM edits an EW sheet in the creation wizard: pre-filled, the same rules, all or nothing."""

import pytest
from django.urls import reverse

from apps.campaigns.models import LogEntry
from apps.characters.models import Character, EwSheet
from apps.compendium import models as compendium
from apps.systems.ew.creation import EwChoices, character_create_ew
from tests.characters.factories import (
    EwArchetypeFactory,
    EwPowerFactory,
    EwSpecialtyFactory,
    EwTraitFactory,
    NpcFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def c():
    archetype = EwArchetypeFactory(name="Contrebandier", com_factor=2)
    return {
        "archetype": archetype,
        "aptitude": archetype.aptitudes.create(name="Planque", cost=2),
        "pistol": EwSpecialtyFactory(name="Arme de poing", field="com"),
        "lore": EwSpecialtyFactory(name="Histoire", field="con"),
        "trait": EwTraitFactory(name="Chanceux", cost=4),
        "power": EwPowerFactory(name="Télépathie", cost_per_level=3),
        "knife": compendium.EwWeapon.objects.create(name="Couteau", kind="bladed"),
        "gun": compendium.EwWeapon.objects.create(name="Matraque", kind="blunt"),
        "vest": compendium.EwArmour.objects.create(name="Gilet", protection=2),
    }


@pytest.fixture
def pc(campaign, player, c):
    """A valid EW PC (28 points, 36 generation points), a little wounded."""
    character = character_create_ew(
        campaign=campaign,
        name="Lysandre",
        concept="contrebandière",
        owner=player,
        choices=EwChoices(
            phy=8,
            men=6,
            per=8,
            pre=6,
            archetype=c["archetype"],
            specialties=[(c["pistol"], 3), (c["lore"], 2)],
            traits=[c["trait"]],
            aptitudes=[c["aptitude"]],
            powers=[(c["power"], 2)],
            weapons=[c["knife"]],
            armour=c["vest"],
        ),
    )
    EwSheet.objects.filter(pk=character.pk).update(superficial_left=20, lethal_left=22)
    return character


def url(character):
    return reverse("characters:edit", args=[character.pk])


def ew_data(c, **changes):
    """What the edit page would post back for the PC above, with changes."""
    data = {
        "name": "Lysandre",
        "concept": "contrebandière",
        "archetype": c["archetype"].pk,
        "phy": 8,
        "men": 6,
        "per": 8,
        "pre": 6,
        f"specialty_{c['pistol'].pk}": 3,
        f"specialty_{c['lore'].pk}": 2,
        "traits": [c["trait"].pk],
        "aptitudes": [c["aptitude"].pk],
        f"power_{c['power'].pk}": 2,
        "weapons": [c["knife"].pk],
        "armour": c["vest"].pk,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def ew_snapshot(character):
    """Everything an edit could change, read fresh from the database."""
    row = Character.objects.values("name", "concept").get(pk=character.pk)
    sheet = EwSheet.objects.get(pk=character.pk)
    return (
        row,
        EwSheet.objects.filter(pk=character.pk).values().get(),
        sorted(sheet.specialties.values_list("specialty_id", "level")),
        sorted(sheet.powers.values_list("power_id", "level")),
        sorted(sheet.traits.values_list("pk", flat=True)),
        sorted(sheet.aptitudes.values_list("pk", flat=True)),
        sorted(sheet.weapons.values_list("pk", flat=True)),
        LogEntry.objects.count(),
    )


# --- EW ---------------------------------------------------------------------------------------


def test_the_gm_gets_the_wizard_filled_with_the_sheet(client, gm, pc, c):
    client.force_login(gm)
    response = client.get(url(pc))
    assert response.status_code == 200
    form = response.context["form"]
    assert form["phy"].value() == 8 and form["pre"].value() == 6
    assert form[f"specialty_{c['pistol'].pk}"].value() == 3
    assert form[f"power_{c['power'].pk}"].value() == 2
    assert form["archetype"].value() == c["archetype"].pk
    assert form["traits"].value() == [c["trait"].pk]
    assert form["weapons"].value() == [c["knife"].pk]
    assert form["armour"].value() == c["vest"].pk
    body = response.text
    assert f'action="{url(pc)}"' in body and "Planque" in body
    assert 'data-counter="characteristics">0<' in body
    assert 'data-counter="generation">16<' in body  # 36 - (6 + 2 + 4 + 2 + 6)


def test_the_sheet_links_to_the_edit_page_for_the_gm_only(client, gm, player, pc):
    client.force_login(gm)
    assert url(pc) in client.get(reverse("characters:detail", args=[pc.pk])).text
    client.force_login(player)
    assert url(pc) not in client.get(reverse("characters:detail", args=[pc.pk])).text


def test_a_valid_edit_rewrites_the_sheet_and_logs_it(client, gm, pc, c, campaign):
    client.force_login(gm)
    version = campaign.version
    data = ew_data(
        c,
        name="Lysandre Vey",
        phy=9,
        per=7,
        **{f"specialty_{c['lore'].pk}": None, f"power_{c['power'].pk}": 1},
        traits=[],
        weapons=[c["gun"].pk],
        armour="",
    )
    response = client.post(url(pc), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:detail", args=[pc.pk])
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert (sheet.phy, sheet.men, sheet.per, sheet.pre) == (9, 6, 7, 6)
    # PHY up by 1: maxima and current points up by 3, like an XP purchase.
    assert (sheet.superficial_left, sheet.lethal_left) == (23, 25)
    assert list(sheet.specialties.values_list("specialty__name", "level")) == [("Arme de poing", 3)]
    assert sheet.powers.get().level == 1
    assert not sheet.traits.exists() and sheet.armour is None
    assert list(sheet.weapons.all()) == [c["gun"]]
    assert Character.objects.get(pk=pc.pk).name == "Lysandre Vey"
    assert LogEntry.objects.filter(campaign=campaign).last().text == (
        "Fiche de Lysandre Vey modifiée par le MJ"
    )
    campaign.refresh_from_db()
    assert campaign.version > version


def test_lowering_phy_clamps_the_current_points_to_the_new_maxima(client, gm, pc, c):
    client.force_login(gm)
    client.post(url(pc), ew_data(c, phy=7, men=7))  # maxima 24 -> 21
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert (sheet.phy, sheet.superficial_left, sheet.lethal_left) == (7, 20, 21)


@pytest.mark.parametrize(
    ("changes", "slot", "words"),
    [
        ({"phy": 11, "pre": 3}, "phy", "entre 3 et 10"),
        ({"specialty_PISTOL": 7}, "specialty_PISTOL", "entre 0 et 6"),
    ],
)
def test_a_broken_rule_is_named_next_to_its_field_and_no_row_changes(
    client, gm, pc, c, changes, slot, words
):
    ids = {"PISTOL": str(c["pistol"].pk), "POWER": str(c["power"].pk)}
    for key, value in ids.items():
        changes = {k.replace(key, value): v for k, v in changes.items()}
        slot = slot.replace(key, value)
    before = ew_snapshot(pc)
    client.force_login(gm)
    response = client.post(url(pc), ew_data(c, name="Autre nom", weapons=[], **changes))
    assert response.status_code == 200
    messages = dict(response.context["form"].error_slots())[slot]
    assert messages and words in " ".join(messages)
    assert f'id="err-{slot}"' in response.text
    assert ew_snapshot(pc) == before


def test_the_live_check_answers_the_status_partial_and_saves_nothing(client, gm, pc, c):
    before = ew_snapshot(pc)
    client.force_login(gm)
    response = client.post(url(pc), ew_data(c, phy=9, check="1"), **HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="creation-status"')
    assert 'data-counter="characteristics">-1<' in response.text
    assert "Enregistrer la fiche" in response.text
    assert ew_snapshot(pc) == before


def test_an_htmx_submit_navigates_to_the_sheet(client, gm, pc, c):
    client.force_login(gm)
    response = client.post(url(pc), ew_data(c, men=7, pre=5), **HTMX)
    assert response.status_code == 200
    assert reverse("characters:detail", args=[pc.pk]) in response["HX-Location"]
    assert EwSheet.objects.get(pk=pc.pk).men == 7


def test_an_invalid_htmx_submit_rerenders_the_form_with_200(client, gm, pc, c):
    before = ew_snapshot(pc)
    client.force_login(gm)
    response = client.post(url(pc), ew_data(c, phy=11, pre=3), **HTMX)
    assert response.status_code == 200 and "HX-Location" not in response
    assert 'id="err-phy"' in response.text
    assert ew_snapshot(pc) == before


def test_an_npc_keeps_the_creation_leeway_and_nothing_more(client, gm, campaign, c):
    npc = NpcFactory(campaign=campaign, sheet__phy=6, sheet__men=8)
    client.force_login(gm)
    # No archetype is needed for an NPC (as at creation)...
    data = ew_data(c, name="Sbire", archetype="", aptitudes=[], phy=8, men=6)
    assert client.post(url(npc), data).status_code == 302
    assert EwSheet.objects.get(pk=npc.pk).archetype is None
    # ...but the ranges of the rules still hold.
    before = ew_snapshot(npc)
    data = ew_data(c, name="Sbire", archetype="", aptitudes=[], phy=11, men=5)
    response = client.post(url(npc), data)
    assert response.status_code == 200
    assert "entre 3 et 10" in " ".join(dict(response.context["form"].error_slots())["phy"])
    assert ew_snapshot(npc) == before


@pytest.mark.parametrize("changes", [{"phy": 9}, {"power_POWER": 10}], ids=["total", "budget"])
def test_an_edit_may_go_past_the_creation_budgets_that_experience_exceeds(
    client, gm, pc, c, changes
):
    # A PC who raised PHY with XP totals more than 28: the GM must still be able to edit it.
    changes = {k.replace("POWER", str(c["power"].pk)): v for k, v in changes.items()}
    client.force_login(gm)
    response = client.post(url(pc), ew_data(c, **changes))
    assert response.status_code == 302
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert sheet.phy == changes.get("phy", sheet.phy)


# --- Who may edit -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("player", 403), ("other_player", 403), ("outsider", 404)]
)
def test_only_the_gm_edits_a_pc(client, request, pc, c, who, status):
    before = ew_snapshot(pc)
    client.force_login(request.getfixturevalue(who))
    assert client.get(url(pc)).status_code == status
    assert client.post(url(pc), ew_data(c, men=7, pre=5)).status_code == status
    assert ew_snapshot(pc) == before


def test_players_do_not_learn_of_a_hidden_npc(client, player, campaign):
    npc = NpcFactory(campaign=campaign)
    client.force_login(player)
    assert client.get(url(npc)).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(client, pc):
    response = client.get(url(pc))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
