"""Live updates pushed (apps/core/push.py): a step's COMMIT reaches the open streams of the
pages that follow it, a rolled-back one does not, a stream is refused like its page, and open
streams hold no database connection. Served by uvicorn, as in production."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.core import push
from apps.core.push import MAX_SPREAD_MS, MIN_PACE_MS, pace_ms, spread_ms
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.systems.ew.sheet_spend import eclat_spend
from tests.accounts.factories import UserFactory
from tests.asgi_server import Stream, serve_asgi, session_cookie
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter, started_duel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(transactional_db):
    with serve_asgi() as url:
        yield url


@pytest.fixture
def fight():
    duel = started_duel("Brandon", "Le Rôdeur", npc_hidden=True, name="Nuit")
    return {
        "encounter": duel.encounter,
        "gm": duel.gm,
        "player": duel.player,
        "pc": duel.pc,
        "npc": duel.npc,
    }


def _change(event: dict) -> tuple[str, str | None]:
    """The event's name and the version it tells (None for a topic without one)."""
    return event["event"], json.loads(event["data"])["version"]


def _open(server, name, pk, user) -> Stream:
    stream = Stream(server, reverse(name, args=[pk]), session_cookie(user))
    assert stream.status == 200
    assert stream.response.getheader("Content-Type") == "text/event-stream"
    return stream


def test_a_stream_gets_the_event_after_another_clients_step_commits(server, fight):
    encounter, gm = fight["encounter"], fight["gm"]
    table = _open(server, "encounters:stream", encounter.pk, fight["player"])
    console = Client()
    console.force_login(gm)
    response = console.post(
        reverse("encounters:next_turn", args=[encounter.pk]), {"version": encounter.version}
    )
    assert response.status_code in (200, 302)
    event = table.next_event()
    encounter.refresh_from_db()
    assert _change(event) == ("changed", str(encounter.version))
    table.close()


def test_a_sheet_follows_its_character_and_the_campaign_page_its_campaign(server, fight):
    campaign, pc = fight["encounter"].campaign, fight["pc"]
    sheet = _open(server, "characters:stream", pc.pk, fight["player"])
    page = _open(server, "campaigns:stream", campaign.pk, fight["player"])
    eclat_spend(character=pc, by=fight["player"])
    campaign.refresh_from_db()
    assert _change(sheet.next_event()) == ("changed", None)
    assert _change(page.next_event()) == ("changed", str(campaign.version))
    sheet.close()
    page.close()


def test_a_sheet_is_not_told_of_a_step_that_leaves_it_alone(server, fight, monkeypatch):
    """Most steps touch two fighters: the other sheets of the table hear nothing of them,
    and hear the fight banner move (here: the fight paused). The events carry no topic:
    what the process heard is read from its hub."""
    heard = []
    dispatch = push.hub.dispatch
    monkeypatch.setattr(
        push.hub, "dispatch", lambda payload: (heard.append(payload), dispatch(payload))
    )
    encounter, gm = fight["encounter"], fight["gm"]
    other = ew_fighter(encounter.campaign, "Témoin", owner=fight["player"])
    sheet = _open(server, "characters:stream", other.pk, fight["player"])
    eclat_spend(character=fight["pc"], by=fight["player"])  # another sheet, same campaign
    services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
    assert _change(sheet.next_event()) == ("changed", None)
    followed = {f"sheet:{other.pk}", f"sheets:{encounter.campaign_id}"}
    told = [payload.rpartition(":")[0] for payload in heard]
    assert [name for name in told if name in followed] == [f"sheets:{encounter.campaign_id}"]
    assert f"sheet:{fight['pc'].pk}" in told
    sheet.close()


def test_the_spread_and_the_pace_grow_with_the_pages_streamed_to():
    # One page alone refreshes at once; many share a window of a few ms each, capped; a page
    # refreshes at most once a second, or once per two spreads when they are longer.
    assert spread_ms(1) == 0
    assert spread_ms(3) < spread_ms(30) < spread_ms(100) <= MAX_SPREAD_MS
    assert spread_ms(10_000) == MAX_SPREAD_MS
    assert pace_ms(spread_ms(3)) == MIN_PACE_MS
    assert pace_ms(MAX_SPREAD_MS) == 2 * MAX_SPREAD_MS


def test_a_page_alone_on_its_topic_is_not_spread_among_the_crowd():
    """A change followed by many pages spreads their refreshes; one followed by a single page
    (a player's own sheet) is told at once, however many pages the process streams to."""
    hub = push.Hub()
    crowd = [push.Listener(n, ["encounter:1"]) for n in range(60)]
    alone = push.Listener(99, ["sheet:7"])
    for listener in [*crowd, alone]:
        hub.add(listener)
    hub.dispatch("encounter:1:5")
    hub.dispatch("sheet:7:")
    assert {listener.spread_ms for listener in crowd} == {spread_ms(61)} and spread_ms(61) > 0
    assert alone.spread_ms == 0 and alone.delay(now=1000.0) == 0


def test_no_event_for_a_rolled_back_step(server, fight):
    campaign = fight["encounter"].campaign
    stream = _open(server, "campaigns:stream", campaign.pk, fight["player"])
    with pytest.raises(RuntimeError), transaction.atomic():
        campaign.touch()
        raise RuntimeError("the step fails after bumping the version")
    campaign.touch()  # committed: the first event the stream gets must be this one
    version = Campaign.objects.get(pk=campaign.pk).version
    assert _change(stream.next_event())[1] == str(version)
    stream.close()


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("campaigns:stream", "other_campaign"),
        ("encounters:stream", "other_encounter"),
        ("characters:stream", "npc"),
        ("characters:stream", "other_pc"),
    ],
)
def test_a_players_stream_is_refused_like_the_page(server, fight, name, what):
    other = campaign_with_gm("ew")
    others = {
        "other_campaign": other.pk,
        "other_encounter": Encounter.objects.create(campaign=other, name="Ailleurs").pk,
        "npc": fight["npc"].pk,  # hidden, never revealed
        "other_pc": ew_fighter(other, "Ailleurs", owner=add_player(other)).pk,
    }
    stream = Stream(server, reverse(name, args=[others[what]]), session_cookie(fight["player"]))
    assert stream.status == 404
    stream.close()


def test_malformed_last_event_id_and_query_are_ignored(server, fight):
    path = reverse("campaigns:stream", args=[fight["encounter"].campaign_id])
    stream = Stream(
        server,
        f"{path}?v=%ZZ&v=-1&since=%C3%28",
        session_cookie(fight["player"]),
        headers={"Last-Event-ID": "99999999999999999999999999'; --é"},
    )
    assert stream.status == 200
    stream.close()


def test_under_wsgi_a_stream_answers_204_after_the_same_check(client, fight):
    client.force_login(fight["player"])
    ok = client.get(reverse("encounters:stream", args=[fight["encounter"].pk]))
    refused = client.get(reverse("characters:stream", args=[fight["npc"].pk]))
    assert (ok.status_code, refused.status_code) == (204, 404)


def test_thirty_open_streams_with_a_pool_of_ten_still_let_pages_load(server, fight):
    campaign = fight["encounter"].campaign
    players = [add_player(campaign, UserFactory()) for _ in range(6)]
    streams = [_open(server, "campaigns:stream", campaign.pk, players[i % 6]) for i in range(30)]
    page = reverse("campaigns:detail", args=[campaign.pk])
    cookie = session_cookie(fight["gm"])

    def load(_):
        loaded = Stream(server, page, cookie)
        loaded.response.read()
        return loaded.status

    with ThreadPoolExecutor(12) as pool:
        assert set(pool.map(load, range(12))) == {200}
    for stream in streams:
        stream.close()


def test_one_user_opening_many_streams_keeps_the_newest(server, fight):
    player, campaign_id = fight["player"], fight["encounter"].campaign_id
    streams = [_open(server, "campaigns:stream", campaign_id, player) for _ in range(9)]
    # The oldest is closed (told to come back only in a minute: it polls meanwhile).
    with pytest.raises(EOFError):
        streams[0].next_event()
    Campaign.objects.get(pk=campaign_id).touch()
    assert streams[-1].next_event()["event"] == "changed"
    for stream in streams:
        stream.close()


def test_the_dashboard_follows_my_campaigns_only(server, fight):
    campaign = fight["encounter"].campaign
    outsider = UserFactory()
    mine = Stream(server, reverse("home_stream"), session_cookie(fight["player"]))
    theirs = Stream(server, reverse("home_stream"), session_cookie(outsider), timeout=1.5)
    assert (mine.status, theirs.status) == (200, 200)
    campaign.touch()
    campaign.refresh_from_db()
    assert _change(mine.next_event()) == ("changed", str(campaign.version))
    with pytest.raises(TimeoutError):
        theirs.next_event()
    mine.close()
    theirs.close()


def test_a_stream_says_what_its_page_should_have_heard_at_each_keep_alive(
    server, fight, monkeypatch
):
    """Keep-alives are events a page can read (EventSource shows no comments): each says how
    many changes the stream has told the page, with the version, and how often they come."""
    monkeypatch.setattr(push, "KEEPALIVE_SECONDS", 1.0)
    encounter, gm = fight["encounter"], fight["gm"]
    stream = _open(server, "encounters:stream", encounter.pk, fight["player"])
    opening = json.loads(stream.next_event(kinds=("alive",))["data"])
    assert opening == {"version": None, "seq": 0, "keepalive_ms": 1000}
    for _ in range(2):
        services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
        services.encounter_resume(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    # Events tell the changes (a burst folded into fewer events); the keep-alive that follows
    # the last one (SETTLE_SECONDS after it) says the version and how many were told.
    heard = 0
    for _ in range(10):
        event = stream.next_event(kinds=("changed", "alive"))
        told = json.loads(event["data"])
        if event["event"] == "changed":
            heard = told["seq"]
        elif told["version"] == str(encounter.version):
            break
    assert event["event"] == "alive" and told["seq"] == heard >= 1
    assert push.hub.state()[0] == "listening"
    stream.close()
