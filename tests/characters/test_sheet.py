"""The sheet and what can be done from it: spends, rest, reveal, copies, XP."""

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign, LogEntry
from apps.characters.models import (
    AethoriaSheet,
    Character,
    EwSheet,
    EwSpecialtyRank,
    XpEntry,
)
from tests.characters.factories import (
    AethoriaSkillFactory,
    CharacterFactory,
    EwSpecialtyFactory,
    NpcFactory,
    XpEntryFactory,
    ew_pc_with_a_pistol,
)
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def version(campaign) -> int:
    return Campaign.objects.get(pk=campaign.pk).version


@pytest.fixture
def pc(campaign, player):
    return ew_pc_with_a_pistol(campaign, player)


@pytest.fixture
def aethoria_pc(aethoria_campaign, player):
    character = CharacterFactory(campaign=aethoria_campaign, owner=player, name="Maëlle")
    character.aethoria.skills.create(skill=AethoriaSkillFactory(name="Épée"), rank=4)
    return character


def test_the_owner_sees_the_full_ew_sheet_with_derived_values(client, pc, player):
    client.force_login(player)
    response = client.get(reverse("characters:detail", args=[pc.pk]))
    assert response.status_code == 200
    context = response.context
    # PHY 8, MEN 7, PER 7, PRÉ 6: com = (8 + 7) / 2 rounded down = 7; PV = 24; défense = 2
    assert (context["derived"].com, context["derived"].pv, context["derived"].natural_defence) == (
        7,
        24,
        2,
    )
    assert "Arme de poing" in response.text and "professionnel" in response.text
    assert 'hx-trigger="campaign-changed from:body"' in response.text


def test_rounding_follows_the_campaign(client, pc, player, campaign):
    house = campaign.house()
    import dataclasses

    campaign.set_house_rules(dataclasses.replace(house, rounding="up"))
    client.force_login(player)
    response = client.get(reverse("characters:detail", args=[pc.pk]))
    assert response.context["derived"].com == 8


def test_another_player_sees_only_the_public_state(client, pc, other_player):
    client.force_login(other_player)
    response = client.get(reverse("characters:detail", args=[pc.pk]))
    assert response.status_code == 200
    assert "Lysandre" in response.text
    assert "Arme de poing" not in response.text and "derived" not in response.context
    assert "eclat_spend" not in response.text and "/eclat/" not in response.text


def test_the_sheet_region_comes_alone_for_htmx(client, pc, player):
    client.force_login(player)
    response = client.get(
        reverse("characters:detail", args=[pc.pk]), HTTP_HX_TARGET="sheet", **HTMX
    )
    assert response.text.lstrip().startswith('<article id="sheet"')


def test_sheet_queries_are_fixed(client, pc, player, django_assert_num_queries):
    for _ in range(12):
        XpEntryFactory(character=pc)
    for index in range(10):
        EwSpecialtyRank.objects.create(sheet=pc.ew, specialty=EwSpecialtyFactory(), level=index % 6)
    client.force_login(player)
    # user, character+sheet+campaign, its live fingerprint, fight under way, specialties,
    # powers, traits, aptitudes, weapons, xp ledger, its latest table action (own undo)
    with django_assert_num_queries(11):
        client.get(reverse("characters:detail", args=[pc.pk]))


def test_aethoria_sheet_queries_are_fixed(client, aethoria_pc, player, django_assert_num_queries):
    for _ in range(12):
        XpEntryFactory(character=aethoria_pc)
    for _ in range(10):
        aethoria_pc.aethoria.skills.create(skill=AethoriaSkillFactory(), rank=3)
    from apps.compendium.models import AethoriaArmourPiece

    for index in range(3):
        piece = AethoriaArmourPiece.objects.create(name=f"Pièce {index}")
        piece.coverages.create(location="torso", rd=2)
        aethoria_pc.aethoria.armour_pieces.add(piece)
    client.force_login(player)
    # user, character+sheet+campaign, its live fingerprint, fight under way, skills, weapons,
    # armour pieces (+coverages), xp ledger, its latest table action (own undo)
    with django_assert_num_queries(10):
        client.get(reverse("characters:detail", args=[aethoria_pc.pk]))


def test_aethoria_armour_says_its_locations_in_words(client, aethoria_pc, player):
    from apps.compendium.models import AethoriaArmourPiece

    piece = AethoriaArmourPiece.objects.create(name="Brigandine")
    piece.coverages.create(location="torso", rd=1)
    piece.coverages.create(location="right_arm", rd=1)
    aethoria_pc.aethoria.armour_pieces.add(piece)
    client.force_login(player)
    page = client.get(reverse("characters:detail", args=[aethoria_pc.pk])).text
    # Each location with its RD kept on one line (a narrow phone wraps between them only).
    words = '<span class="nowrap">torse 1</span>, <span class="nowrap">bras droit 1</span>'
    assert words in page and "right_arm" not in page


# --- Rest, copies, reveal (each system's own spends: tests/systems/<code>/) ------------


def test_the_gm_rests_a_character(client, pc, gm):
    EwSheet.objects.filter(pk=pc.pk).update(eclat=0, superficial_left=3, lethal_left=10)
    client.force_login(gm)
    client.post(reverse("characters:rest", args=[pc.pk]), once({"health": "on", "resources": "on"}))
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert (sheet.eclat, sheet.superficial_left, sheet.lethal_left) == (3, 24, 24)


def test_an_aethoria_rest_can_leave_the_pv_alone(client, aethoria_pc, gm):
    AethoriaSheet.objects.filter(pk=aethoria_pc.pk).update(pv=-2, fatigue_physical=0)
    client.force_login(gm)
    client.post(reverse("characters:rest", args=[aethoria_pc.pk]), once({"resources": "on"}))
    sheet = AethoriaSheet.objects.get(pk=aethoria_pc.pk)
    assert (sheet.pv, sheet.fatigue_physical) == (-2, 10)


def test_a_player_cannot_rest_their_own_character(client, pc, player):
    EwSheet.objects.filter(pk=pc.pk).update(eclat=0)
    client.force_login(player)
    response = client.post(reverse("characters:rest", args=[pc.pk]), once({"resources": "on"}))
    assert response.status_code == 403
    assert EwSheet.objects.get(pk=pc.pk).eclat == 0


def test_the_gm_copies_an_npc_template(client, campaign, gm):
    template = NpcFactory(
        campaign=campaign, name="Garde", is_template=True, sheet__phy=9, sheet__pre=5
    )
    EwSpecialtyRank.objects.create(sheet=template.ew, specialty=EwSpecialtyFactory(), level=3)
    client.force_login(gm)
    client.post(reverse("characters:npc_copy", args=[template.pk]), once({"count": 3}))
    copies = Character.objects.filter(is_template=False).order_by("name")
    assert [c.name for c in copies] == ["Garde 1", "Garde 2", "Garde 3"]
    assert all(c.ew.phy == 9 and c.ew.specialties.get().level == 3 for c in copies)


def test_the_gm_reveals_an_npc_to_the_players(client, campaign, gm, player):
    npc = NpcFactory(campaign=campaign, name="La Baronne")
    client.force_login(player)
    assert client.get(reverse("characters:detail", args=[npc.pk])).status_code == 404
    client.force_login(gm)
    client.post(reverse("characters:reveal", args=[npc.pk]), once())
    client.force_login(player)
    response = client.get(reverse("characters:detail", args=[npc.pk]))
    assert response.status_code == 200 and "derived" not in response.context


# --- XP ---------------------------------------------------------------------------------------


def test_the_gm_awards_xp_to_several_pcs(client, campaign, gm, pc, other_player):
    other = CharacterFactory(campaign=campaign, owner=other_player)
    client.force_login(gm)
    response = client.post(
        reverse("characters:xp_award", args=[campaign.pk]),
        once({"characters": [pc.pk, other.pk], "amount": 3, "reason": "La Crypte"}),
    )
    assert response.status_code == 302
    assert pc.xp_balance() == 3 and other.xp_balance() == 3
    assert "La Crypte" in LogEntry.objects.get(kind="xp").text


@pytest.mark.parametrize(("amount", "chosen"), [(0, True), (-2, True), (3, False)])
def test_a_bad_award_changes_nothing(client, campaign, gm, pc, amount, chosen):
    client.force_login(gm)
    data = {"amount": amount, "reason": "x", "characters": [pc.pk] if chosen else []}
    response = client.post(reverse("characters:xp_award", args=[campaign.pk]), once(data))
    assert response.status_code == 200
    assert not XpEntry.objects.exists()


def test_an_award_to_a_character_of_another_campaign_is_refused(client, campaign, gm):
    stranger = CharacterFactory()
    client.force_login(gm)
    data = {"amount": 2, "reason": "x", "characters": [stranger.pk]}
    response = client.post(reverse("characters:xp_award", args=[campaign.pk]), once(data))
    assert response.context["form"].errors["characters"]
    assert not XpEntry.objects.exists()


def test_the_owner_writes_notes_and_never_sees_the_gm_notes(client, pc, player, gm):
    Character.objects.filter(pk=pc.pk).update(gm_notes="Elle est la fille du baron.")
    client.force_login(player)
    url = reverse("characters:notes", args=[pc.pk])
    data = {
        "name": "Lysandre Vey",
        "concept": "détective",
        "notes": "Dette : 200 F",
        "gm_notes": "x",
    }
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert "baron" not in response.text and "Dette : 200 F" in response.text
    pc.refresh_from_db()
    assert (pc.notes, pc.gm_notes) == ("Dette : 200 F", "Elle est la fille du baron.")
    client.force_login(gm)
    assert "baron" in client.get(reverse("characters:detail", args=[pc.pk])).text


def test_notes_have_a_limit_said_with_a_counter(client, pc, player):
    """Notes stop at 5,000 characters (issue 29: 20,000 were accepted): the page counts them,
    a longer note is refused next to its field and nothing changes."""
    client.force_login(player)
    Character.objects.filter(pk=pc.pk).update(notes="Dette : 200 F")
    page = client.get(reverse("characters:detail", args=[pc.pk])).text
    assert 'maxlength="5000"' in page
    assert "<span data-count>13</span> / 5000 caractères" in page
    url = reverse("characters:notes", args=[pc.pk])
    response = client.post(url, {"name": "Lysandre", "notes": "x" * 5001}, **HTMX)
    assert "au plus 5000 caractères" in str(response.context["notes_form"].errors["notes"])
    assert Character.objects.get(pk=pc.pk).notes == "Dette : 200 F"
    client.post(url, {"name": "Lysandre", "notes": "x" * 5000}, **HTMX)
    assert len(Character.objects.get(pk=pc.pk).notes) == 5000


def test_an_empty_name_is_refused_next_to_the_field(client, pc, player):
    client.force_login(player)
    url = reverse("characters:notes", args=[pc.pk])
    response = client.post(url, {"name": "", "notes": "x"}, **HTMX)
    assert response.status_code == 200
    assert response.context["notes_form"].errors["name"]
    assert Character.objects.get(pk=pc.pk).name == "Lysandre"
