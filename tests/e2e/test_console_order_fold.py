"""On a tablet or a phone held upright, the console's order keeps in view the fighters the
GM deals with now: the acting one, the attack form's target and the next two still standing;
a button under the list unfolds the others (issue 17). A laptop or a tablet held sideways
always shows the whole order."""

import pytest
from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.conftest import PHONE
from tests.e2e.test_console_taps import LAPTOP, UPRIGHT
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

SIDEWAYS = {"width": 1180, "height": 820}
NAMES = ["Brandon", "Sbire 1", "Sbire 2", "Sbire 3", "Sbire 4", "Sbire 5", "Sbire 6"]

pytestmark = pytest.mark.django_db(transaction=True)


def seven_fighters(open_page, viewport):
    """Brandon (PC) acts first, then six NPCs in the order of their names."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    people = [ew_fighter(campaign, NAMES[0], owner=add_player(campaign))]
    people += [ew_fighter(campaign, name) for name in NAMES[1:]]
    encounter = Encounter.objects.create(campaign=campaign, name="Les docks")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = {c.pk: 10 - n for n, c in enumerate(combatants)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    console = open_page(viewport, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.locator("#ew-attack-odds")).to_contain_text("Chance de toucher")
    return console, encounter


def row(console, encounter, name):
    combatant = encounter.combatants.get(character__name=name)
    return console.locator(f"#combatant-{combatant.pk}")


def shown(console, encounter) -> list[str]:
    return [name for name in NAMES if row(console, encounter, name).is_visible()]


@pytest.mark.parametrize("viewport", [UPRIGHT, PHONE], ids=["tablet", "phone"])
def test_upright_the_order_keeps_the_acting_fighter_the_target_and_the_next_two(
    open_page, viewport
):
    console, encounter = seven_fighters(open_page, viewport)
    toggle = console.locator("#order-toggle")
    # Brandon acts; his attack form aims at Sbire 1, who also comes next, with Sbire 2.
    expect(row(console, encounter, "Sbire 3")).to_be_hidden()
    assert shown(console, encounter) == ["Brandon", "Sbire 1", "Sbire 2"]
    expect(toggle).to_be_visible()
    expect(toggle).to_contain_text("+4")
    # Aiming at a folded fighter brings their row back into view.
    console.locator("#ew-attack select[name=target]").select_option(label="Sbire 5")
    expect(row(console, encounter, "Sbire 5")).to_be_visible()
    assert shown(console, encounter) == ["Brandon", "Sbire 1", "Sbire 2", "Sbire 5"]
    expect(toggle).to_contain_text("+3")
    # Unfolded, every row shows, and stays so after the page reloads.
    toggle.click()
    expect(row(console, encounter, "Sbire 6")).to_be_visible()
    assert shown(console, encounter) == NAMES
    expect(toggle).to_contain_text("Replier")
    console.reload()
    expect(row(console, encounter, "Sbire 6")).to_be_visible()
    toggle.click()
    expect(row(console, encounter, "Sbire 6")).to_be_hidden()
    # Next turn: the fold follows the new acting fighter (its answer redraws two rows only).
    console.locator(".console-controls button[data-key=n]").click()
    expect(console.locator("#status-line")).to_contain_text("Sbire 1")
    expect(row(console, encounter, "Sbire 3")).to_be_visible()
    expect(row(console, encounter, "Brandon")).to_be_visible()  # Sbire 1 aims at the PC
    assert shown(console, encounter) == ["Brandon", "Sbire 1", "Sbire 2", "Sbire 3"]
    assert console.console_errors == []


@pytest.mark.parametrize("viewport", [LAPTOP, SIDEWAYS], ids=["laptop", "sideways"])
def test_a_laptop_or_a_sideways_tablet_shows_the_whole_order(open_page, viewport):
    console, encounter = seven_fighters(open_page, viewport)
    assert shown(console, encounter) == NAMES
    expect(console.locator("#order-toggle")).to_be_hidden()
    assert console.console_errors == []
