"""EW's resolution grid, edited by the GM cell by cell, checked by the engine, reset."""

import pytest
from django.urls import reverse

from apps.rules import ew

pytestmark = pytest.mark.django_db


def test_the_grid_editor_saves_a_cell_and_resets(client, campaign, gm):
    client.force_login(gm)
    url = reverse("campaigns:grid", args=[campaign.pk])
    form = client.get(url).context["form"]
    data = {name: field.initial for name, field in form.fields.items()}
    data["c5_5"] = 13
    assert client.post(url, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.house().table.score(5, 5) == 13
    client.post(reverse("campaigns:grid_reset", args=[campaign.pk]))
    campaign.refresh_from_db()
    assert campaign.house().resolution_grid is None
    assert campaign.house().table.score(5, 5) == ew.default_table_score(5, 5)


def test_a_grid_cell_out_of_range_is_refused(client, campaign, gm):
    client.force_login(gm)
    url = reverse("campaigns:grid", args=[campaign.pk])
    form = client.get(url).context["form"]
    data = {name: field.initial for name, field in form.fields.items()}
    data["c3_4"] = 25
    response = client.post(url, data)
    assert response.status_code == 200
    assert "c3_4" in response.context["form"].errors
    campaign.refresh_from_db()
    assert campaign.house().resolution_grid is None


def test_the_grid_is_on_the_page_ew_names_in_its_own_words(client, campaign, gm):
    client.force_login(gm)
    response = client.get(reverse("campaigns:grid", args=[campaign.pk]))
    assert response.templates[0].name == "systems/ew/grid.html"
    page = response.content.decode()
    assert "C'est la table par défaut : 10 + NA − ND, bornée entre 1 et 19." in page
    assert '<th scope="col">NA \\ ND</th><th scope="col">0</th>' in page
    settings = client.get(reverse("campaigns:house_rules", args=[campaign.pk])).content.decode()
    link = f'<a class="button" href="{reverse("campaigns:grid", args=[campaign.pk])}">'
    assert f"{link}Table de résolution NA × ND</a>" in settings
