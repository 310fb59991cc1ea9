"""A PC without a player (an imported one whose player is not in the campaign) until the GM
gives it to one of the campaign's players (issue 12, point 3)."""

import pytest
from django.db import IntegrityError
from django.urls import reverse

from apps.characters.models import Character, Kind
from tests.accounts.factories import UserFactory
from tests.characters.factories import CharacterFactory, NpcFactory
from tests.encounters.factories import add_player, campaign_with_gm

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def unowned(campaign):
    return CharacterFactory(campaign=campaign, owner=None, name="Brandon")


def _assign(client, character, player):
    url = reverse("characters:assign", args=[character.pk])
    return client.post(url, {"player": player.pk if player else ""})


def test_a_pc_may_have_no_player_but_an_npc_never_has_one(campaign, player):
    CharacterFactory(campaign=campaign, owner=None)
    with pytest.raises(IntegrityError):
        Character.objects.create(campaign=campaign, kind=Kind.NPC, owner=player, name="X")


def test_the_gm_assigns_an_unowned_pc_to_a_player(client, gm, player, unowned):
    client.force_login(gm)
    page = client.get(reverse("characters:detail", args=[unowned.pk])).text
    assert "sans joueur" in page and 'action="/personnages/' in page
    assert reverse("characters:assign", args=[unowned.pk]) in page
    response = _assign(client, unowned, player)
    assert response.status_code == 302
    unowned.refresh_from_db()
    assert unowned.owner == player
    page = client.get(response["Location"]).text
    assert f"joué par {player.display_name}" in page
    # Now hers: she edits it.
    client.force_login(player)
    notes = reverse("characters:notes", args=[unowned.pk])
    response = client.post(notes, {"name": "Brandon", "concept": "", "notes": "à moi"})
    assert response.status_code == 302


def test_the_gm_hands_a_pc_to_another_player_over_htmx(client, campaign, gm, player, other_player):
    pc = CharacterFactory(campaign=campaign, owner=player)
    client.force_login(gm)
    url = reverse("characters:assign", args=[pc.pk])
    response = client.post(url, {"player": other_player.pk}, **HTMX)
    assert response.status_code == 200 and 'id="sheet"' in response.text
    pc.refresh_from_db()
    assert pc.owner == other_player


@pytest.mark.parametrize("who", ["gm", "outsider_user", "nobody"])
def test_only_a_player_of_the_campaign_may_be_given_a_pc(client, gm, unowned, who):
    """The GM herself, a user of no campaign, an empty choice: refused next to the field."""
    target = {"gm": gm, "outsider_user": UserFactory(), "nobody": None}[who]
    client.force_login(gm)
    url = reverse("characters:assign", args=[unowned.pk])
    data = {"player": target.pk if target else ""}
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert 'class="field-error"' in response.text
    assert "joueur de la campagne" in response.text or "pas dans la campagne" in response.text
    unowned.refresh_from_db()
    assert unowned.owner is None
    response = client.post(url, data)  # without htmx: the message area says it
    assert response.status_code == 302
    assert "Joueur :" in client.get(response["Location"]).text


def test_an_npc_has_no_player_to_assign(client, gm, player, campaign):
    npc = NpcFactory(campaign=campaign)
    client.force_login(gm)
    assert _assign(client, npc, player).status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [("player", 403), ("other_player", 403), ("elsewhere", 404), ("outsider", 404)],
)
def test_who_may_assign(client, request, unowned, player, who, status):
    """Players of the campaign see an unowned PC (the party) but may not take it; a player
    of another campaign and an outsider do not learn it exists."""
    if who == "elsewhere":
        user = add_player(campaign_with_gm("ew"))
    else:
        user = request.getfixturevalue(who)
    client.force_login(user)
    assert _assign(client, unowned, player).status_code == status
    unowned.refresh_from_db()
    assert unowned.owner is None


def test_anonymous_goes_to_the_login_page(client, unowned, player):
    response = _assign(client, unowned, player)
    assert response.status_code == 302 and "/compte/connexion/" in response["Location"]
    unowned.refresh_from_db()
    assert unowned.owner is None


def test_an_unowned_pc_reads_sans_joueur_on_the_campaign_page_and_dashboard(
    client, player, campaign, unowned
):
    client.force_login(player)
    for url in (reverse("campaigns:detail", args=[campaign.pk]), reverse("home")):
        html = client.get(url).text
        assert "Brandon" in html and "sans joueur" in html
