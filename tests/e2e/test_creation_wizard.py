"""The creation wizard on a phone (issue 29): "Suivant →" stops on a required input left empty
and says so under it; the verdict is "Fiche valide" only once nothing is missing."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from apps.campaigns.services import campaign_create
from tests.accounts.factories import PASSWORD, UserFactory
from tests.e2e.test_login import log_in

SMALL_PHONE = {"width": 360, "height": 740}

pytestmark = pytest.mark.django_db(transaction=True)


def wizard(open_page, system: str):
    gm = UserFactory(first_name="Morgane")
    campaign = campaign_create(name="Campagne", system=system, gm=gm)
    page = open_page(SMALL_PHONE, reverse("characters:create", args=[campaign.pk]))
    log_in(page, gm.username, PASSWORD)
    expect(page.locator("[data-wizard-nav]")).to_be_visible()
    return page


def test_next_stops_on_an_empty_name_then_on_an_emptied_force(open_page):
    page = wizard(open_page, "aethoria")
    nav = page.locator("[data-wizard-nav]")
    next_step = nav.get_by_role("button", name="Suivant")
    next_step.click()
    # Still on the identity step, the name said missing, the cursor in it.
    expect(nav.locator("[data-wizard-position]")).to_have_text("1 / 5")
    expect(page.locator("#err-name")).to_have_text("Ce champ est obligatoire.")
    expect(page.get_by_label("Nom", exact=True)).to_be_focused()
    page.get_by_label("Nom", exact=True).fill("Garde du pont")
    next_step.click()
    expect(nav.locator("[data-wizard-position]")).to_have_text("2 / 5")
    page.get_by_label("Force", exact=True).fill("")
    expect(page.locator(".status-line")).to_have_text("À remplir : Force")
    next_step.click()
    expect(nav.locator("[data-wizard-position]")).to_have_text("2 / 5")
    expect(page.locator("#err-force")).to_have_text("Ce champ est obligatoire.")
    page.get_by_label("Force", exact=True).fill("6")
    expect(page.locator(".status-line")).to_have_text("Fiche valide ✓")
    next_step.click()
    expect(nav.locator("[data-wizard-position]")).to_have_text("3 / 5")
    assert page.console_errors == [], page.console_errors[:3]
