"""Every console request runs a fixed number of queries, however big the fight and its log."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter, Event
from tests.compendium.factories import EwSpecialtyFactory, EwWeaponFactory
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


@pytest.mark.parametrize(("combatants", "log_lines"), [(3, 5), (20, 500)])
def test_attack_step_query_count_is_pinned(
    client, django_assert_num_queries, combatants, log_lines
):
    encounter, gm, _ = fight(combatants=combatants, log_lines=log_lines)
    client.force_login(gm)
    data = attack_data(encounter)
    # 6 (budget: 6), and a savepoint opened and released around the step: the user; the
    # encounter locked with the membership checked and the two fighters with their sheets
    # locked, one query; save the attacker's and the defender's round state (one query), the
    # defender's sheet, append the event, bump the encounter's and the campaign's versions
    # (one query). Fists and no specialty: no gear to read. The answer renders from memory.
    with django_assert_num_queries(6 + 2):
        response = client.post(
            reverse("encounters:ew_attack", args=[encounter.pk]), data, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200
    assert Event.objects.get(encounter=encounter, kind="ew_attack").data["applied"]


def test_an_armed_attack_reads_only_the_posted_gear(client, django_assert_num_queries):
    """A weapon and specialties posted: one query for the weapon among the attacker's, one
    for the two specialties among each fighter's own, whatever else their sheets hold."""
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    data = attack_data(encounter)
    acting, target = encounter.combatants.order_by("position")[:2]
    weapon = EwWeaponFactory()
    acting.character.ew.weapons.add(weapon, EwWeaponFactory())
    rank = acting.character.ew.specialties.create(specialty=EwSpecialtyFactory(), level=2)
    parry = target.character.ew.specialties.create(specialty=EwSpecialtyFactory(), level=1)
    data.update(weapon=weapon.pk, specialty=rank.pk, defence_specialty=parry.pk)
    with django_assert_num_queries(6 + 2 + 2):
        response = client.post(
            reverse("encounters:ew_attack", args=[encounter.pk]), data, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200
    event = Event.objects.get(encounter=encounter, kind="ew_attack")
    assert event.data["weapon"] == weapon.name and event.data["specialty"] == rank.specialty.name


def test_an_attack_with_another_fighters_specialty_is_refused(client):
    """The posted specialty must be on the attacker's own sheet: the scoped lookup does not
    find the defender's, and the refusal stands next to the field, nothing changed."""
    encounter, gm, _ = fight(combatants=3, log_lines=5)
    client.force_login(gm)
    data = attack_data(encounter)
    _acting, target = encounter.combatants.order_by("position")[:2]
    parry = target.character.ew.specialties.create(specialty=EwSpecialtyFactory(), level=1)
    data.update(specialty=parry.pk)
    response = client.post(
        reverse("encounters:ew_attack", args=[encounter.pk]), data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "field-error" in response.text
    assert not Event.objects.filter(encounter=encounter, kind="ew_attack").exists()


def test_the_acting_fighter_is_the_one_whose_position_is_the_turn():
    """``lock_fight`` reads only a step's fighters and tells the acting one by its position:
    initiative numbers the positions in acting order, round after round."""
    encounter, gm, _ = fight(combatants=5, log_lines=0)
    for _ in range(12):  # past two new rounds, each rolling initiative again
        combatants = services.load_combatants(encounter, gear=False)
        assert [c.position for c in combatants] == list(range(5))
        acting = services.acting_combatant(encounter, combatants)
        assert acting.position == encounter.turn
        services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=gm)
        encounter.refresh_from_db()


CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def step_queries(client, name: str, encounter, data: dict) -> int:
    """The queries of one console step besides transaction control."""
    data = {"version": Encounter.objects.get(pk=encounter.pk).version, **data}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse(f"encounters:{name}", args=[encounter.pk]), data, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200 and "field-error" not in response.text
    return sum(1 for q in queries.captured_queries if not q["sql"].startswith(CONTROL))


def _stance(encounter) -> dict:
    acting = encounter.combatants.order_by("position").first()
    return {"combatant": acting.pk, "stance": "total_attack"}


def _test(encounter) -> dict:
    acting = encounter.combatants.order_by("position").first()
    return {"combatant": acting.pk, "na_source": "phy", "nd": 5, "modifier": 0, "face": 3}


# Pinned as they stand (the attack's path is the one made light, above): the user, the
# access read (undo and redo: checked in their lock query), the lock, the fight's rows, the
# step's writes and what the answer reads. A next turn (11, was 13) reads the fight once, in
# its step: the answer draws the rows from it, the view reads no fighter for faces not typed.
@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("next_turn", dict, 11),
        ("ew_stance", _stance, 11),
        ("ew_test", _test, 13),
    ],
)
@pytest.mark.parametrize(("combatants", "log_lines"), [(3, 5), (20, 500)])
def test_other_steps_query_counts_are_pinned(client, name, data, expected, combatants, log_lines):
    encounter, gm, _ = fight(combatants=combatants, log_lines=log_lines)
    client.force_login(gm)
    payload = data(encounter) if data is not dict else {}
    assert step_queries(client, name, encounter, payload) == expected


@pytest.mark.parametrize(("combatants", "log_lines"), [(3, 5), (20, 500)])
def test_undo_and_redo_query_counts_are_pinned(client, combatants, log_lines):
    encounter, gm, _ = fight(combatants=combatants, log_lines=log_lines)
    client.force_login(gm)
    assert step_queries(client, "ew_attack", encounter, attack_data(encounter)) == 6
    # Undo (16, was 19): the user; the encounter locked with the GM checked; the fighters'
    # sheets locked; the step to undo and the one before it (is undo still offered after?);
    # the sheets it wrote, fresh (changed outside the fight since?); its writes (the
    # target's sheet, the two round states, the event marked undone); the undo's event and
    # the versions. The answer: the fight's rows, the acting fighter's latest attack, the
    # two fighters' weapons and specialties (the form's opening choices), the latest roll
    # (the point d'éclat offer). The step undone is not read again, nor the encounter.
    assert step_queries(client, "undo", encounter, {}) == 16
    # Redo (19, was 23): as undo, but finding the step to redo is three queries (the latest
    # other step, the undos and redos since, the step itself), and whether another is left
    # to redo is told from the same chain (it was read again, three queries).
    assert step_queries(client, "redo", encounter, {}) == 19


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
