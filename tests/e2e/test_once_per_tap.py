"""Every tap counts once, every failure is shown (issue 27, points 1 and 2): a double tap on a
step's button — "Tour suivant", "Lancer l'attaque", "Annuler", a sheet's spend — sends one
request and makes one step; an error answer, a cut network or an answer that never comes is
said beside the button, with "Réessayer", and the button comes back.

A second tap is looked for in what the browser sends (every POST counted) and in what the
database holds; the page is given time past the double-tap window for a queued replay to
leave, which it must not."""

import pytest
from playwright.sync_api import expect

from apps.characters.models import EwSheet
from apps.encounters.models import Encounter
from tests.e2e.conftest import screenshot
from tests.e2e.test_console_taps import LAPTOP, ew_fight, logged_kinds
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db(transaction=True)

# Past the double-tap window of static/js/requests.js (800 ms): a replay htmx had queued
# would have left by then.
AFTER_THE_WINDOW_MS = 1500


def posts_to(page, path_end: str) -> list:
    """Every POST the page sends to a URL ending so, from now on."""
    sent = []
    page.on(
        "request",
        lambda request: (
            request.method == "POST" and request.url.endswith(path_end) and sent.append(request)
        ),
    )
    return sent


def double_tap(page, selector: str, gap_ms: int) -> None:
    """Two taps on the same spot, ``gap_ms`` apart (0: a double click)."""
    target = page.locator(selector)
    if gap_ms == 0:
        target.dblclick()
        return
    box = target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)
    page.mouse.click(x, y)


def settled(page, encounter, kinds_before: int) -> list[str]:
    """The fight's steps once the page's answer is in and the window has passed."""
    expect(page.locator("#log-lines > li")).to_have_count(kinds_before + 1)
    page.wait_for_timeout(AFTER_THE_WINDOW_MS)
    return logged_kinds(encounter)


@pytest.mark.parametrize("gap_ms", [0, 150, 400], ids=["double-click", "150ms", "400ms"])
def test_a_double_tap_on_next_turn_passes_one_turn(open_page, gap_ms):
    console, encounter = ew_fight(open_page, LAPTOP)
    sent = posts_to(console, "/suivant/")
    before = logged_kinds(encounter)
    double_tap(console, "#next-turn", gap_ms)
    assert settled(console, encounter, len(before)) == [*before, "next_turn"]
    assert len(sent) == 1
    encounter.refresh_from_db()
    assert encounter.turn == 1  # Ysolde, the second fighter: nobody skipped
    expect(console.locator("#status-line")).to_contain_text("Ysolde")


def test_the_n_key_pressed_twice_at_once_passes_one_turn(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    before = logged_kinds(encounter)
    console.keyboard.press("n")
    console.keyboard.press("n")
    assert settled(console, encounter, len(before)) == [*before, "next_turn"]


def test_a_double_click_on_the_attack_strikes_once(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    sent = posts_to(console, "/ew/attaque/")
    before = logged_kinds(encounter)
    double_tap(console, "#ew-attack-roll", 0)
    assert settled(console, encounter, len(before)) == [*before, "ew_attack"]
    assert len(sent) == 1


def test_a_double_tap_on_undo_undoes_one_step(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    console.locator("#next-turn").click()
    expect(console.locator("#status-line")).to_contain_text("Ysolde")
    console.wait_for_timeout(AFTER_THE_WINDOW_MS)
    console.locator("#next-turn").click()
    expect(console.locator("#status-line")).to_contain_text("Guetteur")
    console.wait_for_timeout(AFTER_THE_WINDOW_MS)
    sent = posts_to(console, "/annuler/")
    double_tap(console, "#undo", 150)
    expect(console.locator("#status-line")).to_contain_text("Ysolde")
    console.wait_for_timeout(AFTER_THE_WINDOW_MS)
    assert len(sent) == 1
    encounter.refresh_from_db()
    assert encounter.turn == 1  # one undo: back to Ysolde, not to Brandon
    assert list(encounter.events.filter(undone=True).values_list("kind", flat=True)) == [
        "next_turn"
    ]


@pytest.mark.parametrize("gap_ms", [0, 150])
def test_a_double_tap_on_a_sheet_spend_spends_one_point(open_page, gap_ms):
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre", owner=player)
    EwSheet.objects.filter(pk=pc.pk).update(eclat=3)
    page = open_page(LAPTOP, f"/personnages/{pc.pk}/")
    log_in(page, player)
    page.get_by_label("Pour quoi ?").fill("la porte cède")
    page.get_by_role("button", name="Dépenser 1 point d'éclat…").click()
    expect(page.locator("#eclat-confirm-text")).to_contain_text("Il vous en restera 2")
    sent = posts_to(page, f"/personnages/{pc.pk}/eclat/")
    double_tap(page, ".confirm-spend button[type=submit]", gap_ms)
    expect(page.locator(".own-undo")).to_contain_text("la porte cède")
    page.wait_for_timeout(AFTER_THE_WINDOW_MS)
    assert len(sent) == 1
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2


# --- Failures said beside the button ------------------------------------------------------------


def failure(page):
    box = page.locator(".request-failure")
    expect(box).to_be_visible()
    return box


def test_a_server_error_is_said_beside_the_button_which_comes_back(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    console.route("**/suivant/", lambda route: route.fulfill(status=500, body="Erreur"))
    console.locator("#next-turn").click()
    box = failure(console)
    expect(box).to_contain_text("Le serveur a rencontré une erreur.")
    expect(box).to_contain_text("peut-être été appliquée")
    expect(console.locator("#next-turn")).to_be_enabled()
    # The box sits right under the button that was pressed.
    assert console.evaluate(
        "() => document.getElementById('next-turn').nextElementSibling.className"
    ) == ("request-failure")
    screenshot(console, "failure-500-laptop")

    # Réessayer, the server back: the step is made, once, and the message goes.
    console.unroute("**/suivant/")
    box.get_by_role("button", name="Réessayer").click()
    expect(console.locator("#status-line")).to_contain_text("Ysolde")
    expect(console.locator(".request-failure")).to_have_count(0)
    assert logged_kinds(encounter)[-1] == "next_turn"


def test_a_cut_network_is_said_and_nothing_was_sent(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    encounter.refresh_from_db()
    version = encounter.version
    console.context.set_offline(True)
    console.locator("#next-turn").click()
    box = failure(console)
    expect(box).to_contain_text("Pas de réseau : la demande n'est pas partie.")
    expect(box).to_contain_text("Rien n'a été appliqué.")
    expect(console.locator("#next-turn")).to_be_enabled()
    console.context.set_offline(False)
    assert Encounter.objects.get(pk=encounter.pk).version == version


def test_a_connection_cut_on_the_way_is_said(open_page):
    console, _encounter = ew_fight(open_page, LAPTOP)
    console.route("**/suivant/", lambda route: route.abort("connectionreset"))
    console.locator("#next-turn").click()
    box = failure(console)
    expect(box).to_contain_text("La connexion au serveur a été coupée.")
    expect(box).to_contain_text("peut-être été appliquée")
    expect(console.locator("#next-turn")).to_be_enabled()


def test_an_answer_that_never_comes_is_said_after_the_time_out(open_page):
    console, _encounter = ew_fight(open_page, LAPTOP)
    # The same path as 8 s without an answer, sooner: the page's time-out shortened.
    console.evaluate("() => { htmx.config.timeout = 500; }")
    held = []
    console.route("**/suivant/", lambda route: held.append(route))
    console.locator("#next-turn").click()
    box = failure(console)
    expect(box).to_contain_text("Pas de réponse du serveur")
    expect(console.locator("#next-turn")).to_be_enabled()
    for route in held:
        route.abort()


def test_a_database_that_does_not_answer_is_said_with_nothing_applied(open_page):
    console, _encounter = ew_fight(open_page, LAPTOP)
    console.route(
        "**/suivant/",
        lambda route: route.fulfill(
            status=503, body="", headers={"Retry-After": "5", "Tablee-Nothing-Applied": "1"}
        ),
    )
    console.locator("#next-turn").click()
    box = failure(console)
    expect(box).to_contain_text("ne joint pas sa base de données")
    expect(box).to_contain_text("Rien n'a été appliqué.")
