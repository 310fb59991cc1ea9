"""A short Aethoria fight in the console at tablet size, clicked through in Chromium."""

import pytest
from playwright.sync_api import expect

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.conftest import (  # noqa: F401
    TABLET,
    act_and_compare_with_reload,
    browser,
    open_page,
    screenshot,
)
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_gm_attacks_with_physical_dice_and_confirms_the_bleeding(open_page):  # noqa: F811
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    ysolde = aethoria_fighter(campaign, "Ysolde", owner=add_player(campaign))
    brandon = aethoria_fighter(campaign, "Brandon")
    aethoria_fighter(campaign, "Maëlle", magic_type="doue", pouvoir=6, magie=3)
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    combatants = services.combatants_add(
        encounter_id=encounter.pk,
        characters=[ysolde, brandon, *campaign.characters.filter(name="Maëlle")],
    )
    faces = {c.pk: face for c, face in zip(combatants, (18, 9, 4), strict=True)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)

    console = open_page(TABLET, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    expect(console.get_by_role("heading", name="Ysolde agit")).to_be_visible()
    expect(console.locator("#aethoria-attack-odds")).to_contain_text("Chance de toucher")
    console.locator("#aethoria-attack").get_by_label("Défense", exact=True).select_option("dodge")
    expect(console.locator("#aethoria-attack-odds")).to_contain_text("esquive")
    screenshot(console, "aethoria-console-attack-tablet")
    console.locator("#aethoria-attack summary", has_text="Dés physiques").click()
    console.get_by_label("d10 d'attaque", exact=True).fill("1 3 7 9")
    console.get_by_label("d20 de localisation", exact=True).fill("12")
    console.get_by_label("d10 de défense", exact=True).fill("2 8 9")
    console.get_by_label("d10 de dégâts (si touché : arme + bonus)").fill("1 4")
    console.get_by_role("button", name="Lancer l'attaque").click()
    expect(console.locator(".log-lines")).to_contain_text("touché au bras droit")
    expect(console.locator(".severe-effect")).to_be_visible()
    screenshot(console, "aethoria-console-after-attack-tablet")
    # Confirming the effect, then passing the turn and undoing it, answer with fragments:
    # the console must read as a reload of it, actions panel included.
    url = console.url
    reloaded = console.context.new_page()
    for action in (
        console.locator(".severe-effect").get_by_role("button", name="Confirmer").click,
        lambda: console.keyboard.press("n"),
        lambda: console.keyboard.press("u"),
    ):
        act_and_compare_with_reload(console, reloaded, url, action, "#console-actions")
    expect(console.locator(".combatants")).to_contain_text("saigne")
    assert not console.console_errors


@pytest.mark.django_db(transaction=True)
def test_gm_adds_fatigue_dice_after_a_missed_attack_roll(open_page):  # noqa: F811
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    ysolde = aethoria_fighter(campaign, "Ysolde", owner=add_player(campaign))
    brandon = aethoria_fighter(campaign, "Brandon")
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=[ysolde, brandon])
    faces = {c.pk: face for c, face in zip(combatants, (18, 9), strict=True)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)

    console = open_page(TABLET, f"/rencontres/{encounter.pk}/")
    log_in(console, gm)
    # Brandon does not defend (the form opens on his best defence).
    console.locator("#aethoria-attack").get_by_label("Défense", exact=True).select_option("none")
    console.locator("#aethoria-attack summary", has_text="Dés physiques").click()
    console.get_by_label("d10 d'attaque", exact=True).fill("7 8 9 9")
    console.get_by_label("d20 de localisation", exact=True).fill("12")
    console.get_by_role("button", name="Lancer l'attaque").click()
    expect(console.locator(".log-lines")).to_contain_text("raté")
    card = console.locator("#aethoria-attack-fatigue")
    # The offer is folded: its form and odds load when the GM opens it.
    card.locator("summary").click()
    expect(card).to_contain_text("chance de toucher")
    card.get_by_label("Dés de fatigue", exact=True).select_option("2")
    card.get_by_label("d10 de fatigue (dés physiques, sinon vide)").fill("1 3")
    card.get_by_label("d10 de dégâts en plus", exact=False).fill("1 4 9")
    screenshot(console, "aethoria-console-fatigue-after-tablet")
    reloaded = console.context.new_page()
    add_dice = card.get_by_role("button", name="Ajouter les dés").click
    act_and_compare_with_reload(console, reloaded, console.url, add_dice, "#console-actions")
    expect(console.locator(".log-lines")).to_contain_text("ajoute 2 dés de fatigue")
    expect(console.locator(".severe-effect")).to_be_visible()
    assert not console.console_errors


@pytest.mark.django_db(transaction=True)
def test_tests_on_the_table_follow_one_another_in_an_open_panel(open_page, live_server):  # noqa: F811
    """The test panel loads when the GM opens it; after each roll it stays open on the same
    test, so the next player's roll only needs "Qui" changed."""
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    ysolde = aethoria_fighter(campaign, "Ysolde", owner=add_player(campaign))
    brandon = aethoria_fighter(campaign, "Brandon")
    encounter = Encounter.objects.create(campaign=campaign, name="Au gué")
    services.combatants_add(encounter_id=encounter.pk, characters=[ysolde, brandon])
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    path = f"/rencontres/{encounter.pk}/"
    console = open_page(TABLET, path)
    log_in(console, gm)
    console.get_by_text("Test sur la table").click()
    test = console.locator("#aethoria-test")
    expect(test.locator("#aethoria-test-odds")).to_contain_text("Chance de réussir")
    test.get_by_label("Qui").select_option(label="Ysolde")
    test.get_by_label("Jet de").select_option(label="Force (seuil 6)")
    test.get_by_label("Difficulté", exact=True).fill("2")
    reloaded = console.context.new_page()
    roll = test.get_by_role("button", name="Lancer le test").click
    act_and_compare_with_reload(console, reloaded, live_server.url + path, roll)
    expect(console.locator(".log-lines")).to_contain_text("Ysolde")
    # Brandon next, the same test: only "Qui" changes.
    expect(test.get_by_label("Difficulté", exact=True)).to_have_value("2")
    expect(test.get_by_label("Jet de")).to_have_value("force")
    test.get_by_label("Qui").select_option(label="Brandon")
    test.get_by_role("button", name="Lancer le test").click()
    expect(console.locator(".log-line.kind-aethoria_test")).to_have_count(2)
    expect(console.locator(".log-lines li").first).to_contain_text("Brandon")
    screenshot(console, "aethoria-console-tests-tablet")
    assert not console.console_errors
