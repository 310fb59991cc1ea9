"""A big fight's console in Chromium (issue #33, apps/encounters/folding.py): the far rows come
light from the server; on a laptop the GM asks for them whole with the link under the
order, and the tab keeps them whole through the steps and refreshes that follow; on a
tablet held upright the order's own toggle asks for them."""

import pytest
from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.folding import FOLD_FROM
from apps.encounters.models import Encounter
from tests.e2e.conftest import screenshot
from tests.e2e.test_console_taps import LAPTOP, UPRIGHT
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db(transaction=True)

FIGHTERS = FOLD_FROM + 6


def big_fight(open_page, viewport):
    """Brandon (PC) acts first, then his foes (their initiative tied: ties break as the
    rules say)."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    people = [ew_fighter(campaign, "Brandon", owner=add_player(campaign))]
    people += [ew_fighter(campaign, f"Sbire {n:02}") for n in range(1, FIGHTERS)]
    encounter = Encounter.objects.create(campaign=campaign, name="Le grand pont")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = {c.pk: 10 if n == 0 else 5 for n, c in enumerate(combatants)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    console = open_page(viewport, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.locator("#ew-attack-odds")).to_contain_text("Chance de toucher")
    return console, encounter


def test_on_a_laptop_the_gm_unfolds_the_light_rows_and_they_stay_whole(open_page):
    console, _ = big_fight(open_page, LAPTOP)
    rows = console.locator("#combatants > li.combatant")
    expect(rows).to_have_count(FIGHTERS)
    # Brandon, the next two and the target are whole; the others light, but named.
    expect(console.locator("#combatants > li.combatant:not(.light)")).to_have_count(3)
    light = console.locator("#combatants > li.combatant.light")
    expect(light).to_have_count(FIGHTERS - 3)
    expect(light.first.locator("meter")).to_have_count(0)
    expect(light.last).to_contain_text("Sbire")
    screenshot(console, "big-fight-laptop-light")
    console.get_by_role("link", name=f"Voir les {FIGHTERS - 3} combattants résumés").click()
    expect(light).to_have_count(0)
    expect(console.locator("#combatants meter")).to_have_count(FIGHTERS * 3)
    # The next turn's answer and the console's own refresh keep the order whole.
    second = rows.nth(1).locator(".combatant-name").inner_text()
    console.locator("#next-turn").click()
    expect(console.locator("#status-line")).to_contain_text(second)
    console.evaluate("document.body.dispatchEvent(new Event('encounter-changed'))")
    console.wait_for_timeout(500)
    expect(console.locator("#combatants > li.combatant")).to_have_count(FIGHTERS)
    expect(light).to_have_count(0)
    assert console.console_errors == []


def test_on_an_upright_tablet_the_orders_toggle_brings_them_whole(open_page):
    console, _ = big_fight(open_page, UPRIGHT)
    toggle = console.locator("#order-toggle")
    expect(toggle).to_be_visible()
    # The link is for laptops: the toggle does its work here.
    expect(console.locator("#order-whole")).to_be_hidden()
    expect(console.locator("#combatants > li.combatant:visible")).to_have_count(3)
    screenshot(console, "big-fight-upright-folded")
    toggle.click()
    expect(console.locator("#combatants > li.combatant.light")).to_have_count(0)
    expect(console.locator("#combatants > li.combatant:visible")).to_have_count(FIGHTERS)
    screenshot(console, "big-fight-upright-whole")
    assert console.console_errors == []
