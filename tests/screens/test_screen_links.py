"""Screen links (issue 32, point 2): the GM makes one for a device where nobody is logged in,
sees its URL once, and revokes it; a revoked link opens nothing at once."""

import html

import pytest
from django.test import Client
from django.urls import reverse

from apps.screens.models import ScreenLink
from apps.screens.services import MAX_LINKS
from tests.accounts.factories import UserFactory
from tests.screens.factories import make_link

pytestmark = pytest.mark.django_db


def _create(client, campaign, label="Télé du salon"):
    return client.post(reverse("screens:link_create", args=[campaign.pk]), {"label": label})


def test_the_gm_makes_a_link_and_sees_its_url_once(client, table):
    client.force_login(table.gm)
    response = _create(client, table.campaign, "Tablette de la table")
    assert response.status_code == 200
    url = response.text.split('id="new-screen-link" class="copy-field" value="', 1)[1]
    url = html.unescape(url.split('"', 1)[0])
    assert url.startswith("http://testserver/ecran/lien/")
    assert "no-store" in response["Cache-Control"]
    # The URL opens the screen, for a browser logged in as nobody.
    assert Client().get(url.removeprefix("http://testserver")).status_code == 200
    # Its page lists it by name, never its URL again.
    page = client.get(reverse("screens:manage", args=[table.campaign.pk])).text
    assert "Tablette de la table" in page and url not in page


def test_a_link_needs_a_name_said_in_french(client, table):
    client.force_login(table.gm)
    response = _create(client, table.campaign, "")
    assert response.status_code == 200
    assert "Ce champ est obligatoire." in response.text
    assert table.campaign.screen_links.count() == 1  # the fixture's only


def test_past_the_limit_the_gm_is_asked_to_revoke_one_first(client, table):
    client.force_login(table.gm)
    for n in range(MAX_LINKS - 1):
        make_link(table.campaign, f"Écran {n}")
    response = _create(client, table.campaign)
    assert response.status_code == 200
    assert "liens d&#x27;écran : retirez-en un d&#x27;abord" in response.text
    assert table.campaign.screen_links.count() == MAX_LINKS


def test_revoking_a_link_stops_it_at_once(client, table):
    tv = Client()
    assert tv.get(reverse("screens:link", args=[table.token])).status_code == 200
    version = table.campaign.version
    client.force_login(table.gm)
    link = ScreenLink.objects.get(campaign=table.campaign)
    response = client.post(reverse("screens:link_revoke", args=[table.campaign.pk, link.pk]))
    assert response.status_code == 302
    for name in ("screens:link", "screens:link_changes", "screens:link_stream"):
        assert tv.get(reverse(name, args=[table.token])).status_code == 404
    # Its open stream is told (the campaign's version moved) and checks the link again.
    table.campaign.refresh_from_db()
    assert table.campaign.version > version


def test_players_and_outsiders_cannot_make_or_revoke_links(table):
    link = ScreenLink.objects.get(campaign=table.campaign)
    for user, status in ((table.player, 403), (UserFactory(), 404)):
        client = Client()
        client.force_login(user)
        assert client.get(reverse("screens:manage", args=[table.campaign.pk])).status_code == status
        assert _create(client, table.campaign).status_code == status
        revoke = reverse("screens:link_revoke", args=[table.campaign.pk, link.pk])
        assert client.post(revoke).status_code == status
    assert table.campaign.screen_links.count() == 1


def test_a_gm_cannot_revoke_another_campaigns_link(client, table):
    other_gm = table.outsider_campaign.memberships.get().user
    client.force_login(other_gm)
    link = ScreenLink.objects.get(campaign=table.campaign)
    url = reverse("screens:link_revoke", args=[table.outsider_campaign.pk, link.pk])
    assert client.post(url).status_code == 404
    assert ScreenLink.objects.filter(pk=link.pk).exists()
