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
