"""The table screen's stream, served by uvicorn as in production (issue 32): it follows the
campaign and its fight — the one that starts while it is open too —, tells nothing but that
something changed, and ends as soon as its link is revoked or its viewer leaves the campaign,
without waiting for a keep-alive."""

import json

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.campaigns.services import membership_remove
from apps.core import push
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.screens.models import ScreenLink
from apps.screens.services import screen_link_revoke
from tests.asgi_server import Stream, serve_asgi, session_cookie
from tests.encounters.factories import add_player, campaign_with_gm
from tests.screens.conftest import start_ambush
from tests.screens.factories import make_link

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(transactional_db, monkeypatch):
    # No keep-alive comes while a test runs: what ends a stream here is its check, run again
    # when a change is told, not the keep-alive's.
    monkeypatch.setattr(push, "KEEPALIVE_SECONDS", 3600.0)
    with serve_asgi() as url:
        yield url


@pytest.fixture
def evening():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    return campaign, gm, player, make_link(campaign)


def _link_stream(server, token) -> Stream:
    stream = Stream(server, reverse("screens:link_stream", args=[token]), cookie="")
    assert stream.status == 200
    return stream


def _told(stream) -> str | None:
    """The version the next event tells, after checking it tells nothing else."""
    event = stream.next_event()
    told = json.loads(event["data"])
    # The version and how many changes the stream has told: nothing of the server.
    assert event["event"] == "changed" and set(told) == {"version", "seq"}
    return str(told["version"])


def test_a_links_stream_follows_the_fight_that_starts_while_it_is_open(server, evening):
    campaign, gm, player, token = evening
    stream = _link_stream(server, token)
    encounter = start_ambush(campaign, gm, player)  # a new fight, its first blow
    # The fight's start and first blow move the campaign too: once its latest version is
    # told, the stream has checked its page again (before telling) and follows the fight.
    campaign_version = Campaign.objects.get(pk=campaign.pk).version
    while _told(stream) != str(campaign_version):
        pass
    # A turn passed moves the fight alone (not the campaign): it is told.
    services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=gm)
    turned = str(Encounter.objects.get(pk=encounter.pk).version)
    while _told(stream) != turned:
        pass
    assert Campaign.objects.get(pk=campaign.pk).version == campaign_version
    stream.close()


def test_a_revoked_links_open_stream_ends_at_once(server, evening):
    campaign, _gm, _player, token = evening
    stream = _link_stream(server, token)
    screen_link_revoke(link=ScreenLink.objects.get(campaign=campaign))
    # It ends without telling the change: the next check of its page says why.
    with pytest.raises(EOFError):
        stream.next_event()
    assert Stream(server, reverse("screens:link_stream", args=[token]), cookie="").status == 404
    stream.close()


def test_another_links_stream_goes_on(server, evening):
    campaign, _gm, _player, token = evening
    kept = make_link(campaign, "Tablette")
    revoked, other = _link_stream(server, token), _link_stream(server, kept)
    screen_link_revoke(link=ScreenLink.objects.get(campaign=campaign, label="Télé du salon"))
    with pytest.raises(EOFError):
        revoked.next_event()
    assert _told(other) == str(Campaign.objects.get(pk=campaign.pk).version)
    revoked.close()
    other.close()


def test_a_players_screen_stream_ends_when_they_leave_the_campaign(server, evening):
    campaign, _gm, player, _token = evening
    path = reverse("screens:stream", args=[campaign.pk])
    stream = Stream(server, path, session_cookie(player))
    assert stream.status == 200
    membership_remove(membership=campaign.memberships.get(user=player))
    with pytest.raises(EOFError):
        stream.next_event()
    stream.close()


def test_many_screen_links_do_not_crowd_each_other_out(server):
    """Nobody is logged in on them: each link's streams count apart, not as one user's."""
    campaigns = [campaign_with_gm("ew") for _ in range(push.MAX_STREAMS_PER_USER + 2)]
    streams = [_link_stream(server, make_link(campaign)) for campaign in campaigns]
    for campaign in campaigns:
        campaign.touch()
    for stream, campaign in zip(streams, campaigns, strict=True):
        assert _told(stream) == str(Campaign.objects.get(pk=campaign.pk).version)
        stream.close()
