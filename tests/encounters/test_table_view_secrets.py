"""Issue 12, point 2: what players see of a fight on the table view.

A fight in preparation shows players only that it has not started (issue 29), and turns into
the fight when it starts. Once it runs, a combatant the GM left visible shows by name,
kind and state in words — whether or not its character was "revealed" on the campaign page;
its sheet stays closed until then — and a hidden one does not show at all."""

import pytest
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fight():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Brandon", owner=player)
    visible = ew_fighter(campaign, "Commissaire Garnier", phy=6)  # not revealed
    lurker = ew_fighter(campaign, "Rôdeur des quais")
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade aux docks")
    services.combatants_add(encounter_id=encounter.pk, characters=[pc, visible])
    services.combatants_add(encounter_id=encounter.pk, characters=[lurker], hidden=True)
    return {"gm": gm, "player": player, "encounter": encounter, "visible": visible, "pc": pc}


def _start(fight):
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    faces = {c.pk: 5 for c in encounter.combatants.all()}
    services.encounter_start(
        encounter_id=encounter.pk, version=encounter.version, by=fight["gm"], initiative=faces
    )


def test_a_fight_in_preparation_waits_for_its_start_in_french_then_shows(client, fight):
    """Issue 29: the table link opened before the start is a French page that says so —
    nothing of the fight, neither its name nor who is in it — and follows the fight, which
    it shows once the GM starts it."""
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    client.force_login(fight["player"])
    table = reverse("encounters:table", args=[encounter.pk])
    changes = reverse("encounters:changes", args=[encounter.pk])
    for page in (client.get(table), client.get(table, **HTMX)):
        assert page.status_code == 200
        assert "Le combat n'a pas encore commencé" in page.text
        assert 'id="table-body"' in page.text and "data-live" in page.text
        for secret in ("Embuscade aux docks", "Commissaire Garnier", "Rôdeur", "Brandon"):
            assert secret not in page.text
    assert client.get(changes, {"v": encounter.version}).status_code == 204
    _start(fight)
    encounter.refresh_from_db()
    assert client.get(changes, {"v": encounter.version - 1}).status_code == 200
    region = client.get(table, **HTMX).text
    assert "Embuscade aux docks" in region and "Commissaire Garnier" in region
    assert "pas encore commencé" not in region and "Rôdeur" not in region


def test_the_gm_still_opens_the_table_view_of_a_fight_in_preparation(client, fight):
    client.force_login(fight["gm"])
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    assert client.get(reverse("encounters:table", args=[encounter.pk])).status_code == 200
    changes = reverse("encounters:changes", args=[encounter.pk])
    assert client.get(changes, {"v": encounter.version}).status_code == 204


def test_once_started_players_see_a_visible_npc_in_words_and_no_hidden_one(client, fight):
    _start(fight)
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    client.force_login(fight["player"])
    table = client.get(reverse("encounters:table", args=[encounter.pk])).text
    assert "Commissaire Garnier" in table and "indemne" in table
    assert "Rôdeur des quais" not in table
    # Brandon's bars (PHY 8: 24) show; Garnier's (PHY 6: 18) never do.
    assert "24</strong>" in table and "18</strong>" not in table and "/ 18" not in table
    changes = reverse("encounters:changes", args=[encounter.pk])
    assert client.get(changes, {"v": encounter.version}).status_code == 204


def test_a_visible_but_unrevealed_npcs_sheet_stays_closed(client, fight):
    _start(fight)
    client.force_login(fight["player"])
    assert client.get(reverse("characters:detail", args=[fight["visible"].pk])).status_code == 404
