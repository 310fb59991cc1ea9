"""A fight under way is one tap away: the sheet and the dashboard card link to it, a player
to the table view, the GM to the console; a prepared or finished fight is not announced."""

import pytest
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre", owner=player)
    return campaign, gm, player, pc


def _fight(campaign, gm, pc, name="Rixe sur les quais") -> Encounter:
    encounter = Encounter.objects.create(campaign=campaign, name=name)
    services.combatants_add(
        encounter_id=encounter.pk, characters=[pc, ew_fighter(campaign, "Sbire")]
    )
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    return encounter


def _banner(html: str) -> str | None:
    start = html.find('<p class="fight-banner">')
    return html[start : html.index("</p>", start)] if start >= 0 else None


@pytest.mark.parametrize("page", ["sheet", "home"])
def test_a_player_is_sent_to_the_table_view_and_the_gm_to_the_console(client, table, page):
    campaign, gm, player, pc = table
    encounter = _fight(campaign, gm, pc)
    url = reverse("characters:detail", args=[pc.pk]) if page == "sheet" else "/"
    client.force_login(player)
    banner = _banner(client.get(url).content.decode())
    assert f'href="{reverse("encounters:table", args=[encounter.pk])}"' in banner
    assert "Combat en cours : <strong>Rixe sur les quais</strong> · Round 1" in banner
    client.force_login(gm)
    banner = _banner(client.get(url).content.decode())
    assert f'href="{reverse("encounters:console", args=[encounter.pk])}"' in banner


def test_a_paused_fight_says_so_and_the_newest_fight_wins(client, table):
    campaign, gm, player, pc = table
    old = _fight(campaign, gm, pc, name="Vieille rixe")
    services.encounter_pause(encounter_id=old.pk, version=old.version, by=gm)
    _fight(campaign, gm, pc, name="Nouvelle rixe")
    client.force_login(player)
    banner = _banner(client.get(reverse("characters:detail", args=[pc.pk])).content.decode())
    assert "Nouvelle rixe" in banner
    services.encounter_end(
        encounter_id=Encounter.objects.get(name="Nouvelle rixe").pk, version=None, by=gm
    )
    banner = _banner(client.get(reverse("characters:detail", args=[pc.pk])).content.decode())
    assert "Combat en pause : <strong>Vieille rixe</strong>" in banner


def test_prepared_and_finished_fights_are_not_announced(client, table):
    campaign, gm, player, pc = table
    Encounter.objects.create(campaign=campaign, name="Plus tard")
    encounter = _fight(campaign, gm, pc)
    services.encounter_end(encounter_id=encounter.pk, version=None, by=gm)
    client.force_login(player)
    for url in (reverse("characters:detail", args=[pc.pk]), "/"):
        assert _banner(client.get(url).content.decode()) is None


def test_the_sheet_shows_the_banner_when_the_fight_starts_without_a_reload(client, table):
    """The sheet follows the campaign's version; starting a fight bumps it."""
    campaign, gm, player, pc = table
    client.force_login(player)
    changes = reverse("campaigns:changes", args=[campaign.pk])
    version = campaign.version
    assert client.get(changes, {"v": version}).status_code == 204
    _fight(campaign, gm, pc)
    assert client.get(changes, {"v": version}).status_code == 200
    fragment = client.get(reverse("characters:detail", args=[pc.pk]), HTTP_HX_REQUEST="true")
    assert _banner(fragment.content.decode()) is not None
