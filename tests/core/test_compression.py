"""Pages and fragments go out compressed; pushed event streams go out as they are."""

import gzip

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory
from django.urls import reverse

from apps.core.middleware import CompressedPagesMiddleware
from tests.encounters.factories import started_duel

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_a_console_page_and_its_fragment_are_compressed(client):
    duel = started_duel()
    client.force_login(duel.gm)
    url = reverse("encounters:console", args=[duel.encounter.pk])
    page = client.get(url, **GZIP)
    assert page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content).decode()
    assert "Rixe" in html and len(page.content) < len(html) / 4
    fragment = client.get(url, HTTP_HX_REQUEST="true", **GZIP)
    assert fragment["Content-Encoding"] == "gzip"
    assert 'id="console"' in gzip.decompress(fragment.content).decode()


def test_a_browser_that_does_not_accept_gzip_gets_the_plain_page(client):
    duel = started_duel()
    client.force_login(duel.gm)
    page = client.get(reverse("encounters:console", args=[duel.encounter.pk]))
    assert not page.has_header("Content-Encoding") and b"Rixe" in page.content


def test_an_event_stream_is_never_held_by_the_compressor():
    request = RequestFactory().get("/flux/", **GZIP)
    events = ["event: changed\ndata: 2\n\n"] * 50

    def stream(_request):
        return StreamingHttpResponse(iter(events), content_type="text/event-stream")

    response = CompressedPagesMiddleware(stream)(request)
    assert not response.has_header("Content-Encoding")
    assert next(iter(response.streaming_content)) == events[0].encode()

    def page(_request):
        return HttpResponse("<p>" + "x" * 2000 + "</p>")

    assert CompressedPagesMiddleware(page)(request)["Content-Encoding"] == "gzip"
