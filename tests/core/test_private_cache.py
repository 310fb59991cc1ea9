"""Issue 12, point 12: what a logged-in person sees is never kept by a cache or a browser."""

import pytest
from django.urls import reverse

from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _private(response) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


def test_pages_fragments_checks_and_the_export_are_private_and_not_stored(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    ew_fighter(campaign, "Brandon", owner=add_player(campaign))
    client.force_login(gm)
    detail = reverse("campaigns:detail", args=[campaign.pk])
    responses = [
        client.get("/"),
        client.get(detail),
        client.get(detail, HTTP_HX_TARGET="party", **HTMX),
        client.get(reverse("campaigns:changes", args=[campaign.pk]), {"v": campaign.version}),
        client.get(reverse("campaigns:export", args=[campaign.pk])),
        client.get(reverse("campaigns:detail", args=[campaign.pk + 1000])),  # a 404 too
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 204, 200, 404]
    assert all(_private(r) for r in responses)
