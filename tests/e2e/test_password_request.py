"""A player without an email who forgot their password (issue 28, point 1), clicked
through: the request from the phone's login page, the GM handing the link over from the
campaign page, the new password chosen on the phone, and the notice at the next log-in."""

import re

import pytest
from playwright.sync_api import expect

from apps.campaigns.services import campaign_create
from tests.accounts.factories import PASSWORD, UserFactory
from tests.campaigns.factories import MembershipFactory
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.e2e.test_login import log_in

NEW_PASSWORD = "la-nouvelle-phrase-2026"


@pytest.mark.django_db(transaction=True)
def test_a_player_asks_the_gm_hands_the_link_and_the_phone_sets_the_password(open_page):
    gm = UserFactory(username="morgane", first_name="Morgane")
    player = UserFactory(username="alice", first_name="Alice")
    campaign = campaign_create(name="Port-Sel", system="ew", gm=gm)
    MembershipFactory(campaign=campaign, user=player)

    phone = open_page(PHONE)
    phone.get_by_role("link", name="Mot de passe oublié ?").click()
    phone.get_by_label("Nom d’utilisateur").fill("alice")
    phone.get_by_role("button", name="Demander un lien à mon MJ").click()
    expect(phone.get_by_role("heading", name="Demande envoyée")).to_be_visible()
    screenshot(phone, "password-request-sent-390")

    desk = open_page(DESKTOP)
    log_in(desk, gm.username, PASSWORD)
    desk.goto(desk.url.rstrip("/") + f"/campagnes/{campaign.pk}/")
    expect(desk.locator("#members")).to_contain_text("a demandé un nouveau mot de passe")
    screenshot(desk, "password-request-gm-1366")
    desk.get_by_role("button", name="Donner un lien").click()
    link = desk.locator("#reset-link").input_value()
    assert re.search(r"/compte/lien/[^/]+/$", link)

    # The GM's own browser cannot use it.
    desk.goto(link)
    expect(desk.get_by_role("alert")).to_contain_text("Ce lien ne fonctionne pas ici")

    phone.goto(link)
    phone.get_by_label("Nouveau mot de passe", exact=True).fill(NEW_PASSWORD)
    phone.get_by_label("Confirmation du nouveau mot de passe").fill(NEW_PASSWORD)
    screenshot(phone, "password-request-link-390")
    phone.get_by_role("button", name="Enregistrer le mot de passe").click()
    log_in(phone, "alice", NEW_PASSWORD)
    expect(phone.locator("#messages")).to_contain_text("Votre mot de passe a été changé le")
    screenshot(phone, "password-request-told-390")
    assert phone.console_errors == [] and desk.console_errors == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
