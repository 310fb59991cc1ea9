"""No screen stays behind (issue 27, point 4), served by uvicorn as in production: a phone
whose network goes quiet without closing its stream shows "reconnexion…" and catches up once
the network is back; two GM consoles stepping in turn both show the server's state; a page
that missed an event is put right by the next keep-alive."""

import re
import time

import pytest
from playwright.sync_api import expect

from apps.core import push
from apps.encounters import services
from apps.systems.ew.combat import AttackChoice, ew_attack
from tests.asgi_server import serve_asgi, session_cookie
from tests.e2e.conftest import ACTION_TIMEOUT_MS, DESKTOP, LIVE_SETUP_TIMEOUT_MS, screenshot
from tests.e2e.test_live_push import _fight, _phone, _strike
from tests.stall_proxy import stall_proxy

# A phone stays offline this long (issue 27), its stream left open.
OFFLINE_SECONDS = 20


@pytest.fixture
def asgi_url(transactional_db):
    with serve_asgi() as url:
        yield url


def shown_version(page) -> str:
    return re.search(r"v=(\d+)", page.locator("[data-live]").get_attribute("hx-get")).group(1)


def test_a_phone_offline_with_its_stream_open_says_so_and_catches_up(
    browser, asgi_url, monkeypatch
):
    # Keep-alives every 2 s instead of 25: the page gives a silent stream up after two of them
    # and 5 s (2 × 25 + 5 = 55 s in production, within the minute the issue allows).
    monkeypatch.setattr(push, "KEEPALIVE_SECONDS", 2.0)
    encounter, gm, player, _pc = _fight()
    with stall_proxy(asgi_url) as proxy:
        table = _phone(browser, proxy.url, player, f"/rencontres/{encounter.pk}/table/", [])
        expect(table.locator(".live-lost")).to_be_hidden()
        proxy.stall()  # the network goes quiet; the stream's connection stays open
        went_offline = time.monotonic()
        services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
        expect(table.locator(".live-lost")).to_be_visible(timeout=60_000)
        screenshot(table, "offline-phone-reconnecting")
        table.wait_for_timeout(max(0, OFFLINE_SECONDS - (time.monotonic() - went_offline)) * 1000)
        expect(table.locator(".status-line")).not_to_contain_text("pause")  # nothing got through

        proxy.resume()
        back = time.monotonic()
        expect(table.locator(".status-line")).to_contain_text("pause")
        print(f"caught up {time.monotonic() - back:.2f} s after the network came back")
        expect(table.locator(".live-lost")).to_be_hidden()
        encounter.refresh_from_db()
        assert shown_version(table) == str(encounter.version)
        table.context.close()


def _console(browser, url: str, gm, path: str):
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    name, _, value = session_cookie(gm).partition("=")
    context.add_cookies([{"name": name, "value": value, "url": url}])
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    # The stream opens, then the page checks: on a loaded machine that may take a while.
    with page.expect_response(
        lambda response: "/nouveautes/" in response.url, timeout=LIVE_SETUP_TIMEOUT_MS
    ):
        page.goto(url + path)
    return page


def strike_the_other(encounter, gm) -> None:
    """The acting fighter hits the other one, as another GM tab would."""
    encounter.refresh_from_db()
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk)
    choice = AttackChoice(attacker_id=acting.pk, target_id=target.pk)
    ew_attack(
        encounter_id=encounter.pk, version=None, by=gm, choice=choice, to_hit_face=1, damage_face=2
    )


def all_show(consoles, encounter) -> None:
    """Every console shows the server's version, in its live check and in every form, and
    the same status line."""
    encounter.refresh_from_db()
    server = str(encounter.version)
    for console in consoles:
        expect(console.locator("[data-live]")).to_have_attribute(
            "hx-get", re.compile(rf"\?v={server}$")
        )
        expect(console.locator(".encounter-version").first).to_have_value(server)
    status = consoles[0].locator("#status-line").inner_text()
    for console in consoles[1:]:
        expect(console.locator("#status-line")).to_have_text(status)


def test_two_gm_consoles_stepping_in_turn_both_show_the_servers_state(browser, asgi_url):
    encounter, gm, _player, _pc = _fight()
    path = f"/rencontres/{encounter.pk}/"
    consoles = [_console(browser, asgi_url, gm, path) for _ in range(2)]
    for step in range(8):
        acting = consoles[step % 2]
        acting.wait_for_timeout(1000)  # a tap, not a double tap (static/js/requests.js)
        if step % 4 == 3:
            strike_the_other(encounter, gm)  # someone else acts too (a third tab)
            all_show(consoles, encounter)
        encounter.refresh_from_db()
        version = encounter.version
        round_ends = acting.locator("a#next-turn").count() == 1
        acting.locator("#next-turn").click()
        if round_ends:  # "Tour suivant" asks for the new round's dice first (issue 29)
            acting.locator("#new-round-app").click()
        expect(acting.locator("[data-live]")).to_have_attribute(
            "hx-get", re.compile(rf"\?v={version + 1}$")
        )
        all_show(consoles, encounter)
    for console in consoles:
        console.context.close()


def test_a_console_whose_refresh_failed_asks_again(browser, asgi_url):
    """The check said "changed" (and moved the page's version on), then the console's own
    region answered 503 (the database restarting): asking the check again would answer
    "nothing new"; the page asks for the region again instead."""
    encounter, gm, _player, _pc = _fight()
    path = f"/rencontres/{encounter.pk}/"
    second = _console(browser, asgi_url, gm, path)
    failed = []

    def fail_once(route):
        if route.request.headers.get("hx-request") and not failed:
            failed.append(route.request.url)
            route.fulfill(status=503, body="", headers={"Retry-After": "5"})
        else:
            route.continue_()

    second.route(f"{asgi_url}{path}", fail_once)
    strike_the_other(encounter, gm)
    all_show([second], encounter)
    assert failed  # the region did fail once on the way
    second.context.close()


# Every "changed" event is lost on its way to the page: only the keep-alives get through.
DROP_CHANGED_EVENTS = """
const open = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, listener, options) {
  return type === "changed" ? undefined : open.call(this, type, listener, options);
};
"""


def test_a_page_that_missed_every_event_is_put_right_by_the_keep_alives(browser, asgi_url):
    """Events that never reach the page (a busy phone, a proxy that lost them): the
    keep-alive that follows the last change names it, and the page refreshes."""
    encounter, gm, player, pc = _fight()
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    context.add_init_script(DROP_CHANGED_EVENTS)
    name, _, value = session_cookie(player).partition("=")
    context.add_cookies([{"name": name, "value": value, "url": asgi_url}])
    table = context.new_page()
    table.set_default_timeout(ACTION_TIMEOUT_MS)
    with table.expect_response(lambda response: "/nouveautes/" in response.url):
        table.goto(f"{asgi_url}/rencontres/{encounter.pk}/table/")
    for _ in range(3):
        _strike(encounter, gm, pc)
    services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    expect(table.locator(".status-line")).to_contain_text("pause")
    expect(table.locator("[data-live]")).to_have_attribute(
        "hx-get", re.compile(rf"\?v={encounter.version}$")
    )
    context.close()
