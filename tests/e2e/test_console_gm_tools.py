"""The GM's tools from the console (issue 17): reinforcements brought in and a pool corrected
at 1280×800, each refused first with a bad value next to its field; the folded tools
photographed at both sizes."""

import pytest
from playwright.sync_api import expect

from apps.characters.models import EwSheet
from apps.encounters.models import Encounter
from tests.e2e.test_console_taps import LAPTOP, SIZES, ew_fight, screenshot
from tests.encounters.factories import ew_fighter


@pytest.mark.django_db(transaction=True)
def test_gm_brings_in_reinforcements_and_corrects_a_pool(open_page):
    console, encounter = ew_fight(open_page, LAPTOP)
    ew_fighter(encounter.campaign, "Renfort")
    console.reload()
    tools = console.locator("#reinforcements")
    tools.locator("summary").click()
    tools.get_by_label("ou des copies du PNJ").select_option(label="Guetteur")
    tools.get_by_label("Combien de copies").fill("21")
    tools.locator("#reinforce").click()
    expect(console.locator("#id_count_error")).to_contain_text("Entre 1 et 20")
    tools = console.locator("#reinforcements")
    expect(tools.get_by_label("ou des copies du PNJ")).to_have_value(
        str(encounter.campaign.characters.get(name="Guetteur").pk)
    )  # the GM's other choice kept
    tools.get_by_label("Combien de copies").fill("2")
    tools.locator("#reinforce").click()
    expect(console.locator(".combatants > li")).to_have_count(5)
    expect(console.locator("#log-lines")).to_contain_text("Renforts")

    ysolde = encounter.combatants.get(character__name="Ysolde")
    row = console.locator(f"#combatant-{ysolde.pk}")
    row.locator(".gm-tools summary").click()
    row.get_by_label("Réserve").select_option("superficial_left")
    row.get_by_label("Nouvelle valeur").fill("99")
    row.get_by_label("Raison").fill("potion oubliée")
    row.get_by_role("button", name="Corriger").click()
    row = console.locator(f"#combatant-{ysolde.pk}")
    expect(row.locator(".field-error")).to_contain_text("De 0 à 24")
    expect(row.get_by_label("Raison")).to_have_value("potion oubliée")
    row.get_by_label("Nouvelle valeur").fill("12")
    row.get_by_role("button", name="Corriger").click()
    expect(console.locator("#log-lines")).to_contain_text("potion oubliée")
    assert EwSheet.objects.get(character=ysolde.character).superficial_left == 12
    expect(console.locator(f"#combatant-{ysolde.pk}")).to_contain_text("12")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_the_gm_tools_stay_folded_until_opened(open_page, viewport):
    console, encounter = ew_fight(open_page, viewport)
    # Folded: the order list stays short, the attack's odds and button still in view.
    expect(console.locator(".gm-tools[open]")).to_have_count(0)
    screenshot(console, f"console-gm-tools-folded-{viewport['width']}")
    first = Encounter.objects.get(pk=encounter.pk).combatants.order_by("position")[1]
    console.locator(f"#combatant-{first.pk} .gm-tools summary").click()
    console.locator("#reinforcements summary").click()
    screenshot(console, f"console-gm-tools-open-{viewport['width']}")
