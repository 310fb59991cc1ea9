"""A short EW fight in the console at tablet size, with the players' table view beside it."""

import pytest
from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.accounts.factories import PASSWORD
from tests.e2e.conftest import PHONE, TABLET, act_and_compare_with_reload, screenshot
from tests.e2e.test_login import log_in as log_in_as
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter


def log_in(page, user) -> None:
    """A factory user logs in (their scripts loaded before the test presses a key)."""
    log_in_as(page, user.username, PASSWORD)


@pytest.mark.django_db(transaction=True)
def test_gm_runs_a_short_ew_fight_and_the_table_follows(open_page):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    ew_fighter(campaign, "Brandon", owner=player)
    ew_fighter(campaign, "Ysolde", phy=6, men=7, per=6, pre=9, armour=1)
    ew_fighter(campaign, "Guetteur", phy=5, men=6, per=9, pre=8)
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade au gué")
    path = f"/rencontres/{encounter.pk}/"

    console = open_page(TABLET, path)
    log_in(console, gm)
    expect(console.get_by_role("heading", name="Embuscade au gué")).to_be_visible()
    console.get_by_label("Brandon").check()
    console.get_by_label("Ysolde").check()
    console.get_by_role("button", name="Ajouter").click()
    expect(console.locator(".combatant")).to_have_count(2)
    # The lurker joins hidden from the players.
    console.get_by_label("Guetteur").check()
    console.get_by_label("Cachés aux joueurs").check()
    console.get_by_role("button", name="Ajouter").click()
    expect(console.locator(".combatant")).to_have_count(3)
    screenshot(console, "ew-console-prepare-tablet")

    console.get_by_role("button", name="Lancer l'initiative et commencer").click()
    expect(console.locator(".badge")).to_have_text("en cours")
    expect(console.locator(".combatant.acting")).to_have_count(1)

    table = open_page(PHONE, f"{path}table/")
    log_in(table, player)
    expect(table.get_by_text("Round 1", exact=True)).to_be_visible()
    assert "Guetteur" not in table.content()
    screenshot(table, "ew-table-phone")

    # Whoever acts first attacks someone else, with the app's dice.
    expect(console.get_by_text("Chance de toucher")).to_be_visible()
    screenshot(console, "ew-console-running-tablet")
    console.get_by_role("button", name="Lancer l'attaque").click()
    expect(console.locator(".log-line.kind-ew_attack")).to_have_count(1)
    console.keyboard.press("n")
    expect(console.locator(".log-line.kind-next_turn")).to_have_count(1)
    screenshot(console, "ew-console-after-attack-tablet")

    # The player's screen follows by itself.
    expect(table.locator(".combatant.acting")).to_have_count(1)
    console.keyboard.press("u")
    expect(console.locator(".log-line.kind-undo")).to_have_count(1)
    assert console.console_errors == [], console.console_errors[:3]
    assert table.console_errors == []
    assert console.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    assert table.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def running_fight(open_page, pc: str, *npcs: str):
    """A started EW fight of one PC and these NPCs, its console open at tablet size for
    the GM: (the page, its path)."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    fighters = [ew_fighter(campaign, pc, owner=add_player(campaign))]
    fighters += [ew_fighter(campaign, name) for name in npcs]
    encounter = Encounter.objects.create(campaign=campaign, name="Le gué")
    services.combatants_add(encounter_id=encounter.pk, characters=fighters)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    path = f"/rencontres/{encounter.pk}/"
    console = open_page(TABLET, path)
    log_in(console, gm)
    return console, path


@pytest.mark.django_db(transaction=True)
def test_the_console_after_each_step_reads_as_a_reload_does(open_page, live_server):
    """Attacks, turns, undo and redo answer with fragments: after each, the console must read
    exactly as a fresh load of it (rows, status, announced turn, undo/redo, log, offers)."""
    console, path = running_fight(open_page, "Brandon", "Ysolde", "Guetteur")
    reloaded = console.context.new_page()

    def step(action) -> None:
        act_and_compare_with_reload(console, reloaded, live_server.url + path, action)

    attack = console.get_by_role("button", name="Lancer l'attaque")
    step(attack.click)
    step(lambda: console.keyboard.press("n"))
    step(attack.click)
    step(lambda: console.keyboard.press("u"))
    step(lambda: console.keyboard.press("u"))
    step(console.get_by_role("button", name="Rétablir").click)
    step(lambda: console.keyboard.press("n"))
    screenshot(console, "ew-console-after-steps-tablet")
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.django_db(transaction=True)
def test_tests_on_the_table_follow_one_another_in_an_open_panel(open_page, live_server):
    """Every player rolls the same test: after each roll the panel stays open with its
    choices; only the typed face is emptied, and the console reads as a reload does."""
    console, path = running_fight(open_page, "Brandon", "Ysolde")
    console.get_by_text("Test sur la table").click()
    test = console.locator("#ew-test")
    test.get_by_label("NA", exact=True).select_option("per")
    test.get_by_label("ND (difficulté)").fill("9")
    test.get_by_label("Qui").select_option(label="Brandon")
    test.get_by_label("d20", exact=True).fill("4")
    reloaded = console.context.new_page()
    roll = test.get_by_role("button", name="Lancer le test").click
    act_and_compare_with_reload(console, reloaded, live_server.url + path, roll)
    expect(console.locator(".log-lines")).to_contain_text("Brandon")
    # Ysolde next, the same test: only "Qui" changes.
    expect(test.get_by_label("d20", exact=True)).to_have_value("")
    expect(test.get_by_label("ND (difficulté)")).to_have_value("9")
    test.get_by_label("Qui").select_option(label="Ysolde")
    test.get_by_role("button", name="Lancer le test").click()
    expect(console.locator(".log-line.kind-ew_test")).to_have_count(2)
    screenshot(console, "ew-console-tests-tablet")
    assert console.console_errors == [], console.console_errors[:3]


@pytest.mark.django_db(transaction=True)
def test_what_the_gm_was_typing_survives_a_player_spending_from_their_sheet(open_page):
    """A player spends a point d'éclat on their phone mid-fight: the console reloads to show
    it, and keeps the modifier and the die face the GM had entered, odds drawn for them."""
    from apps.characters.models import Character
    from apps.systems.ew.sheet_spend import eclat_spend

    console, _path = running_fight(open_page, "Brandon", "Ysolde")
    attack = console.locator("#ew-attack")
    attack.get_by_label("Modificateur").fill("3")
    attack.get_by_label("Modificateur").dispatch_event("change")
    expect(console.locator("#ew-attack-odds")).to_contain_text("+3")
    odds = console.locator("#ew-attack-odds").inner_text()
    attack.get_by_text("Dés physiques").click()
    attack.get_by_label("d20 pour toucher").fill("7")
    version = console.locator("#ew-attack .encounter-version").input_value()

    brandon = Character.objects.get(name="Brandon")
    eclat_spend(character=brandon, by=brandon.owner, note="")
    expect(console.locator(".combatant", has_text="Brandon")).to_contain_text("2 / 3")
    expect(console.locator("#ew-attack .encounter-version")).not_to_have_value(version)
    expect(attack.get_by_label("Modificateur")).to_have_value("3")
    expect(attack.get_by_label("d20 pour toucher")).to_have_value("7")
    expect(console.locator("#ew-attack-odds")).to_have_text(odds)
    assert console.console_errors == [], console.console_errors[:3]
