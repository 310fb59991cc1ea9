"""Issue 32, point 5: the table screen's page, its fragment and its check carry nothing a
player may not see — no hidden fighter, no NPC's number, no handout the GM keeps for later —
for a player logged in and for a screen link alike (its stream: test_screen_stream.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.encounters import services, tools
from apps.encounters.conditions import ConditionChoice
from tests.screens.conftest import NPC_NUMBERS
from tests.screens.factories import make_handout

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "screen"}
HIDDEN = ("Rôdeur des quais", "Le secret du MJ")


def _viewers(table) -> dict[str, tuple[Client, str, str]]:
    """A player's client and a link's (nobody logged in), with their page and check."""
    player = Client()
    player.force_login(table.player)
    return {
        "player": (
            player,
            reverse("screens:screen", args=[table.campaign.pk]),
            reverse("screens:changes", args=[table.campaign.pk]),
        ),
        "link": (
            Client(),
            reverse("screens:link", args=[table.token]),
            reverse("screens:link_changes", args=[table.token]),
        ),
    }


def _answers(client: Client, page: str, check: str) -> dict[str, str]:
    """Every answer of the screen this viewer gets: the page, the region it fetches, the
    check's answer after a change (the live element)."""
    return {
        "page": client.get(page).text,
        "fragment": client.get(page, **HTMX).text,
        "check": client.get(check, {"v": "0.0.0"}, HTTP_HX_REQUEST="true").text,
    }


def _leaks(html: str) -> list[str]:
    return [secret for secret in (*HIDDEN, *NPC_NUMBERS) if secret in html]


@pytest.mark.parametrize("viewer", ["player", "link"])
def test_nothing_a_player_may_not_see_in_the_fight_on_screen(table, viewer):
    make_handout(table.campaign, title="Le secret du MJ")  # kept for later: not shown
    client, page, check = _viewers(table)[viewer]
    # Each moment of the round: Brandon acts, the hidden lurker, then Garnier.
    for turn in range(3):
        answers = _answers(client, page, check)
        assert "Commissaire Garnier" in answers["page"]
        if turn == 0:  # Brandon acts: his pools show, written as an NPC's would be
            assert "24</strong> / 24" in answers["page"]
        assert {name: _leaks(html) for name, html in answers.items()} == {
            "page": [],
            "fragment": [],
            "check": [],
        }
        services.encounter_next_turn(encounter_id=table.encounter.pk, version=None, by=table.gm)


@pytest.mark.parametrize("viewer", ["player", "link"])
def test_the_last_actions_read_as_the_players_table_view_reads_them(table, viewer):
    client, page, _check = _viewers(table)[viewer]
    lines = client.get(page).text.split('class="screen-lines"', 1)[1].split("</ol>", 1)[0]
    player = Client()
    player.force_login(table.player)
    table_view = player.get(reverse("encounters:table", args=[table.encounter.pk])).text
    assert "Brandon attaque Commissaire Garnier" in lines
    for line in lines.split('<span class="line-text">')[1:]:
        assert line.split("</span>", 1)[0] in table_view


@pytest.mark.parametrize("viewer", ["player", "link"])
def test_only_the_handout_on_show_reaches_the_screen(table, viewer):
    kept = make_handout(table.campaign, title="Le secret du MJ")
    shown = make_handout(table.campaign, title="Plan des docks", shown=True)
    client, page, _check = _viewers(table)[viewer]
    html = client.get(page).text
    assert "Plan des docks" in html and "Le secret du MJ" not in html
    if viewer == "link":
        image = reverse("screens:link_handout_image", args=[table.token, shown.pk])
        hidden = reverse("screens:link_handout_image", args=[table.token, kept.pk])
    else:
        image = reverse("campaigns:handout_image", args=[table.campaign.pk, shown.pk])
        hidden = reverse("campaigns:handout_image", args=[table.campaign.pk, kept.pk])
    assert f'src="{image}"' in html
    assert client.get(image).status_code == 200
    assert client.get(hidden).status_code == 404


def test_a_link_shows_no_handout_of_another_campaign(table):
    other = make_handout(table.outsider_campaign, shown=True)
    url = reverse("screens:link_handout_image", args=[table.token, other.pk])
    assert Client().get(url).status_code == 404


def _put(table, name: str, label: str, public: bool) -> None:
    fighter = table.encounter.combatants.get(character__name=name)
    choice = ConditionChoice(combatant_id=fighter.pk, label=label, public=public)
    tools.condition_put(encounter_id=table.encounter.pk, version=None, by=table.gm, choice=choice)


@pytest.mark.parametrize("viewer", ["player", "link"])
def test_the_screen_says_the_public_conditions_and_no_other(table, viewer):
    _put(table, "Commissaire Garnier", "Aveuglé par la fumée", public=True)
    _put(table, "Commissaire Garnier", "Ensorcelé", public=False)
    _put(table, "Rôdeur des quais", "Tapi dans l'ombre", public=True)
    _put(table, "Brandon", "Étourdi", public=True)
    client, page, check = _viewers(table)[viewer]
    for name, html in _answers(client, page, check).items():
        assert "Ensorcelé" not in html and "Tapi dans l" not in html, name
    order = client.get(page).text.split('class="order', 1)[1].split("</ol>", 1)[0]
    garnier = order.split("Commissaire Garnier", 1)[1].split("</li>\n", 1)[0]
    assert "Aveuglé par la fumée" in garnier
    brandon = order.split("Brandon", 1)[1].split("Commissaire Garnier", 1)[0]
    assert "Étourdi" in brandon and "Aveuglé" not in brandon
    # The acting fighter's too, in the large card.
    now = client.get(page).text.split('class="screen-now"', 1)[1].split("</section>", 1)[0]
    assert "Étourdi" in now
