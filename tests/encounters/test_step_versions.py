"""Every step of the console carries the version it was made on (issue 27, point 1): a
missing or malformed one is refused in words, never taken as "no check"; the same form sent
twice finds the version moved on and is refused too. Nothing changes either way."""

import pytest
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Combatant, Encounter, Status
from tests.encounters.factories import campaign_with_gm, ew_fighter, started_duel
from tests.systems.aethoria.support import (
    aethoria_table,  # noqa: F401 - the `table` fixture
    combatant,
    start,
    url,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NO_VERSION = "version manquante ou illisible"
BAD_VERSIONS = [
    pytest.param({}, id="missing"),
    pytest.param({"version": ""}, id="empty"),
    pytest.param({"version": "abc"}, id="words"),
    pytest.param({"version": "0"}, id="zero"),
    pytest.param({"version": "-3"}, id="negative"),
    pytest.param({"version": "4.5"}, id="decimal"),
]


@pytest.fixture
def duel(client):
    duel = started_duel("Lysandre", "Sbire", first="pc", name="Quais")
    client.force_login(duel.gm)
    duel.encounter.refresh_from_db()
    return duel


def said(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def unchanged(encounter: Encounter) -> None:
    version, turn = encounter.version, encounter.turn
    encounter.refresh_from_db()
    assert (encounter.version, encounter.turn) == (version, turn)


@pytest.mark.parametrize("data", BAD_VERSIONS)
@pytest.mark.parametrize(
    "name", ["next_turn", "pause", "undo", "end", "ew_stance", "ew_attack", "ew_test"]
)
def test_a_step_without_a_readable_version_is_refused_in_words(client, duel, name, data):
    encounter = duel.encounter
    combatants = list(encounter.combatants.order_by("position"))
    posted = {
        "combatant": combatants[0].pk,
        "attacker": combatants[0].pk,
        "target": combatants[1].pk,
        "stance": "total_attack",
        "defence": "none",
        "modifier": 0,
        **data,
    }
    response = client.post(reverse(f"encounters:{name}", args=[encounter.pk]), posted, **HTMX)
    assert response.status_code == 200
    assert NO_VERSION in said(response)
    unchanged(encounter)


@pytest.mark.parametrize("data", BAD_VERSIONS)
def test_hiding_without_a_readable_version_is_refused(client, duel, data):
    encounter = duel.encounter
    npc = Combatant.objects.get(encounter=encounter, character=duel.npc)
    url = reverse("encounters:combatant_visibility", args=[encounter.pk, npc.pk])
    response = client.post(url, {"hidden": "1", **data}, **HTMX)
    assert NO_VERSION in said(response)
    npc.refresh_from_db()
    assert npc.hidden is False
    unchanged(encounter)


@pytest.mark.parametrize("hidden", ["", "yes", "true", "2", None])
def test_hiding_says_hide_or_show_or_is_refused(client, duel, hidden):
    """Only "1" hides and "0" shows: anything else used to mean "show"."""
    encounter = duel.encounter
    npc = Combatant.objects.get(encounter=encounter, character=duel.npc)
    Combatant.objects.filter(pk=npc.pk).update(hidden=True)
    url = reverse("encounters:combatant_visibility", args=[encounter.pk, npc.pk])
    data = {"version": encounter.version}
    if hidden is not None:
        data["hidden"] = hidden
    response = client.post(url, data, **HTMX)
    assert "Cacher ou révéler ?" in said(response)
    assert Combatant.objects.get(pk=npc.pk).hidden is True
    unchanged(encounter)


def test_hiding_and_showing_with_a_version_works_once(client, duel):
    encounter = duel.encounter
    npc = Combatant.objects.get(encounter=encounter, character=duel.npc)
    url = reverse("encounters:combatant_visibility", args=[encounter.pk, npc.pk])
    data = {"version": encounter.version, "hidden": "1"}
    assert client.post(url, data, **HTMX).status_code == 200
    assert Combatant.objects.get(pk=npc.pk).hidden is True
    # The same form again (a double tap sent twice): the version has moved on.
    replay = client.post(url, data, **HTMX)
    assert replay.status_code == 409
    assert encounter.events.filter(kind="hide").count() == 1
    encounter.refresh_from_db()
    shown = client.post(url, {"version": encounter.version, "hidden": "0"}, **HTMX)
    assert shown.status_code == 200
    assert Combatant.objects.get(pk=npc.pk).hidden is False


def test_the_same_next_turn_sent_twice_passes_one_turn(client, duel):
    encounter = duel.encounter
    url = reverse("encounters:next_turn", args=[encounter.pk])
    data = {"version": encounter.version}
    assert client.post(url, data, **HTMX).status_code == 200
    replay = client.post(url, data, **HTMX)
    assert replay.status_code == 409
    assert "Quelqu'un a agi" in said(replay)
    encounter.refresh_from_db()
    assert encounter.turn == 1
    assert encounter.events.filter(kind="next_turn").count() == 1


@pytest.fixture
def preparing(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    a, b = ew_fighter(campaign, "Amaury"), ew_fighter(campaign, "Bérénice")
    template = ew_fighter(campaign, "Garde")
    template.is_template = True
    template.save(update_fields=["is_template"])
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    services.combatants_add(encounter_id=encounter.pk, characters=[a])
    encounter.refresh_from_db()
    client.force_login(gm)
    return {"encounter": encounter, "b": b, "template": template}


@pytest.mark.parametrize("data", BAD_VERSIONS[:3])
def test_the_preparations_steps_need_their_version(client, preparing, data):
    encounter = preparing["encounter"]
    first = encounter.combatants.get()
    posts = {
        "combatants_add": ({"characters": [preparing["b"].pk]}, []),
        "combatants_from_template": ({"template": preparing["template"].pk, "count": 2}, []),
        "combatant_remove": ({}, [first.pk]),
        "start": ({}, []),
    }
    for name, (fields, more) in posts.items():
        url = reverse(f"encounters:{name}", args=[encounter.pk, *more])
        response = client.post(url, {**fields, **data}, **HTMX)
        assert NO_VERSION in said(response), name
    assert list(encounter.combatants.all()) == [first]
    unchanged(encounter)
    assert encounter.status == Status.PREPARING


def test_adding_copies_twice_with_the_same_form_adds_them_once(client, preparing):
    encounter = preparing["encounter"]
    url = reverse("encounters:combatants_from_template", args=[encounter.pk])
    data = {"template": preparing["template"].pk, "count": 2, "version": encounter.version}
    assert client.post(url, data, **HTMX).status_code == 200
    assert client.post(url, data, **HTMX).status_code == 409
    assert encounter.combatants.count() == 3


@pytest.mark.parametrize(
    "name", ["reinforce", "combatant_withdraw", "combatant_correct_pool"], ids=str
)
def test_the_gm_tools_need_their_version(client, duel, name):
    encounter = duel.encounter
    npc = Combatant.objects.get(encounter=encounter, character=duel.npc)
    more = [] if name == "reinforce" else [npc.pk]
    data = {"character": duel.npc.pk, "pool": "lethal_left", "value": 3, "reason": "x"}
    response = client.post(reverse(f"encounters:{name}", args=[encounter.pk, *more]), data, **HTMX)
    assert NO_VERSION in said(response)
    unchanged(encounter)


@pytest.mark.parametrize("data", BAD_VERSIONS[:3])
@pytest.mark.parametrize(
    "name", ["aethoria_attack", "aethoria_test", "aethoria_fatigue", "aethoria_spell"]
)
def test_an_aethoria_step_without_a_readable_version_is_refused(table, name, data):
    start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    ysolde, brandon = combatant(table, "ysolde"), combatant(table, "brandon")
    posted = {"attacker": ysolde.pk, "caster": ysolde.pk, "combatant": ysolde.pk}
    posted |= {"target": brandon.pk, "kind": "physical", "count": 1, **data}
    response = table["client"].post(url(name, encounter), posted, **HTMX)
    assert NO_VERSION in said(response), name
    unchanged(encounter)
