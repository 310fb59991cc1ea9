"""An open console says what is, not what was (issue 29): a stale click's banner goes once
the console refreshed to what the other person did; a PC renamed from its sheet mid-fight is
pushed to the fight's screens under its new name."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.encounters.models import Encounter
from tests.encounters.factories import started_duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
STALE = "Quelqu&#x27;un a agi"


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_bar(html: str) -> str:
    bar = html[html.index('id="messages"') :]
    return bar[: bar.index("</div>")]


def test_a_stale_clicks_banner_goes_when_the_console_refreshes():
    duel = started_duel(first="pc")
    encounter = duel.encounter
    gm = as_user(duel.gm)
    old = encounter.version
    next_turn = reverse("encounters:next_turn", args=[encounter.pk])
    assert gm.post(next_turn, {"version": old}, **HTMX).status_code == 200
    stale = gm.post(next_turn, {"version": old}, **HTMX)  # a second tab, a click too late
    assert stale.status_code == 409
    assert STALE in messages_bar(stale.text)
    # Another step, then the push refreshes this console: the banner speaks of nothing now.
    version = Encounter.objects.get(pk=encounter.pk).version
    gm.post(next_turn, {"version": version}, **HTMX)
    refreshed = gm.get(reverse("encounters:console", args=[encounter.pk]), **HTMX)
    assert 'id="messages"' in refreshed.text and 'hx-swap-oob="true"' in messages_bar(
        refreshed.text
    )
    assert "message" not in messages_bar(refreshed.text).split(">", 1)[1]


def test_a_pc_renamed_from_its_sheet_mid_fight_is_pushed_under_its_new_name():
    duel = started_duel("Brandon", "Garnier", first="pc")
    encounter = duel.encounter
    before = Encounter.objects.get(pk=encounter.pk).version
    player = as_user(duel.player)
    table = reverse("encounters:table", args=[encounter.pk])
    assert "Brandon" in player.get(table, **HTMX).text  # the players' region, kept
    notes = reverse("characters:notes", args=[duel.pc.pk])
    response = player.post(notes, {"name": "Brandon le Hardi", "concept": "", "notes": ""}, **HTMX)
    assert response.status_code == 200
    after = Encounter.objects.get(pk=encounter.pk).version
    assert after > before  # open screens following the fight are told
    console = as_user(duel.gm).get(reverse("encounters:console", args=[encounter.pk]), **HTMX)
    assert "Brandon le Hardi" in console.text
    assert "Brandon le Hardi" in player.get(table, **HTMX).text
    # Notes alone change nothing the fight shows: no push.
    player.post(notes, {"name": "Brandon le Hardi", "concept": "", "notes": "Dette"}, **HTMX)
    assert Encounter.objects.get(pk=encounter.pk).version == after
