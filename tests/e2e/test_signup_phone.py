"""Issue 13's "Done when", at phone size (360 × 740): the GM copies the invitation link, a
new visitor creates an account from it, lands on the campaign, creates a character, and
follows the demo fight on their sheet."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from apps.demo.services import DEMO_ACCOUNTS, create_demo_accounts, create_demo_table
from apps.encounters.models import Encounter
from apps.systems.ew.demo import DEMO_CAMPAIGN as EW_DEMO_CAMPAIGN
from tests.e2e.conftest import screenshot
from tests.e2e.test_login import log_in

SMALL_PHONE = {"width": 360, "height": 740}
PASSWORD = "une-phrase-de-passe-2026"


@pytest.fixture
def demo(transactional_db):
    call_command("seed", verbosity=0)
    create_demo_accounts()
    create_demo_table()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]


def create_ew_character(page) -> None:
    page.get_by_label("Nom", exact=True).fill("Chloé Marchetti")
    page.get_by_label("Archétype", exact=True).select_option(label="Investigateur")
    page.get_by_role("button", name="Suivant").click()
    page.get_by_label("PHY", exact=True).fill("8")
    page.get_by_label("PER", exact=True).fill("6")
    expect(page.locator('[data-counter="characteristics"]')).to_have_text("0")
    page.get_by_role("button", name="Suivant").click()
    page.get_by_label("Investigation", exact=True).fill("3")
    page.get_by_label("Arme de poing", exact=True).fill("2")
    page.get_by_role("button", name="Suivant").click()
    page.get_by_text("Chanceux").click()
    page.get_by_role("button", name="Suivant").click()
    page.get_by_label("Revolver", exact=True).check()
    page.locator("#creation-status").get_by_role("button", name="Créer mon personnage").click()


def test_a_new_player_signs_up_from_the_invitation_and_follows_the_fight(
    open_page, live_server, demo
):
    gm_account = DEMO_ACCOUNTS[0]
    gm = open_page(SMALL_PHONE, reverse("accounts:login"))
    log_in(gm, gm_account.username, gm_account.password)
    gm.get_by_role("link", name=EW_DEMO_CAMPAIGN).first.click()
    invitation = gm.locator(".invite-link").get_attribute("href")
    assert invitation.startswith(live_server.url + "/campagnes/rejoindre/")
    screenshot(gm, "signup-gm-campaign-360")

    visitor = open_page(SMALL_PHONE, invitation.removeprefix(live_server.url))
    expect(visitor.get_by_role("heading", name=EW_DEMO_CAMPAIGN)).to_be_visible()
    expect(visitor.get_by_text("EW-System")).to_be_visible()
    expect(visitor.get_by_text(f"Menée par {gm_account.first_name}")).to_be_visible()
    fits(visitor)
    screenshot(visitor, "signup-invitation-360")
    visitor.get_by_role("link", name="Créer mon compte").click()

    # A mismatched confirmation first: told next to the field, nothing created.
    visitor.get_by_label("Nom affiché").fill("Chloé")
    visitor.get_by_label("Nom d’utilisateur").fill("chloe")
    visitor.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    visitor.get_by_label("Confirmation du mot de passe").fill("pas-la-meme-2026")
    visitor.get_by_role("button", name="Créer mon compte").click()
    expect(visitor.locator("#id_password2_error")).to_contain_text("ne correspondent pas")
    fits(visitor)
    screenshot(visitor, "signup-error-360")
    visitor.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    visitor.get_by_label("Confirmation du mot de passe").fill(PASSWORD)
    visitor.get_by_role("button", name="Créer mon compte").click()

    expect(visitor.get_by_role("heading", name=EW_DEMO_CAMPAIGN)).to_be_visible()
    expect(visitor.locator("#messages")).to_contain_text("Compte créé")
    visitor.get_by_role("link", name="Créer mon personnage").click()
    create_ew_character(visitor)
    expect(visitor.get_by_role("heading", name="Chloé Marchetti")).to_be_visible()
    expect(visitor.locator(".fight-banner")).to_have_count(0)

    # The GM starts the demo fight; the sheet announces it by itself, and leads to it.
    fight = Encounter.objects.get(campaign__name=EW_DEMO_CAMPAIGN, name="Rixe sur les quais")
    gm.goto(live_server.url + reverse("encounters:console", args=[fight.pk]))
    gm.locator("#start").click()
    expect(gm.locator(".round")).to_have_text("Round 1")
    expect(visitor.locator(".fight-banner")).to_contain_text("Rixe sur les quais")
    fits(visitor)
    screenshot(visitor, "signup-sheet-fight-360")
    visitor.locator(".fight-banner a").click()
    expect(visitor).to_have_url(re.compile(rf"/rencontres/{fight.pk}/table/$"))
    # Exactly her name: "Au tour de Lysandre Vey" is on the page too when she wins initiative.
    expect(visitor.get_by_text("Lysandre Vey", exact=True)).to_be_visible()
    fits(visitor)
    assert visitor.console_errors == [] and gm.console_errors == []
