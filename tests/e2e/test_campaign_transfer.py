"""Browser flow of the campaign export: the GM downloads the whole campaign on a phone,
imports it back next to the original, and a wrong file is refused next to the field."""

import json

import pytest
from playwright.sync_api import expect

from apps.campaigns.models import Campaign
from apps.campaigns.services import campaign_create
from tests.accounts.factories import PASSWORD, UserFactory
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_login import log_in
from tests.encounters.factories import add_player, ew_fighter


@pytest.mark.django_db(transaction=True)
def test_a_gm_exports_a_campaign_and_imports_it_back(open_page, tmp_path):
    gm = UserFactory(username="morgane", first_name="Morgane")
    campaign = campaign_create(name="Les Ombres de Marseille", system="ew", gm=gm)
    player = add_player(campaign)
    ew_fighter(campaign, "Lysandre Vey", owner=player)
    ew_fighter(campaign, "Commissaire Garnier")

    page = open_page(PHONE, f"/campagnes/{campaign.pk}/")
    log_in(page, "morgane", PASSWORD)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Exporter (JSON)").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".json")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    document = json.loads(saved.read_text())
    assert sorted(c["name"] for c in document["characters"]) == [
        "Commissaire Garnier",
        "Lysandre Vey",
    ]

    # A file that is not an export: refused next to the field, nothing created.
    wrong = tmp_path / "notes.json"
    wrong.write_text('{"hello": "world"}')
    page.goto(page.url.split("/campagnes/")[0] + "/campagnes/importer/")
    page.get_by_label("Fichier d'export (.json)").set_input_files(wrong)
    page.get_by_role("button", name="Importer").click()
    expect(page.locator(".field-error")).to_be_visible()
    screenshot(page, "import-refused-phone")
    assert Campaign.objects.count() == 1

    # The real export: a second campaign, told apart from the original by its name.
    page.get_by_label("Fichier d'export (.json)").set_input_files(saved)
    page.get_by_role("button", name="Importer").click()
    expect(page.get_by_role("heading", name="Les Ombres de Marseille (2)")).to_be_visible()
    # The outcome first, then what the GM should know about it.
    expect(page.locator(".messages > *").first).to_have_text(
        "Campagne importée : vous en êtes le MJ."
    )
    expect(
        page.get_by_text("Vous avez déjà une campagne « Les Ombres de Marseille »")
    ).to_be_visible()
    expect(page.get_by_role("link", name="Lysandre Vey")).to_be_visible()
    screenshot(page, "import-done-phone")
    copy = Campaign.objects.get(name="Les Ombres de Marseille (2)")
    assert copy.characters.count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.console_errors == []
