"""The table screen on a TV (issue 32): opened at 1920×1080 through a screen link, by a browser
logged in as nobody, it follows a fight of each system without a touch while the GM acts in
their own browser (pushed, as in production: uvicorn); a handout the GM shows appears on it
and on a player's phone; revoked, the link stops, its open stream with it; and its QR code
reads back, with a real decoder, as the invitation link."""

import io

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from apps.core.push import hub
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.screens.screen import ORDER_ROWS
from tests.asgi_server import serve_asgi, session_cookie
from tests.e2e.conftest import ACTION_TIMEOUT_MS, TABLET, screenshot
from tests.encounters.factories import (
    System,
    add_player,
    aethoria_fighter,
    campaign_with_gm,
    ew_fighter,
)
from tests.screens.factories import image_bytes, make_link

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def asgi_url(transactional_db):
    with serve_asgi() as url:
        yield url


@pytest.fixture
def open_as(browser, asgi_url):
    """Open a browser of its own (a TV, a phone, the GM's laptop) logged in as a user or not;
    every one is closed before the server stops (their streams with them)."""
    contexts = []

    def _open(viewport, user=None, **options):
        context = browser.new_context(viewport=viewport, locale="fr-FR", **options)
        contexts.append(context)
        if user is not None:
            name, _, value = session_cookie(user).partition("=")
            context.add_cookies([{"name": name, "value": value, "url": asgi_url}])
        return _watched(context.new_page())

    _open.url = asgi_url
    yield _open
    for context in contexts:
        context.close()


def _watched(page):
    """The page, its console errors collected (CSP refusals included)."""
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    return page


def _table(system: str):
    """A campaign of ``system`` with its GM, a player's PC and two NPCs in a fight being
    prepared, and a screen link."""
    fighter = aethoria_fighter if system == System.AETHORIA else ew_fighter
    campaign = campaign_with_gm(system)
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pcs = [fighter(campaign, "Lysandre Vey", owner=player)]
    npcs = [fighter(campaign, "Brigand des marais 1"), fighter(campaign, "Brigand des marais 2")]
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade dans les marais")
    services.combatants_add(encounter_id=encounter.pk, characters=pcs + npcs)
    return campaign, gm, player, encounter, make_link(campaign)


def _acting(console) -> str:
    return console.locator("#console .combatant.acting .combatant-name").inner_text()


def _checks(page) -> list:
    checks = []
    page.on("request", lambda r: "/nouveautes/" in r.url and checks.append(r))
    return checks


def _screen_follows_the_fight(open_as, url, system):
    campaign, gm, player, encounter, token = _table(system)
    tv = open_as(TV)
    checks = _checks(tv)
    with tv.expect_response(lambda r: "/nouveautes/" in r.url):  # the stream is open
        tv.goto(url + reverse("screens:link", args=[token]))
    expect(tv.locator(".screen-party")).to_contain_text("Lysandre Vey")
    screenshot(tv, f"screen-{system}-tv-between-fights")

    console = open_as(TABLET, gm)
    console.goto(url + reverse("encounters:console", args=[encounter.pk]))
    console.get_by_role("button", name="Lancer l'initiative et commencer").click()
    expect(console.locator("#console .combatant.acting")).to_have_count(1)
    expect(tv.locator(".screen-round")).to_have_text("Round 1")
    expect(tv.locator(".now-name")).to_have_text(_acting(console))
    expect(tv.locator(".order .fighter")).to_have_count(3)
    screenshot(tv, f"screen-{system}-tv-round-1")

    # The GM strikes and passes the turn: the TV follows, never touched.
    console.get_by_role("button", name="Lancer l'attaque").click()
    expect(console.locator(".log-line").first).not_to_have_class("log-line kind-start")
    expect(tv.locator(".screen-lines li")).not_to_have_count(1)
    first = _acting(console)
    console.keyboard.press("n")
    expect(console.locator("#console .combatant.acting .combatant-name")).not_to_have_text(first)
    expect(tv.locator(".now-name")).to_have_text(_acting(console))
    expect(tv.locator(".order .fighter.acting .fighter-name")).to_have_text(_acting(console))
    screenshot(tv, f"screen-{system}-tv-after-a-blow")

    # Idle, with its stream open, the TV asks nothing.
    checks.clear()
    tv.wait_for_timeout(2600)
    assert checks == []
    return campaign, gm, player, encounter, token, tv, console


def _show_a_handout(url, campaign, console, tv, phone):
    manage = _watched(console.context.new_page())
    manage.goto(url + reverse("screens:manage", args=[campaign.pk]))
    manage.get_by_label("Titre").fill("Plan des docks")
    manage.get_by_label("Image").set_input_files(
        files=[
            {"name": "plan.png", "mimeType": "image/png", "buffer": image_bytes("PNG", (900, 600))}
        ]
    )
    manage.get_by_role("button", name="Ajouter le document").click()
    expect(manage.get_by_text("Document ajouté et montré à la table.")).to_be_visible()
    for page in (tv, phone):
        image = page.locator(".handout img")
        expect(image).to_be_visible()
        # Loaded, through the view that checks who asks.
        assert page.evaluate("(img) => img.complete && img.naturalWidth", image.element_handle())
    return manage


@pytest.mark.parametrize("system", [System.EW, System.AETHORIA])
def test_the_tv_follows_a_fight_and_shows_the_gms_handout(open_as, asgi_url, system):
    campaign, _gm, player, encounter, _token, tv, console = _screen_follows_the_fight(
        open_as, asgi_url, system
    )
    phone = open_as(PHONE, player)
    phone.goto(asgi_url + reverse("encounters:table", args=[encounter.pk]))
    expect(phone.locator(".combatant.acting")).to_have_count(1)

    manage = _show_a_handout(asgi_url, campaign, console, tv, phone)
    expect(tv.locator(".screen-handout")).to_contain_text("Plan des docks")
    screenshot(tv, f"screen-{system}-tv-handout")
    screenshot(phone, f"screen-{system}-phone-table-handout")
    # The screen itself on a phone: one column, nothing wider than the phone.
    on_phone = _watched(phone.context.new_page())
    on_phone.goto(asgi_url + reverse("screens:screen", args=[campaign.pk]))
    expect(on_phone.locator(".handout img")).to_be_visible()
    screenshot(on_phone, f"screen-{system}-phone-screen")
    assert on_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Taken down: gone from the TV and the phone.
    manage.get_by_role("button", name="Retirer de l'écran").click()
    expect(tv.locator(".handout")).to_have_count(0)
    expect(phone.locator(".handout")).to_have_count(0)
    for page in (tv, console, phone, on_phone):
        assert page.console_errors == [], page.console_errors[:3]


def test_a_revoked_link_stops_the_tv_and_its_open_stream(open_as, asgi_url):
    campaign, _gm, _player, _encounter, _token, tv, console = _screen_follows_the_fight(
        open_as, asgi_url, System.EW
    )
    assert any(str(l.user_id).startswith("screen-link:") for l in hub.listeners)  # noqa: E741
    manage = _watched(console.context.new_page())
    manage.goto(asgi_url + reverse("screens:manage", args=[campaign.pk]))
    manage.get_by_role("button", name="Retirer").click()
    expect(manage.get_by_text("cet écran ne montre plus rien")).to_be_visible()
    # The TV reloads by itself onto the refusal, and asks nothing more.
    expect(tv.get_by_text("Ce lien d'écran ne fonctionne plus")).to_be_visible()
    expect(tv.locator("[data-live]")).to_have_count(0)
    assert "Embuscade dans les marais" not in tv.content()
    screenshot(tv, "screen-tv-link-revoked")
    assert not any(str(l.user_id).startswith("screen-link:") for l in hub.listeners)  # noqa: E741


def _decoded(page, selector: str) -> str:
    """The text a real QR decoder reads in what the page draws at ``selector``."""
    png = page.locator(selector).screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert len(found) == 1 and found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text


def test_the_qr_codes_read_back_as_the_invitation_link(open_as, asgi_url):
    campaign, gm, _player, _encounter, token = _table(System.EW)
    join = asgi_url + reverse("campaigns:join", args=[campaign.invite_code])
    tv = open_as(TV)
    tv.goto(asgi_url + reverse("screens:link", args=[token]))
    assert _decoded(tv, ".screen-join .qr svg") == join
    page = open_as(TABLET, gm, permissions=["clipboard-read", "clipboard-write"])
    page.goto(asgi_url + reverse("campaigns:detail", args=[campaign.pk]))
    assert _decoded(page, ".invite-qr svg") == join
    screenshot(page, "screen-campaign-invitation-qr")
    # "Copier le lien" beside it puts the same link in the clipboard, and says so.
    copy = page.locator(".invite-box [data-copy]")
    expect(copy).to_have_text("Copier le lien")
    copy.click()
    expect(copy).to_have_text("Lien copié")
    assert page.evaluate("navigator.clipboard.readText()") == join
    assert tv.console_errors == [] and page.console_errors == []


# Every fighter's name box, and the box it must stay within, as the TV draws them.
NAMES_IN_VIEW = """() => {
  const panel = document.querySelector('.screen-order').getBoundingClientRect();
  return [...document.querySelectorAll('.order .fighter-name')].map((name) => {
    const box = name.getBoundingClientRect();
    return {
      px: parseFloat(getComputedStyle(name).fontSize),
      inside: box.top >= panel.top && box.bottom <= panel.bottom && box.right <= panel.right,
    };
  });
}"""


@pytest.mark.parametrize("henchmen", [4, 12, 24, 34])
def test_every_fighter_of_a_big_fight_shows_on_the_tv_in_large_type(open_as, henchmen):
    campaign, gm, _player, encounter, token = _table(System.EW)
    extra = [ew_fighter(campaign, f"Homme de main {n}") for n in range(1, henchmen + 1)]
    services.combatants_add(encounter_id=encounter.pk, characters=extra)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    tv = open_as(TV)
    tv.goto(open_as.url + reverse("screens:link", args=[token]))
    names = tv.evaluate(NAMES_IN_VIEW)
    screenshot(tv, f"screen-tv-fight-of-{henchmen + 3}")
    # Every fighter, or in the biggest fight the 26 from the acting one on, and how many more.
    listed = min(henchmen + 3, ORDER_ROWS)
    assert len(names) == listed
    assert all(name["inside"] for name in names), names
    if listed < henchmen + 3:
        more = henchmen + 3 - listed
        expect(tv.locator(".order .more")).to_have_text(f"… et {more} autre{'s' * (more > 1)}")
        expect(tv.locator(".order .fighter.acting")).to_have_count(1)
        assert tv.locator(".order .more").evaluate(
            "(e) => e.getBoundingClientRect().bottom"
        ) <= tv.locator(".screen-order").evaluate("(e) => e.getBoundingClientRect().bottom")
    assert min(name["px"] for name in names) >= 28
    sizes = tv.evaluate(
        "[...document.querySelectorAll('.now-name, .next strong')]"
        ".map((e) => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes and min(sizes) >= 28
    screenshot(tv, f"screen-tv-fight-of-{henchmen + 3}")
