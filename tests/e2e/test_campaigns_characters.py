"""Browser flows of issue 5: join by link on a phone, create characters through the wizards,
and a sheet that updates by itself when the GM awards XP."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.campaigns.services import campaign_create
from tests.accounts.factories import PASSWORD, UserFactory
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.e2e.test_login import log_in


def no_sideways_scroll(page, viewport):
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.fixture
def table(transactional_db):
    call_command("seed", verbosity=0)
    gm = UserFactory(username="morgane", first_name="Morgane")
    player = UserFactory(username="alice", first_name="Alice")
    ew_campaign = campaign_create(name="Les Ombres de Marseille", system="ew", gm=gm)
    aethoria_campaign = campaign_create(name="La Marche des Brumes", system="aethoria", gm=gm)
    return {"gm": gm, "player": player, "ew": ew_campaign, "aethoria": aethoria_campaign}


def test_a_player_joins_on_a_phone_and_creates_both_characters(open_page, live_server, table):
    ew_campaign, aethoria_campaign = table["ew"], table["aethoria"]
    page = open_page(PHONE, f"/campagnes/rejoindre/{ew_campaign.invite_code}/")
    expect(page.get_by_role("heading", name=ew_campaign.name)).to_be_visible()
    screenshot(page, "join-phone")
    page.get_by_role("link", name="J'ai déjà un compte").click()
    log_in(page, "alice", PASSWORD)  # logged in and joined in one step
    expect(page.get_by_role("heading", name=ew_campaign.name)).to_be_visible()
    page.get_by_role("link", name="Créer mon personnage").click()

    # EW wizard: archetype, characteristics with the live 28-point counter, specialties...
    page.get_by_label("Nom", exact=True).fill("Lysandre Vey")
    page.get_by_label("Archétype", exact=True).select_option(label="Investigateur")
    expect(page.locator("#aptitudes-choices")).to_contain_text("Déduction")
    screenshot(page, "wizard-ew-step1-phone")
    next_step(page)
    page.get_by_label("PHY", exact=True).fill("8")
    expect(page.locator('[data-counter="characteristics"]')).to_have_text("-1")
    expect(page.locator("#err-characteristics")).to_contain_text("28")
    screenshot(page, "wizard-ew-error-phone")
    page.get_by_label("PER", exact=True).fill("6")
    expect(page.locator('[data-counter="characteristics"]')).to_have_text("0")
    expect(page.locator("#err-characteristics")).to_be_empty()
    next_step(page)
    page.get_by_label("Investigation", exact=True).fill("3")  # con factor 1: 3 points
    page.get_by_label("Arme de poing", exact=True).fill("2")  # com factor 2: 4 points
    expect(page.locator('[data-counter="generation"]')).to_have_text("29")
    page.get_by_label("Arme de poing", exact=True).fill("8")
    expect(page.locator("#err-specialty_" + _pk(page, "Arme de poing"))).to_contain_text("0 et 6")
    expect(page.locator("[data-wizard-tab].has-problems")).to_have_count(1)
    page.get_by_label("Arme de poing", exact=True).fill("2")
    expect(page.locator("[data-wizard-tab].has-problems")).to_have_count(0)
    next_step(page)
    page.get_by_text("Chanceux").click()
    expect(page.locator('[data-counter="generation"]')).to_have_text("25")
    next_step(page)
    expect(page.locator("#starting-gear")).to_contain_text("Revolver")  # the archetype's
    page.get_by_label("Revolver", exact=True).check()
    no_sideways_scroll(page, PHONE)
    screenshot(page, "wizard-ew-phone")
    page.locator("#creation-status").get_by_role("button", name="Créer mon personnage").click()

    expect(page.get_by_role("heading", name="Lysandre Vey")).to_be_visible()
    expect(page.locator(".pool-superficial .pool-numbers")).to_have_text("24 / 24")
    no_sideways_scroll(page, PHONE)
    screenshot(page, "sheet-ew-phone")

    # The second campaign is Aethoria: characteristics, skills, magic, equipment.
    page.goto(f"{live_server.url}/campagnes/rejoindre/{aethoria_campaign.invite_code}/")
    page.get_by_role("button", name="Rejoindre la campagne").click()
    page.get_by_role("link", name="Créer mon personnage").click()
    page.get_by_label("Nom", exact=True).fill("Maëlle")
    next_step(page)
    page.get_by_label("Force", exact=True).fill("10")
    expect(page.locator("#err-force")).to_contain_text("entre 1 et 9")
    page.get_by_label("Force", exact=True).fill("4")
    expect(page.locator('[data-counter="pv"]')).to_have_text("18")
    next_step(page)
    page.get_by_label("Magie (Pouvoir)", exact=True).fill("5")
    next_step(page)
    page.get_by_label("doué", exact=True).check()
    expect(page.locator("#err-domain")).to_contain_text("domaine")
    page.get_by_label("Domaine (doué)", exact=True).select_option(label="Télékinésie")
    page.get_by_label("Pouvoir", exact=True).fill("6")
    expect(page.locator(".status-line")).to_contain_text("valide")
    no_sideways_scroll(page, PHONE)
    screenshot(page, "wizard-aethoria-phone")
    page.locator("#creation-status").get_by_role("button", name="Créer mon personnage").click()
    expect(page.get_by_role("heading", name="Maëlle")).to_be_visible()
    expect(page.locator(".pool-pv .pool-numbers")).to_have_text("18 / 18")
    no_sideways_scroll(page, PHONE)
    screenshot(page, "sheet-aethoria-phone")

    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Je joue")).to_be_visible()
    screenshot(page, "dashboard-player-phone")
    assert page.console_errors == [], page.console_errors


def next_step(page) -> None:
    page.get_by_role("button", name="Suivant").click()


def _pk(page, label: str) -> str:
    name = page.get_by_label(label).get_attribute("name")
    return name.removeprefix("specialty_")


def test_the_gm_awards_xp_and_the_open_sheet_updates_by_itself(open_page, live_server, table):
    from apps.campaigns.services import campaign_join
    from tests.characters.factories import CharacterFactory

    campaign = table["ew"]
    campaign_join(campaign=campaign, user=table["player"])
    pc = CharacterFactory(campaign=campaign, owner=table["player"], name="Lysandre Vey")

    phone = open_page(PHONE, f"/personnages/{pc.pk}/")
    log_in(phone, "alice", PASSWORD)
    expect(phone.locator(".xp-balance strong")).to_have_text("0")
    # The owner spends a point d'éclat from the sheet (htmx, no reload).
    phone.get_by_label("Pour quoi ?").fill("la porte cède")
    phone.get_by_role("button", name="Dépenser 1 point d'éclat…").click()
    # Nothing spent before the player confirms (the reason shown back).
    expect(phone.locator("#eclat-confirm-text")).to_contain_text("« la porte cède »")
    expect(phone.locator(".pool-eclat .pool-numbers")).to_have_text("3 / 3")
    screenshot(phone, "sheet-eclat-confirm-phone")
    phone.get_by_role("button", name="Oui, dépenser").click()
    expect(phone.locator(".pool-eclat .pool-numbers")).to_have_text("2 / 3")

    laptop = open_page(DESKTOP, f"/campagnes/{campaign.pk}/")
    log_in(laptop, "morgane", PASSWORD)
    screenshot(laptop, "campaign-gm-desktop")
    laptop.get_by_role("link", name="Donner de l'XP").click()
    laptop.get_by_text("Lysandre Vey").click()
    laptop.get_by_label("XP", exact=True).fill("3")
    laptop.get_by_label("Raison", exact=True).fill("Le cargo fantôme")
    laptop.get_by_role("button", name="Donner l'XP").click()
    expect(laptop.locator("#log")).to_contain_text("Le cargo fantôme")

    # No reload on the phone: the live check brings the change (every 2 s here, a WSGI
    # server; no time asserted: a loaded machine answers later, the page still catches up).
    expect(phone.locator(".xp-balance strong")).to_have_text("3")
    expect(phone.locator(".ledger")).to_contain_text("Le cargo fantôme")
    screenshot(phone, "sheet-after-award-phone")

    # The GM gives the point d'éclat back from the session log; the phone follows.
    laptop.locator("#log li", has_text="la porte cède").get_by_role(
        "button", name="Annuler"
    ).click()
    expect(laptop.locator("#log")).to_contain_text(
        "Annulé par Morgane : Lysandre Vey dépense un point d'éclat : la porte cède."
    )
    expect(phone.locator(".pool-eclat .pool-numbers")).to_have_text("3 / 3")
    screenshot(laptop, "campaign-log-undo-desktop")

    # Damage dealt elsewhere (the encounter console) shows the same way.
    pc.ew.set_pools(pc.ew.pools().__class__(21, 9, 20))
    campaign.touch()
    expect(phone.locator(".pool-superficial .pool-numbers")).to_have_text("9 / 21")
    expect(phone.locator(".state-word")).to_have_text(re.compile("[Bb]lessure"))

    # A phone waking up checks at once. Stop the 2-second polling, so that only the
    # visibilitychange handler of static/js/live.js can bring the change.
    phone.evaluate(
        """() => {
        const old = document.querySelector("[data-live]");
        const quiet = old.cloneNode();
        quiet.setAttribute("hx-trigger", "live-check");
        old.replaceWith(quiet);
        window.htmx.process(quiet);
        }"""
    )
    from apps.characters.services import xp_award

    xp_award(campaign=campaign, characters=[pc], amount=2, reason="Réveil", by=table["gm"])
    phone.wait_for_timeout(2500)
    expect(phone.locator(".xp-balance strong")).to_have_text("3")  # asleep: nothing came
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(phone.locator(".xp-balance strong")).to_have_text("5")

    # The GM's sheet view on a laptop.
    laptop.goto(f"{live_server.url}/personnages/{pc.pk}/")
    screenshot(laptop, "sheet-gm-desktop")
    no_sideways_scroll(laptop, DESKTOP)
    assert phone.console_errors == [] and laptop.console_errors == []
