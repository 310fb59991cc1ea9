"""Hidden things stay hidden; other screens learn about changes cheaply; no lost update."""

import threading

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from apps.characters.models import Character
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.encounters.steps import StaleVersion, lock_encounter
from apps.systems.ew.sheet_spend import eclat_spend
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.submissions import once

HTMX = {"HTTP_HX_REQUEST": "true"}


def setup_fight(hidden_npc=True):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    brandon = ew_fighter(campaign, "Brandon", owner=player)
    ysolde = ew_fighter(campaign, "Ysolde")
    lurker = ew_fighter(campaign, "Le Rôdeur")
    encounter = Encounter.objects.create(campaign=campaign, name="Nuit")
    services.combatants_add(encounter_id=encounter.pk, characters=[brandon, ysolde])
    services.combatants_add(encounter_id=encounter.pk, characters=[lurker], hidden=hidden_npc)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    return encounter, gm, player


@pytest.mark.django_db
def test_the_table_view_never_contains_hidden_combatants_or_npc_numbers(client):
    encounter, _gm, player = setup_fight()
    client.force_login(player)
    html = client.get(reverse("encounters:table", args=[encounter.pk])).text
    assert "Le Rôdeur" not in html
    assert "Ysolde" in html
    # The PC's pools are shown with numbers; the NPC's only as words.
    ysolde_block = html.split("Ysolde", 1)[1].split("</li>", 1)[0]
    assert "<meter" not in ysolde_block and "/ 24" not in ysolde_block
    assert "indemne" in ysolde_block
    assert "<meter" in html.split("Brandon", 1)[1].split("</li>", 1)[0]


@pytest.mark.django_db
def test_revealing_a_combatant_shows_it_to_players(client):
    encounter, gm, player = setup_fight()
    lurker = encounter.combatants.get(character__name="Le Rôdeur")
    client.force_login(gm)
    client.post(
        reverse("encounters:combatant_visibility", args=[encounter.pk, lurker.pk]),
        {"version": encounter.version, "hidden": "0"},
        HTTP_HX_REQUEST="true",
    )
    client.force_login(player)
    assert "Le Rôdeur" in client.get(reverse("encounters:table", args=[encounter.pk])).text


@pytest.mark.django_db
def test_the_idle_check_costs_two_queries_and_answers_204(client, django_assert_num_queries):
    encounter, gm, player = setup_fight()
    client.force_login(player)
    check = reverse("encounters:changes", args=[encounter.pk])
    with django_assert_num_queries(2):
        response = client.get(check, {"v": encounter.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=gm)
    response = client.get(check, {"v": encounter.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "encounter-changed" in response["HX-Trigger"]


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_actions_on_one_version_one_wins_the_other_is_stale():
    encounter, gm, _player = setup_fight(hidden_npc=False)
    version = encounter.version
    results = []
    barrier = threading.Barrier(2)

    def act():
        try:
            barrier.wait()
            services.encounter_next_turn(encounter_id=encounter.pk, version=version, by=gm)
            results.append("ok")
        except StaleVersion:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=act) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok", "stale"]
    encounter.refresh_from_db()
    assert encounter.turn == 1 and encounter.version == version + 1


@pytest.mark.django_db(transaction=True)
def test_the_second_of_two_concurrent_http_clicks_gets_409():
    encounter, gm, _player = setup_fight(hidden_npc=False)
    url = reverse("encounters:next_turn", args=[encounter.pk])
    statuses = []
    barrier = threading.Barrier(2)

    def click():
        client = Client()
        client.force_login(gm)
        barrier.wait()
        statuses.append(
            client.post(url, {"version": encounter.version}, HTTP_HX_REQUEST="true").status_code
        )
        connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    assert Encounter.objects.get(pk=encounter.pk).events.filter(kind="next_turn").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_step_locks_the_fighters_rows_so_a_sheet_spend_waits_for_it():
    """A player spending éclat on their sheet at the moment the GM applies a blow must not
    lose either change: the step holds the characters' rows until it commits."""
    encounter, _gm, player = setup_fight(hidden_npc=False)
    brandon = Character.objects.get(name="Brandon")
    order = []
    locked = threading.Event()

    def step():
        with transaction.atomic():
            locked_encounter = lock_encounter(encounter.pk)
            locked.set()
            sheet = brandon.ew
            sheet.refresh_from_db()
            sheet.superficial_left -= 5
            threading.Event().wait(0.5)  # the player presses "spend" meanwhile
            sheet.save(update_fields=["superficial_left"])
            order.append(("step", locked_encounter.pk))
        connection.close()

    def spend():
        locked.wait(5)
        eclat_spend(character=Character.objects.get(pk=brandon.pk), by=player, note="")
        order.append(("spend", brandon.pk))
        connection.close()

    threads = [threading.Thread(target=step), threading.Thread(target=spend)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [kind for kind, _ in order] == ["step", "spend"]
    brandon.ew.refresh_from_db()
    assert (brandon.ew.superficial_left, brandon.ew.eclat) == (24 - 5, 2)


@pytest.mark.django_db
def test_an_attack_applies_its_damage_to_pools_changed_since_the_form_was_loaded():
    """The console's form loaded the fight; then the target's sheet changed elsewhere (a
    rest, a spend). The step reads the two fighters' pools again under its lock, so the
    blow lands on the current numbers and the other change is not written over."""
    from apps.characters.models import EwSheet
    from apps.systems.ew import combat as ew_services

    encounter, gm, _player = setup_fight(hidden_npc=False)
    combatants = services.load_combatants(encounter)
    attacker = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != attacker.pk)
    EwSheet.objects.filter(pk=target.character_id).update(superficial_left=10, eclat=0)

    ew_services.ew_attack(
        encounter_id=encounter.pk,
        version=encounter.version,
        by=gm,
        choice=ew_services.AttackChoice(attacker_id=attacker.pk, target_id=target.pk),
        to_hit_face=1,
        damage_face=10,
    )
    sheet = EwSheet.objects.get(pk=target.character_id)
    applied = encounter.events.get(kind="ew_attack").data["applied"]
    assert sheet.superficial_left == 10 - applied["superficial"] > 0
    assert sheet.eclat == 0


def _versions(encounter) -> tuple[int, int]:
    encounter = Encounter.objects.select_related("campaign").get(pk=encounter.pk)
    return encounter.version, encounter.campaign.version


def _attack(encounter, gm, face: int):
    from apps.systems.ew.combat import AttackChoice, ew_attack

    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk and not c.hidden)
    ew_attack(
        encounter_id=encounter.pk,
        version=None,
        by=gm,
        choice=AttackChoice(attacker_id=acting.pk, target_id=target.pk),
        to_hit_face=face,
        damage_face=5,
    )


@pytest.mark.django_db
def test_only_steps_shown_outside_the_fight_wake_the_campaigns_screens():
    """Sheets and the campaign page follow the campaign's version: a turn passed or a miss
    changes nothing they show and leaves it alone; a blow that lands, its undo, a new round
    (the fight's banner shows it) and a pause move it. The table view follows every step."""
    encounter, gm, _player = setup_fight(hidden_npc=False)

    def plain(service):
        return lambda: service(encounter_id=encounter.pk, version=None, by=gm)

    undo, redo = plain(services.encounter_undo), plain(services.encounter_redo)
    next_turn = plain(services.encounter_next_turn)
    cases = [
        ("a miss", lambda: _attack(encounter, gm, 20), False),
        ("its undo", undo, False),
        ("a hit", lambda: _attack(encounter, gm, 1), True),
        ("its undo", undo, True),
        ("its redo", redo, True),
        ("a turn", next_turn, False),
        ("a turn", next_turn, False),
        ("a new round", next_turn, True),
        ("a pause", plain(services.encounter_pause), True),
    ]
    for name, step, shown in cases:
        before = _versions(encounter)
        step()
        after = _versions(encounter)
        assert after[0] == before[0] + 1, name
        assert after[1] == before[1] + (1 if shown else 0), name


@pytest.mark.django_db
def test_a_spend_from_a_sheet_wakes_the_screens_of_the_fights_the_character_is_in(client):
    """A player spends a point d'éclat on their sheet while the fight runs: the console and
    the table view, which follow the encounter's version, refresh within their next check,
    and a GM's step made on the console as it was is refused as stale."""
    encounter, gm, player = setup_fight(hidden_npc=False)
    brandon = Character.objects.get(name="Brandon")
    later = Encounter.objects.create(campaign=encounter.campaign, name="Plus tard")
    services.combatants_add(encounter_id=later.pk, characters=[brandon])  # being prepared
    later.refresh_from_db()
    check = reverse("encounters:changes", args=[encounter.pk])
    client.force_login(player)
    assert client.get(check, {"v": encounter.version}, **HTMX).status_code == 204

    spend = client.post(
        reverse("characters:eclat_spend", args=[brandon.pk]),
        once({"note": "chance", "confirmed": "1"}),
        **HTMX,
    )
    assert spend.status_code == 200
    response = client.get(check, {"v": encounter.version}, **HTMX)
    assert response.status_code == 200 and response["HX-Trigger"] == "encounter-changed"
    client.force_login(gm)
    step = reverse("encounters:next_turn", args=[encounter.pk])
    assert client.post(step, {"version": encounter.version}, **HTMX).status_code == 409
    # A fight still being prepared shows no pools in play: left alone.
    assert Encounter.objects.get(pk=later.pk).version == later.version
