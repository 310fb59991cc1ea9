"""A phone follows the table by push (apps/core/push.py): its table view and its sheet
update after the GM's step without the 2 s check, and catch up after the stream was cut. The
GM's console is not redrawn by the push of its own step."""

import time

import pytest
from playwright.sync_api import expect

from apps.core.push import hub
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.systems.ew.combat import AttackChoice, ew_attack
from tests.asgi_server import serve_asgi, session_cookie
from tests.e2e.conftest import ACTION_TIMEOUT_MS, DESKTOP, LIVE_SETUP_TIMEOUT_MS, PHONE, screenshot
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter, started_duel


@pytest.fixture
def asgi_url(transactional_db):
    with serve_asgi() as url:
        yield url


def _fight():
    # The sbire acts first (typed initiative faces): it strikes Lysandre.
    duel = started_duel("Lysandre", "Sbire", first="npc", name="Quais")
    return duel.encounter, duel.gm, duel.player, duel.pc


def _strike(encounter, gm, pc):
    encounter.refresh_from_db()
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.character_id == pc.pk)
    choice = AttackChoice(attacker_id=acting.pk, target_id=target.pk)
    ew_attack(
        encounter_id=encounter.pk,
        version=None,
        by=gm,
        choice=choice,
        to_hit_face=1,
        damage_face=9,
    )


def _is_check(url: str) -> bool:
    return "/nouveautes/" in url or "/changements/" in url


def _refreshing(request) -> bool:
    """A request a live page sends to catch up: its check, or (the table view, which skips
    the check on a pushed version) its region."""
    fetched = request.resource_type in ("xhr", "fetch")
    return _is_check(request.url) or (fetched and "/table/" in request.url)


def _phone(browser, url, user, path, checks):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    name, _, value = session_cookie(user).partition("=")
    context.add_cookies([{"name": name, "value": value, "url": url}])
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    page.on("request", lambda request: _refreshing(request) and checks.append(request))
    # The stream is open once the page's first check (sent when it opens) is answered: wait
    # for it, so that it is not counted later as a check the idle page sent. A set-up step,
    # given time: once in a whole suite on a busy machine it took more than 10 s.
    with page.expect_response(
        lambda response: _is_check(response.url), timeout=LIVE_SETUP_TIMEOUT_MS
    ):
        page.goto(url + path)
    return page


def test_the_phone_follows_the_gm_by_push_and_catches_up_after_a_cut(browser, asgi_url):
    encounter, gm, player, pc = _fight()
    table_checks, sheet_checks = [], []
    table = _phone(browser, asgi_url, player, f"/rencontres/{encounter.pk}/table/", table_checks)
    sheet = _phone(browser, asgi_url, player, f"/personnages/{pc.pk}/", sheet_checks)
    table_before = table.locator("#table-body").inner_text()
    sheet_before = sheet.locator("#sheet").inner_text()

    # Idle: with the stream open, the 2 s timer sends nothing.
    table_checks.clear()
    sheet_checks.clear()
    table.wait_for_timeout(2600)
    assert (table_checks, sheet_checks) == ([], [])

    _strike(encounter, gm, pc)
    expect(table.locator("#table-body")).not_to_have_text(table_before)
    expect(sheet.locator("#sheet")).not_to_have_text(sheet_before)
    screenshot(table, "push-table-phone")

    # A burst of changes (the GM tapping fast): the phone refreshes once or twice for the lot,
    # paced (static/js/live.js), each time with one request (its region, the check skipped),
    # and ends on the latest state — here, the fight paused.
    table_checks.clear()
    for _ in range(2):
        services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
        table.wait_for_timeout(150)
        services.encounter_resume(encounter_id=encounter.pk, version=None, by=gm)
        table.wait_for_timeout(150)
    services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
    expect(table.locator(".status-line")).to_contain_text("pause")
    table.wait_for_timeout(1200)
    assert 1 <= len(table_checks) <= 2, [request.url for request in table_checks]
    assert all("/table/" in request.url for request in table_checks)
    services.encounter_resume(encounter_id=encounter.pk, version=None, by=gm)
    expect(table.locator(".status-line")).not_to_contain_text("pause")

    # The stream is cut (the server's LISTEN connection lost, or a restart) and cannot come
    # back; nothing reaches the phone meanwhile, the badge says so.
    table.route("**/flux/", lambda route: route.abort())
    table.route("**/nouveautes/**", lambda route: route.abort())
    hub.loop.call_soon_threadsafe(hub.close_all)
    expect(table.locator(".live-lost")).to_be_visible()
    screenshot(table, "push-table-phone-lost")
    table_before = table.locator("#table-body").inner_text()
    services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
    table.wait_for_timeout(500)
    assert table.locator("#table-body").inner_text() == table_before

    # Back: the stream reopens by itself, the page checks at once and shows the pause.
    table.unroute("**/flux/")
    table.unroute("**/nouveautes/**")
    expect(table.locator("#table-body")).not_to_have_text(table_before, timeout=30_000)
    expect(table.locator(".live-lost")).to_be_hidden()
    table.context.close()
    sheet.context.close()


def test_the_dashboard_shows_a_fight_starting_by_push(browser, asgi_url):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre", owner=player)
    sbire = ew_fighter(campaign, "Sbire")
    encounter = Encounter.objects.create(campaign=campaign, name="Les Quais")
    services.combatants_add(encounter_id=encounter.pk, characters=[pc, sbire])
    checks = []
    home = _phone(browser, asgi_url, player, "/", checks)
    expect(home.locator("#home-body")).not_to_contain_text("Les Quais")

    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    expect(home.locator("#home-body")).to_contain_text("Les Quais")
    screenshot(home, "push-dashboard-phone")
    home.context.close()


def test_the_consoles_own_step_is_not_redrawn_by_its_own_push(browser, asgi_url):
    """The step commits before its answer is sent, so its push reaches the console first: the
    console must not fetch itself then (it rendered twice per step, and the answer, swapped
    into the page that was gone, lost its message and logged an htmx error). A change made by
    someone else while the answer is on its way is still caught up with."""
    encounter, gm, _player, _pc = _fight()
    console_loads, errors = [], []
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    name, _, value = session_cookie(gm).partition("=")
    context.add_cookies([{"name": name, "value": value, "url": asgi_url}])
    console = context.new_page()
    console.set_default_timeout(ACTION_TIMEOUT_MS)
    console.on("console", lambda message: message.type == "error" and errors.append(message.text))
    path = f"/rencontres/{encounter.pk}/"
    with console.expect_response(lambda response: _is_check(response.url)):
        console.goto(asgi_url + path)
    console.on(
        "request",
        lambda request: (
            request.method == "GET"
            and request.url.split("?")[0] == asgi_url + path
            and console_loads.append(request.url)
        ),
    )

    def answer_late(route, then=None):
        response = route.fetch()  # committed and pushed: the push is on its way
        time.sleep(0.4)
        if then:
            then()
        route.fulfill(response=response)

    console.route("**/suivant/", lambda route: answer_late(route))
    next_turn(console)
    expect(console.locator("#status-line")).to_contain_text("Lysandre")
    console.wait_for_timeout(800)
    assert console_loads == [] and errors == []

    # The GM's second tab pauses the fight while this one's next turn is answered.
    console.unroute("**/suivant/")
    console.route(
        "**/suivant/",
        lambda route: answer_late(
            route, lambda: services.encounter_pause(encounter_id=encounter.pk, version=None, by=gm)
        ),
    )
    next_turn(console)
    expect(console.locator("#status-line")).to_contain_text("pause")
    assert len(console_loads) == 1 and errors == []
    context.close()


def next_turn(console) -> None:
    """The GM passes the turn: "Tour suivant", and at a round rolled again, its new round
    opened with the app's dice (the button brings that form into view, issue 29)."""
    button = console.locator("#next-turn")
    opens_a_round = button.get_attribute("data-opens") is not None
    button.click()
    if opens_a_round:
        console.locator("#new-round-app").click()
