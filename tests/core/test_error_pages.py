"""French error pages in the site's layout, each with a way back (issue 13)."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import bad_request, server_error

from apps.encounters.models import Encounter
from tests.submissions import once

pytestmark = pytest.mark.django_db


def test_404_is_french_in_the_layout_with_a_way_home(client, user):
    client.force_login(user)
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    assert "Cette page n'existe pas" in response.text.replace("&#x27;", "'")
    assert 'class="site-header"' in response.text
    assert f'href="{reverse("home")}"' in response.text


def test_a_player_opening_the_console_gets_a_403_linking_the_table_view(client, campaign, player):
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    client.force_login(player)
    response = client.get(reverse("encounters:console", args=[encounter.pk]))
    assert response.status_code == 403
    assert "Seul le MJ de la campagne peut l" in response.text
    assert f'href="{reverse("encounters:table", args=[encounter.pk])}"' in response.text
    assert "Ouvrir la vue de table" in response.text


def test_a_plain_403_has_no_table_link(client, campaign, player):
    client.force_login(player)
    response = client.get(reverse("campaigns:house_rules", args=[campaign.pk]))
    assert response.status_code == 403
    assert "Cette page n'est pas pour vous" in response.text.replace("&#x27;", "'")
    assert "Ouvrir la vue de table" not in response.text


def test_a_post_without_its_csrf_token_gets_the_french_page(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("campaigns:create"), once({"name": "X", "system": "ew"}))
    assert response.status_code == 403
    assert "Ce formulaire a expiré" in response.text
    assert "Rechargez la page" in response.text


def test_400_and_500_are_french_pages_without_a_request_context():
    request = RequestFactory().get("/")
    for view, status, heading in (
        (bad_request, 400, "Cette demande est incorrecte"),
        (server_error, 500, "Quelque chose s"),
    ):
        response = view(request, Exception()) if status == 400 else view(request)
        assert response.status_code == status
        assert heading in response.content.decode()
        assert 'href="/"' in response.content.decode()


def test_a_bad_host_answers_the_400_page(client, settings):
    settings.ALLOWED_HOSTS = ["tablee.example.org"]
    response = client.get(reverse("accounts:login"), HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "Cette demande est incorrecte" in response.text
