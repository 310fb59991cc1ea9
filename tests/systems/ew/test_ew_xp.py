"""EW's XP costs: improvements bought at the engine's prices, refused past the balance or a
limit, and undone by the GM from the ledger."""

import pytest
from django.urls import reverse

from apps.characters import services
from apps.characters.models import Character, EwSheet, XpEntry, XpKind
from apps.rules.errors import InvalidImprovement, NotEnoughXp
from apps.systems.ew.xp import Improvement
from tests.characters.factories import (
    EwSpecialtyFactory,
    XpEntryFactory,
    ew_pc_with_a_pistol,
)
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pc(campaign, player):
    return ew_pc_with_a_pistol(campaign, player)


def test_the_owner_raises_a_characteristic_with_xp(client, pc, player):
    XpEntryFactory(character=pc, amount=10)
    client.force_login(player)
    url = reverse("characters:xp_spend", args=[pc.pk])
    assert "PHY 8 → 9 — 9 XP" in client.get(url).text
    response = client.post(url, once(improvement="characteristic:phy"))
    assert response.status_code == 302
    sheet = EwSheet.objects.get(pk=pc.pk)
    # PV follow PHY: both pools grow by 3.
    assert (sheet.phy, sheet.superficial_left, sheet.lethal_left) == (9, 27, 27)
    assert pc.xp_balance() == 1


def test_a_specialty_costs_the_new_level_times_the_archetype_factor(pc, player):
    XpEntryFactory(character=pc, amount=6)
    entry = services.xp_spend(
        character=pc,
        improvement=Improvement("specialty", target_id=pc.pistol.pk),
        by=player,
    )
    assert entry.amount == -6  # level 3 x com factor 2
    assert pc.ew.specialties.get().level == 3


def test_xp_beyond_the_balance_is_refused_next_to_the_field(client, pc, player):
    XpEntryFactory(character=pc, amount=5)
    client.force_login(player)
    response = client.post(
        reverse("characters:xp_spend", args=[pc.pk]), once({"improvement": "characteristic:phy"})
    )
    assert response.status_code == 200
    assert "9 XP" in str(response.context["form"].errors["improvement"])
    assert EwSheet.objects.get(pk=pc.pk).phy == 8
    assert XpEntry.objects.count() == 1


def test_a_characteristic_at_its_maximum_is_not_for_sale(pc, player):
    EwSheet.objects.filter(pk=pc.pk).update(phy=10, superficial_left=30, lethal_left=30)
    pc.refresh_from_db()
    XpEntryFactory(character=pc, amount=50)
    with pytest.raises(InvalidImprovement):
        services.xp_spend(
            character=Character.objects.get(pk=pc.pk),
            improvement=Improvement("characteristic", name="phy"),
            by=player,
        )
    assert EwSheet.objects.get(pk=pc.pk).phy == 10


def test_two_spends_at_once_cannot_overdraw(pc, player):
    XpEntryFactory(character=pc, amount=9)
    improvement = Improvement("characteristic", name="phy")
    services.xp_spend(character=pc, improvement=improvement, by=player)
    with pytest.raises(NotEnoughXp):
        services.xp_spend(character=pc, improvement=improvement, by=player)
    assert EwSheet.objects.get(pk=pc.pk).phy == 9


def test_the_gm_undoes_a_spend(client, pc, player, gm):
    XpEntryFactory(character=pc, amount=10)
    spend = services.xp_spend(
        character=pc, improvement=Improvement("characteristic", name="phy"), by=player
    )
    client.force_login(gm)
    response = client.post(reverse("characters:xp_undo", args=[pc.pk, spend.pk]), once(), **HTMX)
    assert response.status_code == 200
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert (sheet.phy, sheet.superficial_left) == (8, 24)
    assert pc.xp_balance() == 10
    refund = XpEntry.objects.get(kind=XpKind.REFUND)
    assert refund.cancels == spend
    # A second undo of the same spend changes nothing.
    client.post(reverse("characters:xp_undo", args=[pc.pk, spend.pk]), once())
    assert XpEntry.objects.filter(kind=XpKind.REFUND).count() == 1
    assert pc.xp_balance() == 10


def test_a_new_specialty_bought_then_undone_disappears(pc, player, gm):
    XpEntryFactory(character=pc, amount=10)
    lore = EwSpecialtyFactory(name="Histoire", field="con")
    spend = services.xp_spend(
        character=pc, improvement=Improvement("specialty", target_id=lore.pk), by=player
    )
    assert pc.ew.specialties.get(specialty=lore).level == 1
    services.xp_spend_undo(entry=spend, by=gm)
    assert not pc.ew.specialties.filter(specialty=lore).exists()


def test_a_player_cannot_undo_a_spend(client, pc, player):
    XpEntryFactory(character=pc, amount=10)
    spend = (
        services.xp_spend(character=pc, improvement=Improvement("eclat", count=1), by=player)
        if False
        else None
    )
    EwSheet.objects.filter(pk=pc.pk).update(eclat=2)
    spend = services.xp_spend(
        character=Character.objects.get(pk=pc.pk),
        improvement=Improvement("eclat", count=1),
        by=player,
    )
    client.force_login(player)
    response = client.post(reverse("characters:xp_undo", args=[pc.pk, spend.pk]), once())
    assert response.status_code == 403
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3
