"""The home page is the dashboard: my campaigns as GM and as player, the party at a glance."""

import pytest

from apps.campaigns.services import campaign_create, campaign_join
from apps.encounters.models import Encounter
from tests.characters.factories import CharacterFactory, XpEntryFactory

pytestmark = pytest.mark.django_db


def test_the_dashboard_splits_my_campaigns_and_shows_the_party(client, campaign, gm, player):
    mine = CharacterFactory(campaign=campaign, owner=player, name="Iseult")
    XpEntryFactory(character=mine, amount=4)
    elsewhere = campaign_create(name="Ma table", system="aethoria", gm=player)
    client.force_login(player)
    response = client.get("/")
    assert [c.name for c in response.context["gm_campaigns"]] == ["Ma table"]
    assert [c.name for c in response.context["player_campaigns"]] == [campaign.name]
    assert "Iseult" in response.text and "4 XP" in response.text
    assert elsewhere.invite_code not in response.text


def test_an_outsider_sees_no_campaign(client, campaign, outsider):
    CharacterFactory(campaign=campaign, name="Iseult")
    client.force_login(outsider)
    response = client.get("/")
    assert "Iseult" not in response.text and campaign.name not in response.text


def test_dashboard_queries_do_not_grow_with_campaigns_or_characters(
    client, gm, django_assert_num_queries
):
    for system in ("ew", "aethoria", "ew"):
        campaign = campaign_create(name=f"Table {system}", system=system, gm=gm)
        for _ in range(12):
            character = CharacterFactory(campaign=campaign)
            campaign_join(campaign=campaign, user=character.owner)
            XpEntryFactory(character=character)
        for status in ("running", "paused", "finished"):
            Encounter.objects.create(campaign=campaign, name=f"Rixe {status}", status=status)
    client.force_login(gm)
    with django_assert_num_queries(4):  # the user, my campaigns, their parties, their fights
        response = client.get("/")
    assert response.status_code == 200
    assert sum(len(c.party) for c in response.context["gm_campaigns"]) == 36


def test_the_dashboards_check_says_when_one_of_my_campaigns_changed(
    client, campaign, player, django_assert_num_queries
):
    client.force_login(player)
    page = client.get("/")
    version = page.context["version"]
    assert f'hx-get="/changements/?v={version}"' in page.text
    with django_assert_num_queries(2):  # the user, the campaigns' versions
        assert client.get("/changements/", {"v": version}).status_code == 204
    campaign.touch()  # a step, a wound, a round...
    changed = client.get("/changements/", {"v": version}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and changed["HX-Trigger"] == "home-changed"
    # The region then fetches itself: the cards alone, with the new version.
    region = client.get("/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="home-body")
    assert region.text.lstrip().startswith('<div id="home-body"')
    assert "<h1>" not in region.text and region.context["version"] != version


def test_the_dashboards_check_ignores_campaigns_i_am_not_in(client, campaign, outsider):
    client.force_login(outsider)
    version = client.get("/").context["version"]
    campaign.touch()
    assert client.get("/changements/", {"v": version}).status_code == 204


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    assert client.get("/changements/").status_code == 302
    assert client.get("/flux/").status_code == 302
