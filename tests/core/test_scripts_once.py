"""The live updates' scripts load once per page (issue 29): a region htmx swaps carries no
script, or every swap would fetch live.js again (under DEBUG, 207 revalidations for 107
refreshes of the table view, with the SSE extension it then needed)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

# As uvicorn serves a page: its stream's element is there (config/asgi.py marks it so).
STREAMED = {"tablee.streams_served": True}
HTMX = {"HTTP_HX_REQUEST": "true", **STREAMED}


def test_the_table_region_a_phone_swaps_carries_no_script(client, english_table):
    encounter = english_table["encounter"]
    player = english_table["brandon"].owner
    client.force_login(player)
    url = reverse("encounters:table", args=[encounter.pk])
    region = client.get(url, **HTMX).text
    assert 'id="table-body"' in region and "data-live-stream" in region
    assert "<script" not in region
    page = client.get(url, **STREAMED).text
    assert page.count("js/live.js") == 1


def test_the_console_region_carries_no_script(client, english_table):
    encounter = english_table["encounter"]
    region = client.get(reverse("encounters:console", args=[encounter.pk]), **HTMX).text
    assert "data-live" in region and "<script" not in region
