"""A stream lasts as long as its viewer's right to it (issue 28, point 2): logging out,
"log out everywhere", a password change and a removal from the campaign end that person's
open streams at once (within the 5 s the stream is read with here), and at every keep-alive
the stream checks its viewer again. Events carry the version alone (point 5). Served by
uvicorn, as in production."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from apps.campaigns.models import Membership
from apps.campaigns.services import membership_remove
from apps.core import push
from apps.core.push import Listener, pace_ms, spread_ms
from tests.accounts.factories import PASSWORD, UserFactory
from tests.asgi_server import Stream, serve_asgi, session_cookie
from tests.encounters.factories import add_player, started_duel
from tests.submissions import once

pytestmark = pytest.mark.django_db(transaction=True)

# Every test here is over in a second; a stream not ended within this fails it.
WITHIN = 5


@pytest.fixture
def server(transactional_db):
    with serve_asgi() as url:
        yield url


@pytest.fixture
def fight():
    return started_duel("Brandon", "Le Rôdeur", npc_hidden=True, name="Nuit")


def _open(server, path: str, cookie: str) -> Stream:
    stream = Stream(server, path, cookie, timeout=WITHIN)
    assert stream.status == 200
    return stream.opened()


def _campaign_stream(server, fight, cookie: str) -> Stream:
    return _open(server, reverse("campaigns:stream", args=[fight.encounter.campaign_id]), cookie)


def _ends(stream: Stream) -> bool:
    """Whether the stream ends without telling anything more (a timeout fails the test)."""
    try:
        stream.next_event()
    except EOFError:
        return True
    finally:
        stream.close()
    return False


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_logging_out_ends_the_open_streams(server, fight):
    phone = session_cookie(fight.player)
    streams = [
        _campaign_stream(server, fight, phone),
        _open(server, reverse("encounters:stream", args=[fight.encounter.pk]), phone),
        _open(server, reverse("characters:stream", args=[fight.pc.pk]), phone),
        _open(server, reverse("home_stream"), phone),
    ]
    gm_stream = _campaign_stream(server, fight, session_cookie(fight.gm))
    _logged_in(fight.player).post(reverse("accounts:logout"))
    assert all(_ends(stream) for stream in streams)
    # The GM's stream goes on: the next change reaches it.
    fight.encounter.campaign.touch()
    assert gm_stream.next_event()["event"] == "changed"
    gm_stream.close()


def test_logging_out_the_other_devices_ends_their_streams(server, fight):
    tablet = _campaign_stream(server, fight, session_cookie(fight.player))
    _logged_in(fight.player).post(reverse("accounts:sessions_end_others"))
    assert _ends(tablet)


def test_a_password_change_ends_the_streams_of_the_old_sessions(server, fight):
    tablet = _campaign_stream(server, fight, session_cookie(fight.player))
    new = "une-autre-phrase-2026"
    changed = _logged_in(fight.player).post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert changed.status_code == 302
    assert _ends(tablet)


def test_a_removed_player_loses_the_campaigns_streams(server, fight):
    campaign = fight.encounter.campaign
    phone = session_cookie(fight.player)
    page = _campaign_stream(server, fight, phone)
    table = _open(server, reverse("encounters:stream", args=[fight.encounter.pk]), phone)
    dashboard = _open(server, reverse("home_stream"), phone)
    membership = Membership.objects.get(campaign=campaign, user=fight.player)
    gm = _logged_in(fight.gm)
    url = reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])
    removed = gm.post(url, once())
    assert removed.status_code == 302
    # The campaign page and the table view end; the dashboard ends too, to come back
    # following the campaigns the player still has.
    assert _ends(page) and _ends(table) and _ends(dashboard)
    again = Stream(server, reverse("campaigns:stream", args=[campaign.pk]), phone)
    assert again.status == 404
    again.close()


def test_another_players_removal_leaves_my_stream_open(server, fight):
    campaign = fight.encounter.campaign
    other = add_player(campaign, UserFactory())
    mine = _campaign_stream(server, fight, session_cookie(fight.player))
    membership_remove(membership=Membership.objects.get(campaign=campaign, user=other))
    # Told of the change (the members moved), not closed.
    assert mine.next_event()["event"] == "changed"
    mine.close()


def test_every_keep_alive_checks_the_viewer_again(server, fight, monkeypatch):
    """A right lost without a word to the hub (here a sheet hidden again from its player:
    no trigger says so) ends the stream at the next keep-alive."""
    monkeypatch.setattr(push, "KEEPALIVE_SECONDS", 0.2)
    npc = fight.npc
    npc.revealed = True
    npc.save(update_fields=["revealed"])
    sheet = _open(server, reverse("characters:stream", args=[npc.pk]), session_cookie(fight.player))
    npc.revealed = False
    npc.save(update_fields=["revealed"])
    lines = _lines_until_the_end(sheet, most=20)
    # It ended after a keep-alive or two, having told at most the change itself.
    assert lines[-1] == ""
    assert sum(line == "event: changed\n" for line in lines) <= 1


def _lines_until_the_end(stream: Stream, most: int) -> list[str]:
    """The stream's lines up to its end ("") or ``most`` of them."""
    lines = []
    while len(lines) < most and (not lines or lines[-1] != ""):
        lines.append(stream.response.readline().decode())
    stream.close()
    return lines


def test_a_viewer_who_keeps_the_right_keeps_the_stream_across_keep_alives(
    server, fight, monkeypatch
):
    monkeypatch.setattr(push, "KEEPALIVE_SECONDS", 0.2)
    page = _campaign_stream(server, fight, session_cookie(fight.player))
    for _ in range(3):  # a few keep-alives, each checking the viewer
        assert page.next_event(kinds=("alive",))["event"] == "alive"
    fight.encounter.campaign.touch()
    assert page.next_event()["event"] == "changed"
    page.close()


# --- What an event carries (point 5) ----------------------------------------------------------


def test_an_event_carries_the_version_alone(server, fight):
    campaign = fight.encounter.campaign
    phone = session_cookie(fight.player)
    streams = [_campaign_stream(server, fight, phone) for _ in range(3)]
    sheet = _open(server, reverse("characters:stream", args=[fight.pc.pk]), phone)
    campaign.touch()
    campaign.refresh_from_db()
    for stream in streams:
        told = json.loads(stream.next_event()["data"])
        assert told == {"version": str(campaign.version), "seq": 1}  # how many told: 1
    # A sheet's topics have no version to tell (its own check compares what it shows): the
    # event says "changed" and nothing of the database (no transaction id).
    fight.pc.name = "Brandon l'Ancien"
    fight.pc.save(update_fields=["name"])
    assert json.loads(sheet.next_event()["data"]) == {"version": None, "seq": 1}
    for stream in [*streams, sheet]:
        stream.close()


def test_the_pacing_is_kept_by_the_stream_and_sized_by_the_open_streams():
    # The waiting the events no longer carry: within the spread at first, then no sooner
    # than a pace after the last event told.
    listener = Listener(1, ["campaign:1"])
    listener.deliver("3", spread_ms(100))
    assert 0 <= listener.delay(now=1000.0) <= spread_ms(100) / 1000
    listener.event()
    told_at = listener.last_sent
    assert listener.delay(now=told_at) >= pace_ms(spread_ms(100)) / 1000 - 1e-6
    assert listener.delay(now=told_at + 10) <= spread_ms(100) / 1000
