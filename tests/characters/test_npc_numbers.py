"""Issue 12, point 1: a player reads an NPC's state in words, never its numbers, on every
page and fragment that shows it: its sheet (page, fragment, after its idle check), the
campaign page and its regions, the dashboard; in both systems."""

import pytest
from django.urls import reverse

from apps.characters.live import sheet_fingerprint
from apps.characters.models import AethoriaSheet, EwSheet
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NUMBERS = ('class="pool-numbers"', "<meter")


def _campaign(system):
    """A campaign, its player's PC and a revealed NPC who took a blow (words: égratignures /
    blessé), with its exact pools (EW PHY 6: 18 each; Aethoria: 20 PV) in ``secret``."""
    campaign = campaign_with_gm(system)
    player = add_player(campaign)
    if system == "ew":
        pc = ew_fighter(campaign, "Brandon", owner=player)
        npc = ew_fighter(campaign, "Commissaire Garnier", phy=6)
        EwSheet.objects.filter(pk=npc.pk).update(superficial_left=13)
        secret, word = ["13 / 18", "13</strong> / 18"], "égratignures"
    else:
        pc = aethoria_fighter(campaign, "Torvald", owner=player)
        npc = aethoria_fighter(campaign, "Commissaire Garnier")
        AethoriaSheet.objects.filter(pk=npc.pk).update(pv=13)
        secret, word = ["13 / 20", "13</strong> / 20"], "blessure légère"
    npc.revealed = True
    npc.save(update_fields=["revealed"])
    return campaign, player, pc, npc, secret, word


def _shows_no_numbers(html: str, secret: list[str]) -> None:
    for text in (*NUMBERS, *secret):
        assert text not in html


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_a_player_reads_a_revealed_npcs_sheet_in_words(client, system):
    _c, player, _pc, npc, secret, word = _campaign(system)
    client.force_login(player)
    url = reverse("characters:detail", args=[npc.pk])
    page = client.get(url).text
    fragment = client.get(url, HTTP_HX_TARGET="sheet", **HTMX).text
    for html in (page, fragment):
        assert "Commissaire Garnier" in html and word.capitalize() in html
        _shows_no_numbers(html, secret)


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_a_blow_followed_live_on_an_npcs_sheet_brings_words_only(client, system):
    _c, player, _pc, npc, _secret, _word = _campaign(system)
    client.force_login(player)
    before = sheet_fingerprint(npc.pk, player.pk)
    model = EwSheet if system == "ew" else AethoriaSheet
    field = "superficial_left" if system == "ew" else "pv"
    model.objects.filter(pk=npc.pk).update(**{field: 4})
    check = client.get(reverse("characters:changes", args=[npc.pk]), {"v": before}, **HTMX)
    assert check.status_code == 200 and check["HX-Trigger"] == "campaign-changed"
    _shows_no_numbers(check.text, ["4 / "])
    fragment = client.get(
        reverse("characters:detail", args=[npc.pk]), HTTP_HX_TARGET="sheet", **HTMX
    ).text
    _shows_no_numbers(fragment, ["4 / ", "4</strong>"])


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_the_campaign_page_and_dashboard_give_players_npc_words_only(client, system):
    campaign, player, pc, _npc, secret, word = _campaign(system)
    client.force_login(player)
    detail = reverse("campaigns:detail", args=[campaign.pk])
    page = client.get(detail).text
    npcs = client.get(detail, HTTP_HX_TARGET="npcs", **HTMX).text
    assert word in npcs and "Commissaire Garnier" in npcs
    _shows_no_numbers(npcs, secret)
    assert page.count('class="pool-numbers"') == len(pc.pool_view(campaign.house()))
    for html in (page, client.get("/").text):
        for text in secret:
            assert text not in html


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_the_gm_and_the_owner_still_read_the_numbers(client, system):
    campaign, player, pc, npc, secret, _word = _campaign(system)
    client.force_login(campaign.memberships.get(role="gm").user)
    assert secret[1] in client.get(reverse("characters:detail", args=[npc.pk])).text
    client.force_login(player)
    assert 'class="pool-numbers"' in client.get(reverse("characters:detail", args=[pc.pk])).text
