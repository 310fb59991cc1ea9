"""What the GM reaches without hunting for it (issue 29), on an upright tablet (820 × 1180)
and a laptop (1280 × 800): the default target is a foe still standing, and a new one gets
its own defence; an impossible choice says why next to the roll; the roll button and the
result stay in view whatever is unfolded; a new round rolled with physical dice is asked for
in view, then the acting fighter comes back into view."""

import re

import pytest
from playwright.sync_api import expect

from apps.characters.models import AethoriaSkillRank, EwSheet
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.test_console_taps import LAPTOP, UPRIGHT, aethoria_fight, ew_fight, in_view
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

SIZES = [pytest.param(UPRIGHT, id="tablet"), pytest.param(LAPTOP, id="laptop")]
CLEAR_OF_HEADER = """(selector) => document.querySelector(selector).getBoundingClientRect().top
  >= document.querySelector(".site-header").getBoundingClientRect().bottom - 1"""


def in_sight(page, selector: str) -> bool:
    """Wholly on screen, and not under the sticky header — retried for a moment, as
    ``in_view`` is: the page may still be bringing it there."""
    for _attempt in range(10):
        if in_view(page, selector) and page.evaluate(CLEAR_OF_HEADER, selector):
            return True
        page.wait_for_timeout(200)
    return False


pytestmark = pytest.mark.django_db(transaction=True)


def npcs_against_a_knocked_out_pc(open_page, viewport):
    """Three NPCs act first; Lysandre (a PC) is unconscious, Marco still stands."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    people = [ew_fighter(campaign, f"Sbire {n}") for n in (1, 2, 3)]
    people += [ew_fighter(campaign, "Lysandre", owner=player)]
    people += [ew_fighter(campaign, "Marco", owner=player)]
    encounter = Encounter.objects.create(campaign=campaign, name="La ruelle")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = dict(zip((c.pk for c in combatants), (10, 9, 8, 2, 1), strict=True))
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    EwSheet.objects.filter(character__name="Lysandre").update(superficial_left=0)
    console = open_page(viewport, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.locator("#ew-attack-odds")).to_contain_text("Chance de toucher")
    return console, encounter


@pytest.mark.parametrize("viewport", SIZES)
def test_npcs_open_on_the_pc_still_standing_and_a_new_target_defends(open_page, viewport):
    console, encounter = npcs_against_a_knocked_out_pc(open_page, viewport)
    marco = encounter.combatants.get(character__name="Marco")
    lysandre = encounter.combatants.get(character__name="Lysandre")
    attack = console.locator("#ew-attack")
    expect(attack.get_by_label("Cible")).to_have_value(str(marco.pk))
    expect(attack.locator("input[name=defence][value=active]")).to_be_checked()
    # Aimed at the unconscious one, the defence is forced ("ne se défend pas")...
    attack.get_by_label("Cible").select_option(str(lysandre.pk))
    expect(attack.locator("input[name=defence][value=active]")).to_be_disabled()
    expect(attack.locator("input[name=defence][value=none]")).to_be_checked()
    # ...and back on Marco, he defends again: the odds are against his active defence.
    attack.get_by_label("Cible").select_option(str(marco.pk))
    expect(attack.locator("input[name=defence][value=active]")).to_be_checked()
    expect(console.locator("#ew-attack-odds")).not_to_contain_text("défense naturelle")
    console.keyboard.press("a")
    console.keyboard.press("Enter")
    expect(console.locator("#ew-attack-result")).to_contain_text("Sbire 1 attaque Marco")
    blow = encounter.events.get(kind="ew_attack")
    assert blow.target_id == marco.pk and blow.data["defence"] == "active"
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.parametrize("viewport", SIZES)
def test_an_impossible_parry_says_why_beside_the_roll(open_page, viewport):
    console, encounter = aethoria_fight(open_page, viewport)
    brandon = encounter.combatants.get(character__name="Brandon").character
    AethoriaSkillRank.objects.filter(sheet=brandon.aethoria, skill__kind="parry").delete()
    attack = console.locator("#aethoria-attack")
    attack.get_by_label("Défense", exact=True).select_option("parry")
    odds = console.locator("#aethoria-attack-odds")
    expect(odds).to_contain_text("Rang 0")
    expect(odds).to_contain_text("sans l'accord du MJ")
    assert in_sight(console, "#aethoria-attack-odds")
    # The GM's accord, under "Plus d'options", brings the odds back.
    attack.locator("details.more-options summary").click()
    attack.get_by_label("Le MJ autorise les jets à rang 0 (1 dé)").check()
    expect(odds).to_contain_text("Chance de toucher")
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.parametrize("viewport", SIZES)
def test_with_every_option_open_the_roll_and_its_result_stay_in_view(open_page, viewport):
    console, _encounter = aethoria_fight(open_page, viewport)
    attack = console.locator("#aethoria-attack")
    attack.locator("details.more-options summary").click()
    attack.locator("details.physical-dice summary").click()
    expect(attack.get_by_label("Dés de fatigue (physique, avant le jet)")).to_be_visible()
    # Whatever is unfolded, the odds and the button are on screen without scrolling.
    assert in_sight(console, "#aethoria-attack-roll")
    assert in_sight(console, "#aethoria-attack-odds")
    # The GM scrolls down to a folded field, sets it, and rolls from there.
    fatigue = attack.get_by_label("Dés de fatigue sur les dégâts (si touché)")
    fatigue.scroll_into_view_if_needed()
    fatigue.select_option("1")
    assert in_sight(console, "#aethoria-attack-roll")
    console.locator("#aethoria-attack-roll").click()
    expect(console.locator("#aethoria-roll-result")).to_contain_text("Ysolde attaque Brandon")
    assert in_sight(console, "#aethoria-roll-result")
    assert console.console_errors == [], console.console_errors[:3]


def last_fighter_acts(open_page, viewport):
    """An EW fight in its first round, at the turn of the last fighter: "Tour suivant" opens
    round 2, whose initiative is rolled again."""
    console, encounter = ew_fight(open_page, viewport)
    for _ in range(2):
        console.locator("#next-turn").click()
        expect(console.locator(".log-line.kind-next_turn")).to_have_count(_ + 1)
    expect(console.locator("#status-line")).to_contain_text("Guetteur")
    return console, encounter


@pytest.mark.parametrize("viewport", [pytest.param(UPRIGHT, id="tablet")])
def test_a_new_round_is_asked_for_in_view_then_the_acting_fighter_shows(open_page, viewport):
    console, encounter = last_fighter_acts(open_page, viewport)
    console.mouse.wheel(0, 2000)  # the GM had scrolled down the page, to the log
    console.locator("#next-turn").click()
    # No app dice rolled without asking: the new round's form comes into view.
    assert Encounter.objects.get(pk=encounter.pk).round == 1
    expect(console.locator("#new-round-app")).to_be_focused()
    assert in_sight(console, "#new-round")
    form = console.locator("#new-round")
    form.locator("details.physical-dice summary").click()
    faces = form.locator("input[name^=face_]")
    for index in range(faces.count()):
        faces.nth(index).fill(str(index + 1))
    assert in_sight(console, "#new-round")
    # The GM had scrolled on, the button at the foot of the screen, the actions far above.
    opener = form.get_by_role("button", name=re.compile("avec ces dés"))
    opener.evaluate("(button) => button.scrollIntoView({ block: 'end' })")
    assert not in_sight(console, "#actions-title")
    opener.click()
    expect(console.locator("#status-line")).to_contain_text("Round 2")
    expect(console.locator("#actions-title")).to_contain_text("agit")
    assert in_sight(console, "#actions-title")
    opened = encounter.events.filter(kind="next_turn").order_by("-sequence").first()
    assert opened.dice == "physical" and opened.data["new_round"] == 2
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.parametrize("viewport", [pytest.param(UPRIGHT, id="tablet")])
def test_the_n_key_at_the_round_end_asks_too_and_enter_rolls_the_apps_dice(open_page, viewport):
    console, encounter = last_fighter_acts(open_page, viewport)
    console.mouse.wheel(0, 3000)  # down to the log
    console.keyboard.press("n")
    expect(console.locator("#new-round-app")).to_be_focused()
    assert in_sight(console, "#new-round")
    assert Encounter.objects.get(pk=encounter.pk).round == 1
    console.keyboard.press("Enter")
    expect(console.locator("#status-line")).to_contain_text("Round 2")
    assert in_sight(console, "#actions-title")
    opened = encounter.events.filter(kind="next_turn").order_by("-sequence").first()
    assert opened.dice == "app"


@pytest.mark.parametrize("viewport", [pytest.param(LAPTOP, id="laptop")])
def test_a_then_enter_shows_the_ew_result_whole(open_page, viewport):
    console, _encounter = ew_fight(open_page, viewport)
    # Physical dice: their faces make the form taller, its result box lands lower.
    attack = console.locator("#ew-attack")
    attack.locator("details.physical-dice summary").click()
    attack.get_by_label("d20 pour toucher").fill("3")
    attack.get_by_label("d10 des dégâts (si touché)").fill("5")
    console.locator("body").click(position={"x": 5, "y": 300})  # out of the fields
    console.keyboard.press("a")
    expect(console.locator("#ew-attack-roll")).to_be_focused()
    console.keyboard.press("Enter")
    expect(console.locator("#ew-attack-result")).to_contain_text("Brandon attaque Ysolde")
    assert in_sight(console, "#ew-attack-result")
    assert in_sight(console, "#ew-attack-roll")
    assert console.console_errors == [], console.console_errors[:3]
