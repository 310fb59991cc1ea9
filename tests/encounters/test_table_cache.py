"""The players' table region, rendered once per version (issue 18's load): every phone of a
fight fetches it after each step, and every player sees the same one. What the cache must not
change: who may see it, what they see, and that a step shows at once."""

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.characters.models import Character
from apps.encounters import console, services
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

    render = console.render_to_string
    monkeypatch.setattr(console, "render_to_string", counted)
    return count


def _region(client, encounter, user):
    client.force_login(user)
    return client.get(reverse("encounters:table", args=[encounter.pk]), **HTMX)


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

    key = console._table_body_key
    monkeypatch.setattr(console, "_table_body_key", recorded)
    encounter, player = fight["encounter"], fight["players"][0]
    _region(client, encounter, player)
    cache.set(keys[0], "<p>from the cache</p>")  # whoever gets this text got it from there
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
