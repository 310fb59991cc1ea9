"""The EW creation wizard: checked by the rules engine as the user types; only valid sheets
saved."""

import pytest
from django.urls import reverse

from apps.characters.models import Character, EwSheet, Kind
from tests.characters.factories import (
    EwArchetypeFactory,
    EwPowerFactory,
    EwSpecialtyFactory,
    EwTraitFactory,
)
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ew_compendium():
    archetype = EwArchetypeFactory(name="Contrebandier", com_factor=2)
    return {
        "archetype": archetype,
        "aptitude": archetype.aptitudes.create(name="Planque", cost=2),
        "other_aptitude": EwArchetypeFactory().aptitudes.create(name="Ailleurs", cost=1),
        "pistol": EwSpecialtyFactory(name="Arme de poing", field="com"),
        "lore": EwSpecialtyFactory(name="Histoire", field="con"),
        "trait": EwTraitFactory(name="Chanceux", cost=4),
        "restriction": EwTraitFactory(name="Recherché", kind="restriction", cost=-3),
        "power": EwPowerFactory(name="Télépathie", cost_per_level=3),
    }


def ew_data(c, **changes):
    data = {
        "name": "Lysandre",
        "concept": "contrebandière",
        "archetype": c["archetype"].pk,
        "phy": 8,
        "men": 6,
        "per": 8,
        "pre": 6,
        f"specialty_{c['pistol'].pk}": 3,  # 3 x 2 = 6
        f"specialty_{c['lore'].pk}": 2,  # 2 x 1 = 2
        "traits": [c["trait"].pk, c["restriction"].pk],  # 4, gives back 3
        "aptitudes": [c["aptitude"].pk],  # 2
        f"power_{c['power'].pk}": 2,  # 6
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_player_creates_a_valid_ew_pc(client, campaign, player, ew_compendium):
    client.force_login(player)
    url = reverse("characters:create", args=[campaign.pk])
    version = campaign.version
    response = client.post(url, once(ew_data(ew_compendium)))
    character = Character.objects.get()
    assert response["Location"] == reverse("characters:detail", args=[character.pk])
    assert (character.kind, character.owner, character.name) == (Kind.PC, player, "Lysandre")
    sheet = character.ew
    assert (sheet.phy, sheet.men, sheet.per, sheet.pre) == (8, 6, 8, 6)
    assert (sheet.superficial_left, sheet.lethal_left, sheet.eclat) == (24, 24, 3)
    assert {r.specialty.name: r.level for r in sheet.specialties.all()} == {
        "Arme de poing": 3,
        "Histoire": 2,
    }
    assert sheet.powers.get().level == 2
    assert sheet.aptitudes.get() == ew_compendium["aptitude"]
    campaign.refresh_from_db()
    assert campaign.version > version


def test_the_gm_creates_an_npc_template(client, campaign, gm, ew_compendium):
    client.force_login(gm)
    url = reverse("characters:create", args=[campaign.pk])
    client.post(url, once(ew_data(ew_compendium, name="Sbire", archetype="", is_template="on")))
    npc = Character.objects.get()
    assert (npc.kind, npc.owner, npc.is_template) == (Kind.NPC, None, True)


@pytest.mark.parametrize(
    ("changes", "slot", "words"),
    [
        ({"phy": 11, "pre": 3}, "phy", "entre 3 et 10"),
        ({"phy": 2, "pre": 12}, "phy", "entre 3 et 10"),
        ({"phy": 9}, "characteristics", "28"),
        ({"phy": "beaucoup"}, "phy", ""),
        ({"specialty_PISTOL": 7}, "specialty_PISTOL", "entre 0 et 6"),
        ({"power_POWER": 10}, "generation_points", "de trop"),
    ],
)
def test_a_broken_rule_is_named_next_to_its_field_and_nothing_is_saved(
    client, campaign, player, ew_compendium, changes, slot, words
):
    c = ew_compendium
    ids = {"PISTOL": str(c["pistol"].pk), "POWER": str(c["power"].pk)}
    for key, value in ids.items():
        changes = {k.replace(key, value): v for k, v in changes.items()}
        slot = slot.replace(key, value)
    client.force_login(player)
    response = client.post(
        reverse("characters:create", args=[campaign.pk]), once(ew_data(c, **changes))
    )
    assert response.status_code == 200
    form = response.context["form"]
    messages = dict(form.error_slots())[slot]
    assert messages and words in " ".join(messages)
    assert f'id="err-{slot}"' in response.text
    assert not Character.objects.exists() and not EwSheet.objects.exists()


def test_an_aptitude_of_another_archetype_is_refused(client, campaign, player, ew_compendium):
    client.force_login(player)
    data = ew_data(ew_compendium, aptitudes=[ew_compendium["other_aptitude"].pk])
    response = client.post(reverse("characters:create", args=[campaign.pk]), once(data))
    assert "aptitudes" in response.context["form"].errors
    assert not Character.objects.exists()


def test_the_live_check_returns_counters_and_every_error_slot(
    client, campaign, player, ew_compendium
):
    client.force_login(player)
    data = ew_data(ew_compendium, name="", phy=9, check="1")
    response = client.post(reverse("characters:create", args=[campaign.pk]), once(data), **HTMX)
    assert response.status_code == 200
    body = response.text
    assert body.lstrip().startswith('<div id="creation-status"')
    assert 'data-counter="characteristics">-1<' in body
    # 36 - (6 + 2 + 4 + 2 + 6) + 3 = 19 generation points left
    assert 'data-counter="generation">19<' in body
    assert body.count('hx-swap-oob="true"') >= len(response.context["form"].fields)
    assert "28 points" in body
    # A missing name waits for the real submit instead of shouting while the user types.
    assert 'id="err-name" class="field-errors" hx-swap-oob="true" aria-live="polite"></div>' in body
    assert not Character.objects.exists()


def test_the_aptitudes_follow_the_archetype_in_the_live_check(
    client, campaign, player, ew_compendium
):
    client.force_login(player)
    url = reverse("characters:create", args=[campaign.pk])
    data = ew_data(ew_compendium, check="1", aptitudes_for="")
    body = client.post(url, data, **HTMX).text
    assert 'id="aptitudes-choices"' in body and "Planque" in body and "Ailleurs" not in body
    data["aptitudes_for"] = ew_compendium["archetype"].pk
    assert 'id="aptitudes-choices"' not in client.post(url, data, **HTMX).text


def test_the_wizard_page_starts_valid_and_shows_the_counters(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("characters:create", args=[campaign.pk]))
    assert response.status_code == 200
    assert 'data-counter="characteristics">0<' in response.text
    assert 'data-counter="generation">36<' in response.text
