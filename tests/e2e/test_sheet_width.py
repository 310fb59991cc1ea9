"""Every sheet fits a 360 px phone, whatever the gear (issue 29: an Aethoria sheet with several
armour pieces was 449 px wide, its PV, ranks and armour lines cut off). Each system's sheet
is filled with the compendium's longest names and all the gear it may carry, and opened by
its player at 360 × 740."""

import pytest
from django.core.management import call_command
from django.db.models.functions import Length
from playwright.sync_api import expect

from apps.campaigns.services import campaign_create
from apps.characters.models import AethoriaSkillRank, EwSpecialtyRank
from apps.compendium import models as compendium
from tests.accounts.factories import PASSWORD, UserFactory
from tests.campaigns.factories import MembershipFactory
from tests.characters.factories import CharacterFactory
from tests.e2e.conftest import screenshot
from tests.e2e.test_login import log_in

SMALL_PHONE = {"width": 360, "height": 740}
# Whatever spills out of the page's width, as the player would have to scroll sideways for.
SPILLED = """(width) => [...document.querySelectorAll("main *")]
  .filter((element) => element.getBoundingClientRect().right > width + 0.5)
  .map((element) => `${element.className}: ${element.textContent.trim().slice(0, 40)}`)"""

pytestmark = pytest.mark.django_db(transaction=True)


def longest(model, count: int):
    return list(model.objects.order_by(Length("name").desc(), "name")[:count])


def player_of(campaign):
    player = UserFactory(first_name="Alexandrine-Marguerite")
    MembershipFactory(campaign=campaign, user=player, role="player")
    return player


def aethoria_pc(gm):
    campaign = campaign_create(name="La Marche des Brumes", system="aethoria", gm=gm)
    player = player_of(campaign)
    character = CharacterFactory(
        campaign=campaign,
        owner=player,
        name="Maëlle de la Haute-Tourbière",
        concept="guérisseuse itinérante, marquée du dieu de la forge",
        sheet__magic_type="marque",
        sheet__pouvoir=6,
    )
    sheet = character.aethoria
    sheet.god = longest(compendium.AethoriaGod, 1)[0]
    sheet.shield = longest(compendium.AethoriaShield, 1)[0]
    sheet.save()
    sheet.weapons.set(longest(compendium.AethoriaWeapon, 6))
    sheet.armour_pieces.set(compendium.AethoriaArmourPiece.objects.all())
    for skill in compendium.AethoriaSkill.objects.all():
        AethoriaSkillRank.objects.create(sheet=sheet, skill=skill, rank=9)
    return character, player


def ew_pc(gm):
    campaign = campaign_create(name="Les Ombres de Marseille", system="ew", gm=gm)
    player = player_of(campaign)
    character = CharacterFactory(
        campaign=campaign,
        owner=player,
        name="Lysandre Vey-Castelnau",
        concept="détective privée au passé trouble",
        sheet__archetype=longest(compendium.EwArchetype, 1)[0],
        sheet__armour=longest(compendium.EwArmour, 1)[0],
    )
    sheet = character.ew
    sheet.weapons.set(longest(compendium.EwWeapon, 6))
    sheet.traits.set(longest(compendium.EwTrait, 6))
    sheet.aptitudes.set(longest(compendium.EwAptitude, 6))
    for specialty in longest(compendium.EwSpecialty, 12):
        EwSpecialtyRank.objects.create(sheet=sheet, specialty=specialty, level=6)
    return character, player


@pytest.mark.parametrize("make", [aethoria_pc, ew_pc], ids=["aethoria", "ew"])
def test_a_fully_geared_sheet_fits_a_360_px_phone(open_page, make):
    call_command("seed", verbosity=0)
    character, player = make(UserFactory(first_name="Morgane"))
    page = open_page(SMALL_PHONE, f"/personnages/{character.pk}/")
    log_in(page, player.username, PASSWORD)
    expect(page.get_by_role("heading", name=character.name)).to_be_visible()
    screenshot(page, f"sheet-{character.campaign.system}-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert page.evaluate(SPILLED, SMALL_PHONE["width"]) == []
    assert page.console_errors == [], page.console_errors[:3]
