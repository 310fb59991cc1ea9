import pytest
from playwright.sync_api import expect

from apps.demo.services import DEMO_ACCOUNTS, create_demo_accounts
from tests.e2e.conftest import DESKTOP, PHONE, screenshot


def log_in(page, username: str, password: str) -> None:
    """Log in, and wait for the page it leads to to have loaded (its scripts are deferred:
    a tap before then would reach no htmx)."""
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Se connecter").click()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_demo_gm_logs_in_and_switches_language_both_ways(open_page, viewport):
    create_demo_accounts()
    gm = DEMO_ACCOUNTS[0]
    # The browser asks for English; the app still opens in French.
    page = open_page(viewport)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    screenshot(page, f"login-{viewport['width']}")
    log_in(page, gm.username, gm.password)
    expect(page.get_by_role("heading", name=f"Bonjour, {gm.first_name}")).to_be_visible()
    screenshot(page, f"home-fr-{viewport['width']}")

    page.locator("details.menu summary").click()
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name=f"Hello, {gm.first_name}")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    screenshot(page, f"home-en-{viewport['width']}")

    page.locator("details.menu summary").click()
    page.get_by_role("button", name="Français").click()
    expect(page.get_by_role("heading", name=f"Bonjour, {gm.first_name}")).to_be_visible()
    # No page may break its own Content Security Policy.
    assert page.console_errors == []
    # The page never scrolls sideways, even on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.django_db(transaction=True)
def test_a_wrong_password_is_told_next_to_the_form(open_page):
    page = open_page(PHONE)
    log_in(page, "mj", "pas-le-bon")
    expect(page.get_by_role("alert")).to_contain_text("mot de passe valides")
