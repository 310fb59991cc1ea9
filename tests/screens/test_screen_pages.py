"""The table screen's page, check and GM page (issue 32): who opens it, what it shows, what it
costs. A link opens the screen of its campaign as nobody, and nothing else."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.encounters import services
from apps.encounters.models import Status
from apps.screens.models import ScreenLink, token_digest
from apps.screens.screen import order_window
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm
from tests.screens.conftest import start_ambush
from tests.screens.factories import make_link

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "screen"}


def _screen(campaign) -> str:
    return reverse("screens:screen", args=[campaign.pk])


def _version(client, check: str) -> str:
    """The version the screen's live element shows."""
    page = client.get(check.replace("nouveautes/", "")).text
    return page.split(f'hx-get="{check}?v=', 1)[1].split('"', 1)[0]


def test_the_gm_and_the_players_open_the_screen_an_outsider_gets_404(client, table):
    for user, status in ((table.gm, 200), (table.player, 200), (UserFactory(), 404)):
        client.force_login(user)
        assert client.get(_screen(table.campaign)).status_code == status


def test_a_visitor_not_logged_in_is_sent_to_log_in(client, table):
    response = client.get(_screen(table.campaign))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_a_screen_link_opens_its_campaigns_screen_as_nobody(client, table):
    response = client.get(reverse("screens:link", args=[table.token]))
    assert response.status_code == 200
    assert "Embuscade aux docks" in response.text
    # Nobody is logged in, and no cache keeps what it showed.
    assert "_auth_user_id" not in client.session
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    # Its check and its fragment answer it; the live element asks its own check.
    check = reverse("screens:link_changes", args=[table.token])
    assert f'hx-get="{check}?v=' in response.text
    assert client.get(reverse("screens:link", args=[table.token]), **HTMX).status_code == 200


def test_a_screen_link_opens_nothing_else(client, table):
    client.get(reverse("screens:link", args=[table.token]))
    for url in (
        reverse("campaigns:detail", args=[table.campaign.pk]),
        reverse("encounters:table", args=[table.encounter.pk]),
        _screen(table.campaign),
        reverse("screens:manage", args=[table.campaign.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("accounts:login"))


def test_a_wrong_or_revoked_link_says_so_and_shows_nothing(client, table):
    wrong = client.get(reverse("screens:link", args=["pas-un-vrai-lien"]))
    assert wrong.status_code == 404
    assert "Ce lien d'écran ne fonctionne plus" in wrong.text
    ScreenLink.objects.filter(campaign=table.campaign).delete()
    gone = client.get(reverse("screens:link", args=[table.token]))
    assert gone.status_code == 404
    assert "Embuscade aux docks" not in gone.text and table.campaign.name not in gone.text


def test_only_the_digest_of_a_links_token_is_kept(table):
    link = ScreenLink.objects.get(campaign=table.campaign)
    assert link.token_digest == token_digest(table.token)
    assert table.token not in str(ScreenLink.objects.values().get())


def test_the_screen_shows_the_fight_the_acting_fighter_the_next_one_and_the_order(client, table):
    client.force_login(table.player)
    html = client.get(_screen(table.campaign)).text
    assert "Round 1" in html
    # Brandon struck; the hidden lurker acts next, then Garnier: the screen names Garnier
    # as next, never the lurker.
    services.encounter_next_turn(encounter_id=table.encounter.pk, version=None, by=table.gm)
    html = client.get(_screen(table.campaign)).text
    now = html.split('class="screen-now"', 1)[1].split("</section>", 1)[0]
    assert '<p class="now-name now-unknown">' in now
    assert "prochain :" in now and "Commissaire Garnier" in now
    services.encounter_next_turn(encounter_id=table.encounter.pk, version=None, by=table.gm)
    html = client.get(_screen(table.campaign)).text
    now = html.split('class="screen-now"', 1)[1].split("</section>", 1)[0]
    assert '<p class="now-name">Commissaire Garnier</p>' in now
    assert "nouveau round" in now
    order = html.split('class="order"', 1)[1].split("</ol>", 1)[0]
    assert order.index("Brandon") < order.index("Commissaire Garnier")
    assert 'aria-current="true"' in order.split("Brandon", 1)[1]


def test_each_fighter_state_is_said_in_words_from_its_systems_thresholds(client, table):
    client.force_login(table.player)
    html = client.get(_screen(table.campaign)).text
    garnier = table.encounter.combatants.get(character__name="Commissaire Garnier").character
    word = garnier.health(table.campaign.house())
    order = html.split('class="order"', 1)[1].split("</ol>", 1)[0]
    assert word and word in order.split("Commissaire Garnier", 1)[1].split("</li>", 1)[0]


def test_between_fights_the_screen_shows_the_party_and_the_qr_code_to_join(client):
    campaign = campaign_with_gm("aethoria")
    player = add_player(campaign)
    client.force_login(player)
    aethoria_fighter(campaign, "Torvald", owner=player)
    html = client.get(_screen(campaign)).text
    assert "Torvald" in html and "<svg" in html and "qr-code" in html
    join = reverse("campaigns:join", args=[campaign.invite_code])
    assert f"http://testserver{join}" in html
    assert "Ordre du round" not in html


def test_the_check_answers_204_until_the_screen_changes(client, table, django_assert_num_queries):
    client.force_login(table.player)
    check = reverse("screens:changes", args=[table.campaign.pk])
    version = _version(client, check)
    with django_assert_num_queries(2):  # the user, the answer
        assert client.get(check, {"v": version}).status_code == 204
    services.encounter_next_turn(encounter_id=table.encounter.pk, version=None, by=table.gm)
    response = client.get(check, {"v": version})
    assert response.status_code == 200 and response["HX-Trigger"] == "screen-changed"


def test_a_links_check_costs_one_query(table, django_assert_num_queries):
    client = Client()
    check = reverse("screens:link_changes", args=[table.token])
    version = _version(client, check)
    with django_assert_num_queries(1):
        assert client.get(check, {"v": version}).status_code == 204


def test_a_revoked_links_check_reloads_the_page_onto_its_refusal(client, table):
    check = reverse("screens:link_changes", args=[table.token])
    version = _version(client, check)
    ScreenLink.objects.filter(campaign=table.campaign).delete()
    response = client.get(check, {"v": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 404 and response["HX-Refresh"] == "true"


def test_the_check_follows_the_fight_that_starts_and_ends(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    client.force_login(gm)
    check = reverse("screens:changes", args=[campaign.pk])
    between = _version(client, check)
    encounter = start_ambush(campaign, gm, add_player(campaign))
    assert client.get(check, {"v": between}).status_code == 200
    during = _version(client, check)
    assert during != between and f".{encounter.pk}." in during
    services.encounter_end(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    assert encounter.status == Status.FINISHED
    assert client.get(check, {"v": during}).status_code == 200
    assert "Ordre du round" not in client.get(_screen(campaign)).text


def _fight_of(size: int) -> Campaign:
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    start_ambush(campaign, gm, add_player(campaign), extras=size)
    return campaign


@pytest.mark.parametrize("way", ["member", "link"])
def test_the_screen_costs_the_same_queries_whatever_the_number_of_fighters(
    way, django_assert_num_queries
):
    counts = []
    for size in (0, 12):
        campaign = _fight_of(size)
        client = Client()
        if way == "member":
            client.force_login(campaign.memberships.get(role="player").user)
            url = _screen(campaign)
        else:
            url = reverse("screens:link", args=[make_link(campaign)])
        # The user (a member), the campaign, its fight, the fighters, the last actions.
        with django_assert_num_queries(5 if way == "member" else 4) as queries:
            assert client.get(url, **HTMX).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    ("size", "anchor", "shown", "more"),
    [
        (10, 3, list(range(10)), 0),  # every fighter
        (40, 0, list(range(26)), 14),  # from the first one, who acts
        (40, 5, list(range(5, 31)), 14),  # those who acted left out
        (40, 35, list(range(14, 40)), 14),  # near the end: the last 26
        (40, None, list(range(26)), 14),  # a hidden fighter acts and nobody is next
    ],
)
def test_a_big_fights_order_lists_26_fighters_from_the_acting_one(size, anchor, shown, more):
    assert order_window(list(range(size)), anchor) == (shown, more)
