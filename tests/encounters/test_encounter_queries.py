"""Every console request runs a fixed number of queries, however big the fight and its log."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter, Event
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db


def fight(combatants: int, log_lines: int):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    people = [ew_fighter(campaign, "Brandon", owner=player)]
    people += [ew_fighter(campaign, f"Sbire {n}") for n in range(combatants - 1)]
    encounter = Encounter.objects.create(campaign=campaign, name="Mêlée")
    services.combatants_add(encounter_id=encounter.pk, characters=people)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    Event.objects.bulk_create(
        Event(
            encounter=encounter,
            sequence=100 + n,
            kind="ew_stance",
            round=1,
            data={"name": "Sbire", "stance": "total_attack"},
        )
        for n in range(log_lines)
    )
    Encounter.objects.filter(pk=encounter.pk).update(last_sequence=100 + log_lines)
    encounter.refresh_from_db()
    return encounter, gm, player


def count(client, method, url, data=None):
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, data or {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]
    return len(queries)


def attack_data(encounter):
    acting, target = encounter.combatants.order_by("position")[:2]
    return {
        "version": encounter.version,
        "attacker": acting.pk,
        "target": target.pk,
        "defence": "active",
        "modifier": 0,
        "to_hit_face": 1,
        "damage_face": 5,
    }


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("console", "get"),
        ("table", "get"),
        ("ew_attack_odds", "get"),
        ("ew_attack", "post"),
        ("next_turn", "post"),
        ("undo", "post"),
        ("pause", "post"),
        ("ew_test_odds", "get"),
    ],
)
def test_queries_do_not_grow_with_combatants_or_log_lines(client, name, method):
    counts = []
    for encounter, gm, _ in (fight(3, 5), fight(20, 500)):
        client.force_login(gm)
        data = (
            attack_data(encounter)
            if name.startswith("ew_attack")
            else {"version": encounter.version}
        )
        counts.append(
            count(client, method, reverse(f"encounters:{name}", args=[encounter.pk]), data)
        )
    assert counts[0] == counts[1], counts


def test_console_query_count_is_pinned(client, django_assert_num_queries):
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    # user, encounter with campaign, combatants with sheets, the weapons and specialties of
    # the attack form's two fighters, the log's latest lines, "can undo?" and two for "can
    # redo?" (however far back), the latest roll (a point d'éclat could save it, its result
    # shows under its button), the acting fighter's latest attack (its choices are the form's
    # opening ones); the odds read the loaded combatants; the reinforcements' two lists
    # (the campaign's characters not in the fight, the NPCs to copy).
    with django_assert_num_queries(13):
        client.get(reverse("encounters:console", args=[encounter.pk]), HTTP_HX_REQUEST="true")


def test_table_view_query_count_is_pinned(client, django_assert_num_queries):
    """Every phone following the fight fetches it again after each step: names and pools
    only, never the fighters' weapons or specialties."""
    encounter, _gm, player = fight(combatants=20, log_lines=500)
    client.force_login(player)
    # user, encounter with campaign and the viewer's role, combatants with sheets, the last
    # few public actions.
    with django_assert_num_queries(4):
        client.get(reverse("encounters:table", args=[encounter.pk]), HTTP_HX_REQUEST="true")


def test_attack_step_query_count_is_pinned(client, django_assert_num_queries):
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    data = attack_data(encounter)
    # Reading (5): user, encounter, combatants with sheets, their weapons, their specialties.
    # The step (6, and a savepoint opened and released around it): lock the encounter, lock
    # the two fighters with their sheets and read their pools fresh, save the attacker's and
    # the defender's round state (one query), the defender's sheet, append the event, bump
    # the encounter's and the campaign's versions (one query). The answer renders from
    # memory: no query.
    with django_assert_num_queries(5 + 6 + 2):
        response = client.post(
            reverse("encounters:ew_attack", args=[encounter.pk]), data, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200


def _tool(encounter, name):
    """The URL and data of a GM tool on the second fighter of the order."""
    second = encounter.combatants.order_by("position")[1]
    data = {"version": encounter.version}
    if name == "combatant_correct_pool":
        data.update(pool="superficial_left", value=3, reason="coup oublié")
    if name == "reinforce":
        # The arrival rolls a 1 against the others' 10s: it comes last, nobody else moves
        # (a place that changes costs one more query, for all the places moved at once).
        encounter.combatants.update(initiative_roll=10)
        spare = ew_fighter(encounter.campaign, "Renfort")
        data["character"] = spare.pk
        return reverse("encounters:reinforce", args=[encounter.pk]), data
    return reverse(f"encounters:{name}", args=[encounter.pk, second.pk]), data


@pytest.fixture
def arrival_rolls_one(monkeypatch):
    monkeypatch.setattr("apps.encounters.tools.secrets.randbelow", lambda sides: 0)


@pytest.mark.parametrize("name", ["reinforce", "combatant_withdraw", "combatant_correct_pool"])
@pytest.mark.usefixtures("arrival_rolls_one")
def test_gm_tool_steps_do_not_grow_with_combatants_or_log_lines(client, name):
    counts = []
    for encounter, gm, _ in (fight(3, 5), fight(20, 500)):
        client.force_login(gm)
        url, data = _tool(encounter, name)
        counts.append(count(client, "post", url, data))
    assert counts[0] == counts[1], counts


def test_pool_correction_step_query_count_is_pinned(client, django_assert_num_queries):
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    url, data = _tool(encounter, "combatant_correct_pool")
    # Reading (3): user, encounter, the fighter with its sheet. The step (6, and a savepoint
    # opened and released around it): lock the encounter, the fighter with its sheet, lock
    # the sheet and read its pools fresh, save the sheet, append the event, bump the
    # versions. The answer is a fragment — the row, the log line and the actions panel,
    # whose odds read the pools (an EW wound malus): the fight, the acting fighter's last
    # attack, the weapons and specialties of the attack form, the latest roll (5).
    with django_assert_num_queries(3 + 6 + 2 + 5):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'hx-swap-oob="true"' in response.text and 'id="console"' not in response.text


@pytest.mark.usefixtures("arrival_rolls_one")
def test_reinforcement_step_query_count_is_pinned(client, django_assert_num_queries):
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    url, data = _tool(encounter, "reinforce")
    # An arrival changes the order: the whole console is drawn again (its 13 queries after
    # the user's), after reading the form (encounter, its two lists) and the step: lock the
    # encounter, the fight, the arrival's row (looked for, then made), read it with its
    # sheet, its place and state, the event, the versions — the same whatever the size of
    # the fight.
    with django_assert_num_queries(26):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
