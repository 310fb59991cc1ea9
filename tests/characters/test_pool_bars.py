"""A pool is drawn the same way everywhere: the same value gets the same colour thresholds on
the dashboard, the campaign page, the sheet and the encounter console."""

import re

import pytest
from django.urls import reverse

from apps.characters.bars import Bar
from apps.characters.models import EwSheet
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db


def superficial_meter(html: str) -> str:
    """The <meter> of the superficial pool, as the page draws it."""
    item = re.search(r'<li class="pool pool-superficial">.*?</li>', html, re.S)
    assert item, "no superficial pool on the page"
    return re.search(r"<meter [^>]*>", item.group(0)).group(0)


def test_a_wounded_pc_has_the_same_bar_on_every_page(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Marco", owner=player, phy=9)  # 27 points per pool
    EwSheet.objects.filter(pk=pc.ew.pk).update(superficial_left=11)
    encounter = Encounter.objects.create(campaign=campaign, name="Quais")
    services.combatants_add(encounter_id=encounter.pk, characters=[pc])
    client.force_login(gm)

    pages = [
        reverse("home"),
        reverse("campaigns:detail", args=[campaign.pk]),
        reverse("characters:detail", args=[pc.pk]),
        reverse("encounters:console", args=[encounter.pk]),
    ]
    meters = {url: superficial_meter(client.get(url).content.decode()) for url in pages}

    # 11 of 27 is under half but above a quarter: a warning, not yet bad.
    expected = '<meter min="0" max="27" low="6.75" high="13.5" optimum="27" value="11">'
    assert meters == dict.fromkeys(pages, expected)


@pytest.mark.parametrize(
    ("value", "state"),
    [(27, "fine"), (14, "fine"), (13, "warning"), (7, "warning"), (6, "bad"), (-3, "bad")],
)
def test_a_bar_is_bad_under_a_quarter_and_a_warning_under_half(value, state):
    bar = Bar("superficial", "Superficiels", value, 27)
    shown = (
        "bad" if bar.meter_value < bar.low else "warning" if bar.meter_value <= bar.high else "fine"
    )
    assert shown == state
