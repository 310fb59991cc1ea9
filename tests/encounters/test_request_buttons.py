"""The console's roll-request buttons (issue #31) follow who plays whom: "Défense au joueur"
only for a target someone plays, "Attaque au joueur" only for an acting fighter someone plays
— drawn with the console and redrawn when the GM switches target."""

import pytest

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.request_fixtures import table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
DEFENCE = "Défense au joueur"
ATTACK = "Attaque au joueur"


def buttons(page: str, system: str) -> str:
    """The request buttons' block of the attack form in the page or the odds answer."""
    start = page.index(f'id="{system}-request-buttons"')
    return page[start : page.index("</div>", start)]


def odds(client, t, target) -> str:
    """The odds answer for the acting fighter's attack on ``target`` (the GM switched)."""
    encounter = Encounter.objects.get(pk=t.encounter.pk)
    attacker = services.acting_combatant(encounter, services.load_combatants(encounter))
    sheet = getattr(attacker.character, t.system)
    data = {
        "version": encounter.version,
        "attacker": attacker.pk,
        "target": target.pk,
        "drawn_for": "",
        "weapon": sheet.weapons.first().pk,
        "defence": "none",
        "modifier": 0,
    }
    if t.system == "aethoria":
        data |= {"mode": "attack", "fatigue": 0, "redraw": "1"}
    return client.get(t.url(f"{t.system}_attack_odds"), data, **HTMX).text


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_an_npc_striking_a_pc_offers_her_defence_not_its_attack(client, system):
    t = table(system)  # Garnier acts; his first foe standing is Lysandre
    client.force_login(t.gm)
    drawn = buttons(client.get(t.url("console")).text, system)
    assert DEFENCE in drawn and ATTACK not in drawn


@pytest.mark.parametrize("system", ["ew", "aethoria"])
def test_a_pc_striking_an_npc_offers_her_attack_and_no_defence_until_a_pc_is_aimed_at(
    client, system
):
    t = table(system, first="lysandre")  # her first foe standing is Garnier, an NPC
    client.force_login(t.gm)
    drawn = buttons(client.get(t.url("console")).text, system)
    assert ATTACK in drawn and DEFENCE not in drawn
    # The GM aims at Ysolde (her player's PC): the odds' answer redraws the buttons, the
    # house rule's first one (defences) marked as such.
    redrawn = buttons(odds(client, t, t.ysolde), system)
    assert DEFENCE in redrawn and ATTACK in redrawn
    assert 'class="button primary" name="request_kind" value="defence"' in redrawn
    redrawn = buttons(odds(client, t, t.npc), system)
    assert ATTACK in redrawn and DEFENCE not in redrawn
