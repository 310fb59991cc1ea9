"""A roll request reaches its player's phone by a stream of its own (issue #31): the request's
column NOTIFYs ``request:<character id>`` at COMMIT, which only that player's panel follows;
another player's panel hears nothing of it. Served by uvicorn, as in production."""

import time

import pytest
from django.test import Client
from django.urls import reverse

from apps.core import push
from tests.asgi_server import Stream, serve_asgi, session_cookie
from tests.encounters.request_fixtures import table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(transactional_db):
    with serve_asgi() as url:
        yield url


def test_a_request_is_pushed_to_its_player_alone_and_at_once(server, monkeypatch):
    heard = []
    dispatch = push.hub.dispatch
    monkeypatch.setattr(
        push.hub, "dispatch", lambda payload: (heard.append(payload), dispatch(payload))
    )
    t = table()
    url = reverse("encounters:request_stream", args=[t.encounter.pk])
    mine = Stream(server, url, session_cookie(t.lysandre_player))
    theirs = Stream(server, url, session_cookie(t.ysolde_player))
    assert mine.status == 200 and theirs.status == 200
    mine.next_event(("alive",))
    gm = Client()
    gm.force_login(t.gm)
    data = {
        "version": t.encounter.version,
        "attacker": t.npc.pk,
        "target": t.lysandre.pk,
        "defence": "none",
        "modifier": 0,
        "request_kind": "defence",
    }
    sent = time.monotonic()
    response = gm.post(reverse("encounters:ew_request", args=[t.encounter.pk]), data)
    assert response.status_code in (200, 302)
    assert mine.next_event()["event"] == "changed"
    # Unpaced: told as soon as the hub hears it (the budget itself is the bench's).
    assert time.monotonic() - sent < 2
    told = [payload.rpartition(":")[0] for payload in heard]
    assert f"request:{t.lysandre.character_id}" in told
    assert f"request:{t.ysolde.character_id}" not in told
    mine.close()
    theirs.close()


def test_an_outsider_gets_no_request_stream(client):
    t, other = table(), table()
    client.force_login(other.lysandre_player)
    url = reverse("encounters:request_stream", args=[t.encounter.pk])
    assert client.get(url).status_code == 404
