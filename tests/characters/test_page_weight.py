"""The phone sheet page stays light (product spec §5): at most 100 KB transferred, HTML, CSS
and JavaScript compressed, and nothing fetched from anywhere but the app itself."""

import gzip
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from apps.accounts.models import User
from apps.characters.models import Character

BUDGET = 100 * 1024


class Assets(HTMLParser):
    """The stylesheets, scripts, images and fonts a page makes the browser fetch."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and attrs.get("rel") in ("stylesheet", "icon", "preload", "manifest"):
            self.urls.append(attrs["href"])
        elif tag in ("script", "img", "source") and attrs.get("src"):
            self.urls.append(attrs["src"])


def compressed(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6))


def static_bytes(url: str) -> bytes:
    assert url.startswith(settings.STATIC_URL), f"{url} is not served by the app"
    path = finders.find(url.removeprefix(settings.STATIC_URL))
    assert path, f"{url} is missing"
    with open(path, "rb") as file:
        data = file.read()
    if url.endswith(".css"):
        # A stylesheet's own imports and fonts are fetched too.
        for inner in re.findall(rb"url\(['\"]?([^'\")]+)", data):
            assert not inner.startswith((b"http:", b"https:", b"//")), inner
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_a_players_sheet_on_a_phone_weighs_under_100_kb(client, system, settings):
    settings.DEBUG = True  # the demo is for development
    call_command("seed", verbosity=0)
    call_command("demo", verbosity=0)
    player = User.objects.get(username="alice")
    sheet = Character.objects.filter(owner=player, campaign__system=system).first()
    client.force_login(player)
    response = client.get(reverse("characters:detail", args=[sheet.pk]))
    assert response.status_code == 200
    html = response.content
    parser = Assets()
    parser.feed(html.decode())
    assert parser.urls, "the page should at least load its stylesheet"
    sizes = {"page": compressed(html)}
    for url in dict.fromkeys(parser.urls):
        sizes[url] = compressed(static_bytes(url))
    total = sum(sizes.values())
    assert total <= BUDGET, f"{total / 1024:.1f} KB: {sizes}"
