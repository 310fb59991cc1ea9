"""Issue 17: an Aethoria fighter out of the fight keeps bleeding at each of its turns until
treated, and dies at −Vitalité; "treat bleeding" is an undoable step of its row; the
end-of-fight summary lists the bleeding and the confirmed fractures."""

from dataclasses import replace

import pytest
from django.urls import reverse

from apps.characters.models import AethoriaSheet
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.systems.aethoria.state import FighterState
from tests.encounters.factories import aethoria_fighter, campaign_with_gm

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fight():
    """Ysolde acts first, then Brandon, then Corin — out of the fight (0 PV) and bleeding."""
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    people = [aethoria_fighter(campaign, name) for name in ("Ysolde", "Brandon", "Corin")]
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade")
    combatants = services.combatants_add(encounter_id=encounter.pk, characters=people)
    faces = {c.pk: face for c, face in zip(combatants, (18, 10, 3), strict=True)}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    corin = encounter.combatants.get(character__name="Corin")
    corin.state = replace(FighterState.of(corin), bleeding=True).to_json()
    corin.save(update_fields=["state"])
    AethoriaSheet.objects.filter(character=corin.character).update(pv=0)
    encounter.refresh_from_db()
    return {"encounter": encounter, "gm": gm, "corin": corin}


def _next(fight):
    encounter = fight["encounter"]
    encounter.refresh_from_db()
    return services.encounter_next_turn(
        encounter_id=encounter.pk, version=encounter.version, by=fight["gm"]
    )


def _pv(fight) -> int:
    return AethoriaSheet.objects.get(character=fight["corin"].character).pv


def test_an_out_of_the_fight_fighter_bleeds_at_its_skipped_turn(fight):
    _next(fight)  # Brandon
    assert _pv(fight) == 0
    event = _next(fight)  # Corin's turn is skipped: a new round, Ysolde again
    assert _pv(fight) == -1
    assert event.data["bled"][0]["name"] == "Corin"
    services.encounter_undo(encounter_id=fight["encounter"].pk, version=None, by=fight["gm"])
    assert _pv(fight) == 0


def test_bleeding_stops_at_death(fight):
    AethoriaSheet.objects.filter(character=fight["corin"].character).update(pv=-4)
    _next(fight)
    event = _next(fight)  # −5 = −Vitalité: dead
    assert _pv(fight) == -5 and event.data["bled"][0]["dead"]
    _next(fight)
    _next(fight)
    assert _pv(fight) == -5  # the dead bleed no more


def test_treat_bleeding_from_the_row_and_undo_it(client, fight):
    encounter = fight["encounter"]
    client.force_login(fight["gm"])
    # The row's GM tools, as they load when the GM opens them.
    tools_url = reverse("encounters:combatant_tools", args=[encounter.pk, fight["corin"].pk])
    assert "Soigner le saignement" in client.get(tools_url, **HTMX).text
    url = reverse("encounters:aethoria_treat_bleeding", args=[encounter.pk])
    data = {"version": encounter.version, "combatant": fight["corin"].pk}
    assert client.post(url, data, **HTMX).status_code == 200
    fight["corin"].refresh_from_db()
    assert not FighterState.of(fight["corin"]).bleeding
    _next(fight)
    _next(fight)
    assert _pv(fight) == 0  # treated: no more loss
    # Treated already: refused, nothing changed.
    encounter.refresh_from_db()
    again = client.post(url, {**data, "version": encounter.version}, **HTMX)
    assert "ne saigne pas" in again.text
    for _ in range(3):
        services.encounter_undo(encounter_id=encounter.pk, version=None, by=fight["gm"])
    fight["corin"].refresh_from_db()
    assert FighterState.of(fight["corin"]).bleeding


def test_the_summary_lists_the_bleeding_and_the_fractures(client, fight):
    encounter = fight["encounter"]
    ysolde = encounter.combatants.get(character__name="Ysolde")
    fracture = {"kind": "fracture", "location": "left_leg", "label": "fracture : jambe gauche"}
    ysolde.state = replace(FighterState.of(ysolde), effects=(fracture,)).to_json()
    ysolde.save(update_fields=["state"])
    encounter.refresh_from_db()
    services.encounter_end(encounter_id=encounter.pk, version=encounter.version, by=fight["gm"])
    encounter.refresh_from_db()
    lasting = {row["name"]: row for row in encounter.summary["lasting"]}
    assert lasting["Corin"]["bleeding"] and lasting["Ysolde"]["effects"][0]["effect"] == "fracture"
    client.force_login(fight["gm"])
    html = client.get(reverse("encounters:console", args=[encounter.pk])).text
    assert "Effets qui durent" in html and "saigne encore" in html and "jambe gauche" in html


def test_aethoria_pools_are_corrected_within_their_range(client, fight):
    encounter = fight["encounter"]
    client.force_login(fight["gm"])
    url = reverse("encounters:combatant_correct_pool", args=[encounter.pk, fight["corin"].pk])
    data = {"version": encounter.version, "pool": "pv", "value": -6, "reason": "x"}
    response = client.post(url, data, **HTMX)
    assert f'id="id_correct{fight["corin"].pk}_value_error"' in response.text  # below −Vitalité
    assert _pv(fight) == 0
    client.post(url, {**data, "value": 5}, **HTMX)
    assert _pv(fight) == 5
