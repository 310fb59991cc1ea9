"""The conditions' browser flow, the same in both systems (``test_conditions_*.py``): the GM
puts a condition in two taps, the odds of its bearer's roll name it, the end of its bearer's
next turn ends it, undo brings it back and redo ends it again; the player's phone follows."""

import re

from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, campaign_with_gm

PHONE = {"width": 360, "height": 740}
SIZES = {
    "phone": PHONE,
    "tablet": {"width": 820, "height": 1180},
    "laptop": {"width": 1280, "height": 800},
}


def fight(system: str, fighter, faces: tuple[int, int, int]):
    """A PC (a player's) acts first, then two NPCs: the second one will bear the condition."""
    campaign = campaign_with_gm(system)
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    people = [fighter(campaign, "Brandon", owner=player), fighter(campaign, "Ysolde")]
    people.append(fighter(campaign, "Guetteur"))
    encounter = Encounter.objects.create(campaign=campaign, name="Le gué")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    initiative = dict(zip((c.pk for c in combatants), faces, strict=True))
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=initiative)
    bearer = encounter.combatants.get(character__name="Ysolde")
    return encounter, gm, player, bearer


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png")


def play_a_condition(open_page, system: str, fighter, faces, odds: str) -> None:
    encounter, gm, player, bearer = fight(system, fighter, faces)
    console = open_page(SIZES["tablet"], f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    phone = open_page(PHONE, f"/rencontres/{encounter.pk}/table/")
    log_in(phone, player)
    expect(phone.locator(".combatants")).to_contain_text("Ysolde")

    row = console.locator(f"#combatant-{bearer.pk}")
    row.locator("details.gm-tools > summary").click()  # tap 1
    row.get_by_role("button", name="étourdi", exact=True).click()  # tap 2
    expect(row.locator(".condition")).to_contain_text("étourdi")
    expect(row.locator(".condition")).to_contain_text("jusqu'à la fin de son prochain tour")
    expect(phone.locator(".combatants")).to_contain_text("étourdi")  # pushed to the phone

    console.get_by_role("button", name="Tour suivant").click()  # Ysolde's turn: it weighs
    expect(console.locator("#status-line")).to_contain_text("Au tour de Ysolde")
    expect(console.locator(f"{odds} .odds-situation").first).to_have_text(re.compile("^étourdi −"))
    for name, size in SIZES.items():
        console.set_viewport_size(size)
        shoot(console, f"condition-{system}-{name}")
    shoot(phone, f"condition-{system}-player-phone")
    console.set_viewport_size(SIZES["tablet"])

    console.get_by_role("button", name="Tour suivant").click()  # the end of her turn ends it
    expect(console.locator("#status-line")).to_contain_text("Au tour de Guetteur")
    expect(console.locator("#log-lines")).to_contain_text("Ysolde : fin de « étourdi ».")
    expect(row.locator(".condition")).to_have_count(0)
    expect(phone.locator(".combatants")).not_to_contain_text("étourdi")

    console.get_by_role("button", name="Annuler").click()  # back across the expiry
    expect(row.locator(".condition")).to_contain_text("étourdi")
    expect(phone.locator(".combatants")).to_contain_text("étourdi")
    console.get_by_role("button", name="Rétablir").click()
    expect(row.locator(".condition")).to_have_count(0)
    expect(phone.locator(".combatants")).not_to_contain_text("étourdi")
    assert console.console_errors == [] and phone.console_errors == []
