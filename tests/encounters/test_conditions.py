"""Conditions over HTTP: put in two taps, shown with their rule, weighing on the odds, refused
in French when the input is bad, shown to players only when public, kept on a character or
dropped when the fight ends."""

import re

import pytest
from django.urls import reverse

from apps.characters.models import Character
from apps.encounters import services
from apps.encounters.models import Combatant, Encounter, Event, Status
from tests.encounters.factories import System, started_duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name: str, encounter, *args) -> str:
    return reverse(f"encounters:{name}", args=[encounter.pk, *args])


def _post(client, name: str, encounter, data: dict, **extra):
    encounter.refresh_from_db()
    return client.post(_url(name, encounter), {"version": encounter.version, **data}, **extra)


def _fighters(duel):
    encounter = duel.encounter
    return (
        encounter.combatants.get(character=duel.pc),
        encounter.combatants.get(character=duel.npc),
    )


@pytest.fixture
def duel(client):
    duel = started_duel(system=System.EW, first="pc")
    client.force_login(duel.gm)
    return duel


def test_a_condition_of_the_list_goes_on_in_two_taps(client, duel):
    """Tap 1 opens the row's tools (loaded then), tap 2 is the condition's own button."""
    _pc, npc = _fighters(duel)
    opened = client.get(_url("combatant_tools", duel.encounter, npc.pk), **HTMX)
    assert opened.status_code == 200
    button = re.search(
        r'<button type="submit" name="quick" value="([^"]+)"[^>]*>à terre<', opened.text
    )
    response = _post(
        client,
        "condition_put",
        duel.encounter,
        {"combatant": npc.pk, "quick": button.group(1), "place": "row"},
        **HTMX,
    )
    assert response.status_code == 200
    npc.refresh_from_db()
    [condition] = npc.conditions
    assert condition["label"] == "à terre" and condition["ends"] == "removed"
    assert condition["modifiers"] == {"attack": -2, "defence": -2}
    assert condition["public"] is True  # a listed condition: the players see it
    assert "à terre" in response.text and "jusqu&#x27;à ce qu&#x27;on le retire" in response.text
    assert "Garnier : « à terre », jusqu&#x27;à ce qu&#x27;on le retire." in response.text


def test_the_acting_fighters_condition_weighs_on_its_odds_and_is_named(client, duel):
    pc, _npc = _fighters(duel)
    console = client.get(_url("console", duel.encounter)).text
    before = re.search(r"Chance de toucher <strong>([^<]+)</strong>", console).group(1)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"combatant": pc.pk, "quick": "table:étourdi", "place": "panel"},
        **HTMX,
    )
    console = client.get(_url("console", duel.encounter)).text
    after = re.search(r"Chance de toucher <strong>([^<]+)</strong>", console).group(1)
    assert after != before
    assert 'class="odds-situation">étourdi −2</p>' in console


def test_a_reminder_shows_on_the_acting_fighters_panel_and_in_the_log(client, duel):
    pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {
            "combatant": pc.pk,
            "label": "saigne",
            "duration": "removed",
            "reminder": "1 PV en fin de tour",
            "place": "panel",
        },
        **HTMX,
    )
    _post(client, "next_turn", duel.encounter, {}, **HTMX)
    # Round 2, initiative from physical dice: the PC acts first again.
    faces = {f"face_{pc.pk}": 10, f"face_{npc.pk}": 1}
    _post(client, "next_turn", duel.encounter, faces, **HTMX)
    console = client.get(_url("console", duel.encounter)).text
    assert 'id="reminders"' in console and "Rappel : saigne — 1 PV en fin de tour" in console
    assert "Rappel : saigne — 1 PV en fin de tour." in console  # the turn's log line


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"label": "aveuglé", "duration": "rounds", "rounds": 0},
            "rounds",
            "supérieure ou égale à 1",
        ),
        (
            {"label": "aveuglé", "duration": "rounds", "rounds": 1000},
            "rounds",
            "inférieure ou égale à 99",
        ),
        ({"label": "aveuglé", "duration": "rounds"}, "rounds", "De 1 à 99 rounds."),
        ({"quick": "table:inconnu"}, "quick", "Sélectionnez un choix valide"),
        ({"label": ""}, "label", "Nommez l"),
        ({"label": "x" * 41}, "label", "40 caractères"),
        ({"label": "fou", "mod_attack": 30}, "mod_attack", "inférieure ou égale à 20"),
    ],
)
def test_bad_condition_input_is_refused_next_to_its_field_and_changes_nothing(
    client, duel, data, field, message
):
    _pc, npc = _fighters(duel)
    events = Event.objects.count()
    response = _post(
        client,
        "condition_put",
        duel.encounter,
        {"combatant": npc.pk, "place": "row", **data},
        **HTMX,
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert message in text.replace("&#x27;", "'")
    assert re.search(rf'id="id_c{npc.pk}_{field}_error"|class="field-error"', text)
    npc.refresh_from_db()
    assert npc.conditions == [] and Event.objects.count() == events


def test_a_combatant_of_another_fight_is_refused(client, duel):
    other = started_duel(system=System.EW, first="pc")
    stranger = other.encounter.combatants.first()
    events = Event.objects.count()
    response = _post(
        client,
        "condition_put",
        duel.encounter,
        {"combatant": stranger.pk, "quick": "table:étourdi", "place": "panel"},
        **HTMX,
    )
    assert "Sélectionnez un choix valide" in response.content.decode()
    stranger.refresh_from_db()
    assert stranger.conditions == [] and Event.objects.count() == events


def test_a_condition_removed_twice_is_refused_the_second_time(client, duel):
    _pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"combatant": npc.pk, "quick": "table:à terre", "place": "row"},
        **HTMX,
    )
    removal = {"combatant": npc.pk, "condition": 1}
    _post(client, "condition_remove", duel.encounter, removal, **HTMX)
    npc.refresh_from_db()
    assert npc.conditions == []
    events = Event.objects.count()
    again = _post(client, "condition_remove", duel.encounter, removal, **HTMX)
    assert "Cet état n&#x27;est plus sur Garnier." in again.content.decode()
    assert Event.objects.count() == events


def test_players_see_public_conditions_and_never_an_npcs_numbers(client, duel):
    pc, npc = _fighters(duel)
    put = {"place": "row"}
    _post(
        client,
        "condition_put",
        duel.encounter,
        {**put, "combatant": npc.pk, "quick": "table:à terre"},
        **HTMX,
    )
    _post(
        client,
        "condition_put",
        duel.encounter,
        {**put, "combatant": npc.pk, "label": "maudit en secret"},
        **HTMX,
    )
    _post(
        client,
        "condition_put",
        duel.encounter,
        {**put, "combatant": pc.pk, "quick": "table:étourdi"},
        **HTMX,
    )
    client.force_login(duel.player)
    table = client.get(_url("table", duel.encounter)).content.decode()
    assert "à terre" in table and "étourdi" in table
    assert "maudit en secret" not in table
    assert "−2 à ses attaques et à ses défenses" not in table  # the NPC's modifiers
    assert "−2 à ses attaques, à ses défenses et à ses tests" in table  # the PC's
    sheet = client.get(reverse("characters:detail", args=[duel.pc.pk])).content.decode()
    assert "étourdi" in sheet and "jusqu&#x27;à la fin de son prochain tour" in sheet
    client.force_login(duel.gm)
    console = client.get(_url("console", duel.encounter)).content.decode()
    assert "maudit en secret" in console


def test_a_hidden_npcs_conditions_reach_no_player(client):
    duel = started_duel(system=System.EW, first="pc", npc_hidden=True)
    client.force_login(duel.gm)
    _pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": npc.pk, "quick": "table:aveuglé"},
        **HTMX,
    )
    client.force_login(duel.player)
    table = client.get(_url("table", duel.encounter)).content.decode()
    assert "aveuglé" not in table


def _end(client, encounter):
    _post(client, "end", encounter, {}, **HTMX)
    encounter.refresh_from_db()
    assert encounter.status == Status.FINISHED


def test_after_the_fight_a_kept_condition_goes_on_the_sheet_and_into_the_next_fight(client, duel):
    pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {
            "place": "row",
            "combatant": pc.pk,
            "label": "bras en écharpe",
            "mod_attack": -1,
            "public": "1",
        },
        **HTMX,
    )
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": npc.pk, "quick": "table:à terre"},
        **HTMX,
    )
    _end(client, duel.encounter)
    console = client.get(_url("console", duel.encounter)).content.decode()
    assert 'id="summary-conditions"' in console and "bras en écharpe" in console
    after = _url("condition_after", duel.encounter)
    client.post(after, {"combatant": pc.pk, "condition": 1, "decision": "keep"}, **HTMX)
    client.post(after, {"combatant": npc.pk, "condition": 1, "decision": "drop"}, **HTMX)
    again = client.post(after, {"combatant": pc.pk, "condition": 1, "decision": "keep"}, **HTMX)
    assert "Cet état a déjà été gardé ou laissé." in again.content.decode()
    character = Character.objects.get(pk=duel.pc.pk)
    assert [c["label"] for c in character.conditions] == ["bras en écharpe"]
    assert Character.objects.get(pk=duel.npc.pk).conditions == []
    client.force_login(duel.player)
    sheet = client.get(reverse("characters:detail", args=[duel.pc.pk])).content.decode()
    assert "bras en écharpe" in sheet

    # The next fight starts with it, and it weighs there as it did.
    client.force_login(duel.gm)
    encounter = Encounter.objects.create(campaign=duel.encounter.campaign, name="Revanche")
    services.combatants_add(encounter_id=encounter.pk, characters=[duel.pc, duel.npc])
    services.encounter_start(encounter_id=encounter.pk, version=None, by=duel.gm)
    fighter = Combatant.objects.get(encounter=encounter, character=duel.pc)
    assert [(c["label"], c["modifiers"]) for c in fighter.conditions] == [
        ("bras en écharpe", {"attack": -1})
    ]
    assert Character.objects.get(pk=duel.pc.pk).conditions == []


def test_reopening_a_fight_takes_back_what_its_end_kept(client, duel):
    pc, _npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": pc.pk, "quick": "table:étourdi"},
        **HTMX,
    )
    _end(client, duel.encounter)
    client.post(
        _url("condition_after", duel.encounter),
        {"combatant": pc.pk, "condition": 1, "decision": "keep"},
        **HTMX,
    )
    assert Character.objects.get(pk=duel.pc.pk).conditions
    _post(client, "reopen", duel.encounter, {}, **HTMX)
    assert Character.objects.get(pk=duel.pc.pk).conditions == []
    pc.refresh_from_db()
    assert [c["label"] for c in pc.conditions] == ["étourdi"]  # still on the fighter


def test_putting_a_condition_costs_a_fixed_number_of_queries(
    client, duel, django_assert_max_num_queries
):
    _pc, npc = _fighters(duel)
    with django_assert_max_num_queries(30):
        _post(
            client,
            "condition_put",
            duel.encounter,
            {"place": "row", "combatant": npc.pk, "quick": "table:à terre"},
            **HTMX,
        )


def test_an_aethoria_fighter_encumbered_dodges_with_the_rules_malus(client):
    duel = started_duel(system=System.AETHORIA, first="pc")
    client.force_login(duel.gm)
    pc, npc = _fighters(duel)
    query = {
        "version": duel.encounter.version,
        "attacker": pc.pk,
        "target": npc.pk,
        "mode": "attack",
        "defence": "dodge",
        "modifier": 0,
    }
    weapon = duel.pc.aethoria.weapons.first()
    query["weapon"] = weapon.pk
    before = client.get(_url("aethoria_attack_odds", duel.encounter), query, **HTMX).text
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": npc.pk, "quick": "encombre"},
        **HTMX,
    )
    query["version"] = Encounter.objects.get(pk=duel.encounter.pk).version
    after = client.get(_url("aethoria_attack_odds", duel.encounter), query, **HTMX).text
    dodge = re.compile(r"contre (\d+) d10 ≤ \d+, esquive")
    assert int(dodge.search(after).group(1)) == int(dodge.search(before).group(1)) - 2


def test_a_modifier_typed_replaces_only_that_roll_of_the_lists_condition(client, duel):
    _pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": npc.pk, "kind": "table:à terre", "mod_attack": -1},
        **HTMX,
    )
    npc.refresh_from_db()
    assert npc.conditions[0]["modifiers"] == {"attack": -1, "defence": -2}


def test_an_initiative_modifier_weighs_on_the_next_rounds_order(client, duel):
    pc, npc = _fighters(duel)
    _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": pc.pk, "label": "engourdi", "mod_initiative": -5},
        **HTMX,
    )
    _post(client, "next_turn", duel.encounter, {}, **HTMX)
    # Round 2, same faces for both: the PC's −5 puts the NPC first.
    _post(client, "next_turn", duel.encounter, {f"face_{pc.pk}": 6, f"face_{npc.pk}": 6}, **HTMX)
    pc.refresh_from_db()
    npc.refresh_from_db()
    assert pc.initiative == npc.initiative - 5
    assert (npc.position, pc.position) == (0, 1)


def test_the_panels_form_is_for_the_acting_fighters_target_first(client, duel):
    _pc, npc = _fighters(duel)
    panel = client.get(_url("condition_form", duel.encounter), **HTMX).content.decode()
    assert f'<option value="{npc.pk}" selected>Garnier</option>' in panel
    assert 'name="place" value="panel"' in panel


def test_a_refused_condition_shows_again_in_its_rows_tools(client, duel):
    _pc, npc = _fighters(duel)
    response = _post(
        client,
        "condition_put",
        duel.encounter,
        {"place": "row", "combatant": npc.pk, "label": "", "kind": ""},
        **HTMX,
    )
    start = response.text.index(f'<li id="combatant-{npc.pk}"')
    row = response.text[start : response.text.find('<li id="combatant-', start + 1)]
    assert '<details class="gm-tools" open>' in row and "Nommez l" in row
