"""Who may open what: GM, player, outsider, anonymous — for every URL of the encounters app."""

import pytest
from django.urls import reverse

from apps.encounters.models import Encounter
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.submissions import once

pytestmark = pytest.mark.django_db

GM_PAGES = ["console"]
GM_POSTS = [
    "combatants_add",
    "start",
    "next_turn",
    "pause",
    "resume",
    "end",
    "undo",
    "redo",
    "reopen",
    "ew_attack",
    "ew_test",
    "ew_stance",
    "ew_eclat",
    "ew_coup_de_pouce",
]
GM_GETS = ["ew_attack_odds", "ew_test_odds"]
MEMBER_PAGES = ["table", "changes"]


@pytest.fixture
def cast(client):
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    ew_fighter(campaign, "Brandon", owner=player)
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    return {
        "gm": campaign.memberships.get(role="gm").user,
        "player": player,
        "outsider": UserFactory(),
        "encounter": encounter,
    }


def url(name, encounter):
    return reverse(f"encounters:{name}", args=[encounter.pk])


@pytest.mark.parametrize("name", GM_PAGES + GM_GETS + MEMBER_PAGES)
def test_outsider_gets_404_and_anonymous_goes_to_login(client, cast, name):
    client.force_login(cast["outsider"])
    assert client.get(url(name, cast["encounter"])).status_code == 404
    client.logout()
    response = client.get(url(name, cast["encounter"]))
    assert response.status_code == 302 and "/compte/connexion/" in response["Location"]


@pytest.mark.parametrize("name", GM_POSTS)
def test_posts_are_gm_only(client, cast, name):
    encounter = cast["encounter"]
    client.force_login(cast["outsider"])
    assert client.post(url(name, encounter), {"version": 1}).status_code == 404
    client.force_login(cast["player"])
    assert client.post(url(name, encounter), {"version": 1}).status_code == 403
    encounter.refresh_from_db()
    assert encounter.version == 1 and not encounter.events.exists()


@pytest.mark.parametrize("name", GM_PAGES + GM_GETS)
def test_a_player_cannot_open_the_console(client, cast, name):
    client.force_login(cast["player"])
    assert client.get(url(name, cast["encounter"])).status_code == 403


@pytest.mark.parametrize("name", MEMBER_PAGES)
def test_players_and_gm_follow_the_table(client, cast, name):
    # Once the fight runs: players do not see one in preparation (test_table_view_secrets).
    Encounter.objects.filter(pk=cast["encounter"].pk).update(status="running", round=1)
    for who in ("gm", "player"):
        client.force_login(cast[who])
        assert client.get(url(name, cast["encounter"])).status_code in (200, 204)


def test_creating_an_encounter_is_for_the_gm(client, cast):
    campaign = cast["encounter"].campaign
    create = reverse("encounters:create", args=[campaign.pk])
    client.force_login(cast["player"])
    assert client.post(create, once(name="X")).status_code == 403
    client.force_login(cast["outsider"])
    assert client.post(create, once(name="X")).status_code == 404
    client.force_login(cast["gm"])
    response = client.post(create, once(name="Le pont"))
    created = Encounter.objects.get(name="Le pont")
    assert response["Location"] == url("console", created)
    assert Encounter.objects.count() == 2
