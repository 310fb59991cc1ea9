"""The console at a real table (issue 17), both systems, a laptop and an upright tablet: an
exchange in a few taps, its result in view, no choice lost under fast changes, a stale click
shown."""

import pytest
from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter

LAPTOP = {"width": 1280, "height": 800}
UPRIGHT = {"width": 820, "height": 1180}
SIZES = [pytest.param(LAPTOP, id="laptop"), pytest.param(UPRIGHT, id="upright")]
# Aethoria's attack form fits both screens once its rarely used fields are folded.
AETHORIA_SIZES = SIZES


class Taps:
    """Every interaction the GM makes, counted (a tap, a pick in a list, a key)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def pick(self, locator, **option) -> None:
        self.count += 1
        locator.select_option(**option)

    def check(self, locator) -> None:
        self.count += 1
        locator.check()


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, retried for a moment: right after
    its text arrives, htmx may still be settling the swap around it (a box measured then
    was seen off by a few hundred pixels, and in view an instant later)."""
    try:
        expect(page.locator(selector)).to_be_in_viewport(ratio=1, timeout=2000)
    except AssertionError:
        return False
    return True


def ew_fight(open_page, viewport):
    """Brandon (PC) acts first against two NPCs; the console open for the GM."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    people = [ew_fighter(campaign, "Brandon", owner=add_player(campaign))]
    people += [ew_fighter(campaign, "Ysolde"), ew_fighter(campaign, "Guetteur", phy=6)]
    encounter = Encounter.objects.create(campaign=campaign, name="Le gué")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = dict(zip((c.pk for c in combatants), (10, 5, 1), strict=True))
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    console = open_page(viewport, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.locator("#ew-attack-odds")).to_contain_text("Chance de toucher")
    return console, encounter


def screenshot(page, name: str) -> None:
    """What the GM sees without scrolling (not the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png")


def logged_kinds(encounter) -> list[str]:
    return list(encounter.events.order_by("sequence").values_list("kind", flat=True))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_ew_exchange_with_the_defaults_takes_two_taps_its_result_in_view(open_page, viewport):
    console, encounter = ew_fight(open_page, viewport)
    screenshot(console, f"ew-console-before-{viewport['width']}")
    # Before the roll: its odds and its button in view, the defaults already set.
    assert in_view(console, "#ew-attack-odds") and in_view(console, "#ew-attack-roll")
    attack = console.locator("#ew-attack")
    expect(attack.get_by_label("Cible")).to_have_value(
        str(encounter.combatants.get(character__name="Ysolde").pk)
    )
    expect(attack.locator("input[name=defence][value=active]")).to_be_checked()
    taps = Taps(console)
    taps.click(console.locator("#ew-attack-roll"))
    expect(console.locator("#ew-attack-result")).to_be_visible()
    assert in_view(console, "#ew-attack-result")
    expect(console.locator("#ew-attack-result")).to_contain_text("Brandon attaque Ysolde")
    screenshot(console, f"ew-console-result-{viewport['width']}")
    taps.click(console.locator("#next-turn"))
    expect(console.locator(".log-line.kind-next_turn")).to_have_count(1)
    assert taps.count == 2
    assert logged_kinds(encounter)[-2:] == ["ew_attack", "next_turn"]
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_ew_changed_target_and_defence_in_four_taps_nothing_lost_50_ms_apart(open_page, viewport):
    console, encounter = ew_fight(open_page, viewport)
    guetteur = encounter.combatants.get(character__name="Guetteur")
    attack = console.locator("#ew-attack")
    taps = Taps(console)
    # The target, then 50 ms later the defender's choice, before the first answer is drawn.
    taps.pick(attack.get_by_label("Cible"), value=str(guetteur.pk))
    console.wait_for_timeout(50)
    taps.check(attack.locator("input[name=defence][value=none]"))
    console.wait_for_load_state("networkidle")
    expect(attack.get_by_label("Cible")).to_have_value(str(guetteur.pk))
    expect(attack.locator("input[name=defence][value=none]")).to_be_checked()
    expect(console.locator("#ew-attack-odds")).not_to_contain_text("ND 8")
    taps.click(console.locator("#ew-attack-roll"))
    expect(console.locator("#ew-attack-result")).to_contain_text("Guetteur")
    assert in_view(console, "#ew-attack-result")
    taps.click(console.locator("#next-turn"))
    expect(console.locator(".log-line.kind-next_turn")).to_have_count(1)
    assert taps.count == 4
    blow = encounter.events.get(kind="ew_attack")
    assert blow.target_id == guetteur.pk and blow.data["defence"] == "none"
    # Brandon's next attack (next round) opens on the same choices: a repeat is one tap.
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_ew_stale_click_says_someone_acted_first(open_page, viewport):
    console, encounter = ew_fight(open_page, viewport)
    # This console has not heard of the other's step yet (its 2 s check would otherwise
    # catch up before the click, now and then): it stops checking.
    console.evaluate("document.querySelectorAll('[data-live]').forEach((e) => e.remove())")
    other = console.context.new_page()
    other.goto(console.url)
    other.locator("#next-turn").click()
    expect(other.locator(".log-line.kind-next_turn")).to_have_count(1)
    console.locator("#ew-attack-roll").click()
    refusal = console.locator("#refusal")
    expect(refusal).to_contain_text("Quelqu'un a agi avant vous")
    assert in_view(console, "#refusal")
    assert logged_kinds(encounter)[-1] == "next_turn"
    screenshot(console, f"ew-console-409-{viewport['width']}")


def aethoria_fight(open_page, viewport):
    """Ysolde (PC) acts first against two NPCs; the console open for the GM."""
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    people = [aethoria_fighter(campaign, "Ysolde", owner=add_player(campaign))]
    people += [aethoria_fighter(campaign, "Brandon"), aethoria_fighter(campaign, "Gaspard")]
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = dict(zip((c.pk for c in combatants), (18, 9, 3), strict=True))
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    console = open_page(viewport, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.locator("#aethoria-attack-odds")).to_contain_text("Chance de toucher")
    return console, encounter


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", AETHORIA_SIZES)
def test_aethoria_exchange_with_the_defaults_takes_two_taps(open_page, viewport):
    console, encounter = aethoria_fight(open_page, viewport)
    screenshot(console, f"aethoria-console-before-{viewport['width']}")
    # Before the roll: its odds and its button in view, the rare options folded.
    assert in_view(console, "#aethoria-attack-odds") and in_view(console, "#aethoria-attack-roll")
    if viewport == LAPTOP:  # an upright tablet has no room for them on one row
        controls = console.locator("#console-controls").bounding_box()
        assert controls["height"] < 70, "the console's controls wrapped onto a second row"
    attack = console.locator("#aethoria-attack")
    expect(attack.locator("details.more-options")).not_to_have_attribute("open", "")
    expect(attack.get_by_label("Défense", exact=True)).not_to_have_value("none")
    taps = Taps(console)
    taps.click(console.locator("#aethoria-attack-roll"))
    expect(console.locator("#aethoria-roll-result")).to_contain_text("Ysolde attaque Brandon")
    assert in_view(console, "#aethoria-roll-result")
    screenshot(console, f"aethoria-console-result-{viewport['width']}")
    taps.click(console.locator("#next-turn"))
    expect(console.locator(".log-line.kind-next_turn")).to_have_count(1)
    assert taps.count == 2
    assert logged_kinds(encounter)[-2:] == ["aethoria_attack", "next_turn"]
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", AETHORIA_SIZES)
def test_aethoria_changed_target_and_defence_in_four_taps_50_ms_apart(open_page, viewport):
    console, encounter = aethoria_fight(open_page, viewport)
    gaspard = encounter.combatants.get(character__name="Gaspard")
    attack = console.locator("#aethoria-attack")
    taps = Taps(console)
    taps.pick(attack.get_by_label("Cible", exact=True), value=str(gaspard.pk))
    console.wait_for_timeout(50)
    taps.pick(attack.get_by_label("Défense", exact=True), value="none")
    console.wait_for_load_state("networkidle")
    expect(attack.get_by_label("Cible", exact=True)).to_have_value(str(gaspard.pk))
    expect(attack.get_by_label("Défense", exact=True)).to_have_value("none")
    expect(console.locator("#aethoria-attack-odds")).to_contain_text("sans défense")
    taps.click(console.locator("#aethoria-attack-roll"))
    expect(console.locator("#aethoria-roll-result")).to_contain_text("Gaspard")
    assert in_view(console, "#aethoria-roll-result")
    taps.click(console.locator("#next-turn"))
    expect(console.locator(".log-line.kind-next_turn")).to_have_count(1)
    assert taps.count == 4
    blow = encounter.events.get(kind="aethoria_attack")
    assert blow.target_id == gaspard.pk


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", AETHORIA_SIZES)
def test_aethoria_stale_click_says_someone_acted_first(open_page, viewport):
    console, encounter = aethoria_fight(open_page, viewport)
    console.evaluate("document.querySelectorAll('[data-live]').forEach((e) => e.remove())")
    other = console.context.new_page()
    other.goto(console.url)
    other.locator("#next-turn").click()
    expect(other.locator(".log-line.kind-next_turn")).to_have_count(1)
    console.locator("#aethoria-attack-roll").click()
    expect(console.locator("#refusal")).to_contain_text("Quelqu'un a agi avant vous")
    assert logged_kinds(encounter)[-1] == "next_turn"
