"""The players' table region, rendered once per version (issue 18's load): every phone of a
fight fetches it after each step, and every player sees the same one. What the cache must not
change: who may see it, what they see, and that a step shows at once."""

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.characters.models import Character
from apps.encounters import services, table
from apps.encounters.models import Encounter
from apps.encounters.steps import bump_version
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
DUMMY_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


@pytest.fixture
def fight():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    players = [add_player(campaign), add_player(campaign)]
    people = [ew_fighter(campaign, "Brandon", owner=players[0]), ew_fighter(campaign, "Garnier")]
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade aux docks")
    services.combatants_add(encounter_id=encounter.pk, characters=people)
    lurker = ew_fighter(campaign, "Rôdeur des quais")
    services.combatants_add(encounter_id=encounter.pk, characters=[lurker], hidden=True)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    return {"gm": gm, "players": players, "encounter": encounter, "garnier": people[1]}


@pytest.fixture
def renders(monkeypatch):
    """How many times the players' region was rendered rather than taken from the cache."""
    count = []

    def counted(*args, **kwargs):
        count.append(1)
        return render(*args, **kwargs)

    render = table.render_to_string
    monkeypatch.setattr(table, "render_to_string", counted)
    return count


def _region(client, encounter, user, shown=None):
    client.force_login(user)
    query = {} if shown is None else {"shown": shown}
    return client.get(reverse("encounters:table", args=[encounter.pk]), query, **HTMX)


def _rename_garnier(fight, name: str) -> int:
    """A step that changes what the region shows; the encounter's new version."""
    Character.objects.filter(pk=fight["garnier"].pk).update(name=name)
    with transaction.atomic():
        encounter = Encounter.objects.get(pk=fight["encounter"].pk)
        bump_version(encounter)
    return encounter.version


def test_every_player_gets_one_render_per_version(client, fight, renders):
    first = _region(client, fight["encounter"], fight["players"][0]).text
    again = _region(client, fight["encounter"], fight["players"][1]).text
    assert len(renders) == 1 and again == first


def test_the_cached_region_is_what_the_view_renders_without_cache(client, fight, settings):
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    cached = _region(client, encounter, player).text
    settings.CACHES = DUMMY_CACHE
    assert cached == _region(client, encounter, player).text
    assert 'id="table-body"' in cached and "Garnier" in cached


def test_a_hidden_npc_never_appears_in_the_cached_region(client, fight):
    for _ in range(2):
        assert (
            "Rôdeur des quais" not in _region(client, fight["encounter"], fight["players"][0]).text
        )


def test_outsiders_and_other_campaigns_players_still_get_404(client, fight):
    encounter = fight["encounter"]
    _region(client, encounter, fight["players"][0])  # the region is in the cache
    elsewhere = campaign_with_gm("ew")
    assert _region(client, encounter, UserFactory()).status_code == 404
    assert _region(client, encounter, add_player(elsewhere)).status_code == 404


def test_the_gm_never_gets_the_cached_players_region(client, fight, monkeypatch):
    keys = []

    def recorded(request, encounter):
        keys.append(key(request, encounter))
        return keys[-1]

    key = table._table_body_key
    monkeypatch.setattr(table, "_table_body_key", recorded)
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    versions, rendered_at, _html = cache.get(keys[0])
    # Whoever gets this text got it from there.
    cache.set(keys[0], (versions, rendered_at, "<p>from the cache</p>"))
    assert _region(client, encounter, player).text == "<p>from the cache</p>"
    assert "from the cache" not in _region(client, encounter, fight["gm"]).text
    assert len(keys) == 2  # the two players' requests; the GM's view never looked


def test_a_new_version_renders_anew(client, fight, renders):
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    Character.objects.filter(pk=fight["garnier"].pk).update(name="Commissaire Garnier")
    with transaction.atomic():
        bump_version(Encounter.objects.get(pk=encounter.pk))
    assert "Commissaire Garnier" in _region(client, encounter, player).text
    assert len(renders) == 2


def test_house_rules_changed_without_a_version_render_anew(client, fight, renders):
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    campaign = Campaign.objects.get(pk=encounter.campaign_id)
    Campaign.objects.filter(pk=campaign.pk).update(house_rules={**campaign.house_rules, "x": 1})
    _region(client, encounter, player)
    assert len(renders) == 2


def test_a_cached_refresh_costs_two_queries(client, fight, django_assert_num_queries):
    encounter, player = fight["encounter"], fight["players"][0]
    table = reverse("encounters:table", args=[encounter.pk])
    _region(client, encounter, player)
    # user, encounter with campaign and the viewer's role; the region from the cache.
    with django_assert_num_queries(2):
        client.get(table, **HTMX)


@pytest.fixture
def clock(monkeypatch):
    """The cache's clock, moved by hand (seconds)."""
    now = [1000.0]
    monkeypatch.setattr(table.time, "monotonic", lambda: now[0])
    return now


def test_a_fresh_render_serves_a_phone_showing_no_newer_version(client, fight, renders, clock):
    """The GM stepping without pause: a phone asking within a quarter of a second of the last
    render, and showing that render's version or older, gets it again; it was told of the
    newer version and asks again, paced (static/js/live.js)."""
    encounter, player = fight["encounter"], fight["players"][0]
    encounter.refresh_from_db()
    shown = encounter.version
    first = _region(client, encounter, player, shown=shown)
    _rename_garnier(fight, "Commissaire Garnier")
    clock[0] += table.TABLE_BODY_REUSE_SECONDS / 2
    again = _region(client, encounter, player, shown=shown)
    assert again.text == first.text and len(renders) == 1
    # A quarter of a second later, the same phone gets the new version.
    clock[0] += table.TABLE_BODY_REUSE_SECONDS
    assert "Commissaire Garnier" in _region(client, encounter, player, shown=shown).text
    assert len(renders) == 2


def test_a_phone_never_goes_back_to_an_older_render(client, fight, renders, clock):
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    newer = _rename_garnier(fight, "Commissaire Garnier")
    # This phone already shows the newer version (from another process, say): no reuse.
    assert "Commissaire Garnier" in _region(client, encounter, player, shown=newer).text
    assert len(renders) == 2


def test_a_page_that_does_not_say_what_it_shows_gets_the_current_version(
    client, fight, renders, clock
):
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    _rename_garnier(fight, "Commissaire Garnier")
    for shown in (None, "abc", "-1"):
        assert "Commissaire Garnier" in _region(client, encounter, player, shown=shown).text
    assert len(renders) == 2


def test_the_region_carries_the_version_it_shows_in_its_url(client, fight):
    encounter, player = fight["encounter"], fight["players"][0]
    region = _region(client, encounter, player).text
    encounter.refresh_from_db()
    assert f"?shown={encounter.version}" in region
