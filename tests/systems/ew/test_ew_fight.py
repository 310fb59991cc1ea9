"""A whole EW fight driven through HTTP with typed (physical) dice, then undone to the start."""

import re

import pytest
from django.urls import reverse

from apps.characters import services as character_services
from apps.encounters.kit import EncounterError, check_not_changed_outside
from apps.encounters.models import Encounter, Event, Status
from apps.systems.ew.sheet_spend import eclat_spend
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    # Brandon: PHY 8 PER 8 -> com 8, ND 2; épée +2 -> impact 2 + 2 = 4; specialty 2.
    brandon = ew_fighter(campaign, "Brandon", owner=player)
    # Ysolde: PHY 6 PER 6 -> com 6, natural defence 1, PV 18, armour 1.
    ysolde = ew_fighter(campaign, "Ysolde", phy=6, men=7, per=6, pre=9, armour=1)
    encounter = Encounter.objects.create(campaign=campaign, name="Embuscade")
    client.force_login(gm)
    return {
        "campaign": campaign,
        "gm": gm,
        "brandon": brandon,
        "ysolde": ysolde,
        "encounter": encounter,
        "client": client,
    }


def url(name, encounter, *args):
    return reverse(f"encounters:{name}", args=[encounter.pk, *args])


def post(client, name, encounter, data=None, **extra):
    encounter.refresh_from_db()
    payload = {"version": encounter.version, **(data or {})}
    return client.post(url(name, encounter), payload, **HTMX, **extra)


def attack_data(attacker, target, to_hit, damage, **extra):
    """The attack form as the console posts it: bare fists, no active defence by default."""
    data = {"attacker": attacker.pk, "target": target.pk, "defence": "none", "modifier": 0}
    return {**data, "to_hit_face": to_hit, "damage_face": damage, **extra}


def combatant(encounter, character):
    return encounter.combatants.get(character=character)


def sheets(table):
    b, y = table["brandon"].ew, table["ysolde"].ew
    b.refresh_from_db()
    y.refresh_from_db()
    return (b.superficial_left, b.lethal_left, b.eclat), (
        y.superficial_left,
        y.lethal_left,
        y.eclat,
    )


def start(table, brandon_face=9, ysolde_face=2):
    client, encounter = table["client"], table["encounter"]
    response = post(
        client,
        "combatants_add",
        encounter,
        {"characters": [table["brandon"].pk, table["ysolde"].pk]},
    )
    assert response.status_code == 200
    b, y = combatant(encounter, table["brandon"]), combatant(encounter, table["ysolde"])
    response = post(
        client, "start", encounter, {f"face_{b.pk}": brandon_face, f"face_{y.pk}": ysolde_face}
    )
    assert response.status_code == 200, response.text
    encounter.refresh_from_db()
    return b, y


def test_start_rolls_initiative_with_typed_dice_and_orders_by_total(table):
    b, y = start(table)
    b.refresh_from_db()
    y.refresh_from_db()
    assert (b.initiative, y.initiative) == (9 + 8, 2 + 6)
    assert (b.position, y.position) == (0, 1)
    encounter = table["encounter"]
    assert (encounter.status, encounter.round, encounter.turn) == (Status.RUNNING, 1, 0)
    start_event = encounter.events.get(kind="start")
    assert start_event.dice == "physical"


def test_attack_with_physical_dice_hits_and_applies_both_pools(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    weapon = table["brandon"].ew.weapons.get()
    rank = table["brandon"].ew.specialties.get()
    # NA 8 + 2 = 10 against Ysolde's natural defence 1: score clamp(10+10-1) = 19.
    response = post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 14, 4, weapon=weapon.pk, specialty=rank.pk),
    )
    assert response.status_code == 200, response.text
    event = encounter.events.get(kind="ew_attack")
    assert event.dice == "physical"
    assert event.data["to_hit"]["score"] == 19 and event.data["to_hit"]["success"]
    # superficial 4 - 1 = 3; lethal impact (8/4 + 2) - armour 1 = 3.
    assert sheets(table)[1] == (18 - 3, 18 - 3, 3)
    assert "Brandon attaque Ysolde" in response.text
    assert "14 ≤ 19, touché" in response.text, re.findall("Brandon attaque[^<]*", response.text)


def test_the_same_click_twice_is_refused_as_stale(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    encounter.refresh_from_db()
    data = {"version": encounter.version, **attack_data(b, y, 1, 10)}
    first = client.post(url("ew_attack", encounter), data, **HTMX)
    second = client.post(url("ew_attack", encounter), data, **HTMX)
    assert first.status_code == 200
    assert second.status_code == 409
    assert encounter.events.filter(kind="ew_attack").count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("to_hit_face", 21, "Un d20 donne de 1 à 20"),
        ("to_hit_face", 0, "Un d20 donne de 1 à 20"),
        ("damage_face", 11, "Un d10 donne de 1 à 10"),
    ],
)
def test_a_face_outside_the_die_is_refused_next_to_the_field(table, field, value, message):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    before = sheets(table), encounter.events.count()
    data = attack_data(b, y, 5, 5, **{field: value})
    response = post(client, "ew_attack", encounter, data)
    assert response.status_code == 200
    # Once, next to the field: the odds box under the form does not say it again.
    assert response.text.count(message) == 1
    assert (sheets(table), encounter.events.count()) == before


def test_only_the_acting_combatant_may_attack(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    before = sheets(table), encounter.events.count()
    response = post(
        client,
        "ew_attack",
        encounter,
        attack_data(y, b, 1, 10),
    )
    assert "Ce n&#x27;est pas son tour" in response.text or "pas son tour" in response.text
    assert (sheets(table), encounter.events.count()) == before


def test_a_dead_target_cannot_be_attacked(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    sheet = table["ysolde"].ew
    sheet.lethal_left = 0
    sheet.save()
    response = post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 1, 10),
    )
    assert "déjà mort" in response.text
    assert not encounter.events.filter(kind="ew_attack").exists()


def test_active_defence_uses_the_defence_and_a_second_one_costs_four(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    attack = attack_data(b, y, 20, 1, defence="active")
    post(client, "ew_attack", encounter, attack)
    first = encounter.events.filter(kind="ew_attack").first()
    # ND = Ysolde's com 6 + 0 specialty; second attack: Brandon -4, Ysolde's 2nd defence -4.
    assert first.data["to_hit"]["nd"] == 6
    post(client, "ew_attack", encounter, attack)
    second = encounter.events.filter(kind="ew_attack").first()
    assert second.data["to_hit"]["modifier"] == -4
    assert second.data["to_hit"]["nd"] == 6 - 4


def test_full_fight_then_undo_everything_restores_the_start(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    start_state = sheets(table)
    encounter.refresh_from_db()
    start_position = (encounter.round, encounter.turn)
    hit = attack_data(b, y, 2, 10)
    post(client, "ew_attack", encounter, hit)
    post(client, "next_turn", encounter)
    post(
        client,
        "ew_attack",
        encounter,
        attack_data(y, b, 20, 1),
    )
    # The miss of Ysolde (an NPC) cannot be rescued; a new round rerolls initiative.
    post(client, "next_turn", encounter, {f"face_{b.pk}": 1, f"face_{y.pk}": 10})
    encounter.refresh_from_db()
    assert encounter.round == 2
    assert sheets(table) != start_state
    undos = 0
    while post(client, "undo", encounter).status_code == 200 and undos < 20:
        encounter.refresh_from_db()
        undos += 1
        if (
            not Event.objects.filter(encounter=encounter, undone=False)
            .exclude(kind__in=["start", "undo", "redo"])
            .exists()
        ):
            break
    encounter.refresh_from_db()
    assert undos == 4
    assert sheets(table) == start_state
    assert (encounter.round, encounter.turn) == start_position
    # Nothing left to undo: a clear message, nothing changed.
    response = post(client, "undo", encounter)
    assert "Rien à annuler" in response.text
    # Redo brings the first blow back exactly.
    post(client, "redo", encounter)
    # Bare fists: superficial 10 - 1 = 9; lethal PHY 8 / 4 = 2 - armour 1 = 1.
    assert sheets(table)[1] == (start_state[1][0] - 9, start_state[1][1] - 1, 3)


def test_eclat_turns_a_players_miss_into_a_hit(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 20, 3),
    )
    miss = encounter.events.get(kind="ew_attack")
    assert not miss.data["to_hit"]["success"]
    response = post(client, "ew_eclat", encounter, {"event": miss.pk, "damage_face": 6})
    assert response.status_code == 200
    (_, _, eclat), ysolde = sheets(table)
    assert eclat == 2
    # Bare fists: superficial 6 - 1 = 5; lethal 8 / 4 = 2 - armour 1 = 1.
    assert ysolde[:2] == (18 - 5, 18 - 1)
    # Only once.
    response = post(client, "ew_eclat", encounter, {"event": miss.pk, "damage_face": 6})
    assert "déjà été sauvé" in response.text
    assert sheets(table)[0][2] == 2


def test_a_bad_damage_face_in_the_eclat_card_is_said_next_to_it_and_nothing_changes(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(client, "ew_attack", encounter, attack_data(b, y, 20, 3))
    miss = encounter.events.get(kind="ew_attack")
    before = sheets(table), encounter.events.count()
    response = post(client, "ew_eclat", encounter, {"event": miss.pk, "damage_face": 11})
    card = response.text[response.text.index('id="ew-eclat"') :]
    assert re.search(r'id="id_eclat_damage_face_error">[^<]*10', card)
    assert 'value="11"' in card  # what the GM typed, to correct
    assert (sheets(table), encounter.events.count()) == before


def test_no_rescue_is_offered_at_0_eclat(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    table["brandon"].ew.__class__.objects.filter(pk=table["brandon"].ew.pk).update(eclat=0)
    response = post(client, "ew_attack", encounter, attack_data(b, y, 20, 3))
    assert "pour réussir malgré ce jet raté" not in response.text
    page = client.get(url("console", encounter), **HTMX).text
    assert "pour réussir malgré ce jet raté" not in page


def test_an_active_defence_the_rules_refuse_is_offered_disabled_with_the_reason(table):
    _b, y = start(table, brandon_face=2, ysolde_face=9)
    client, encounter = table["client"], table["encounter"]
    response = post(client, "ew_stance", encounter, {"combatant": y.pk, "stance": "total_attack"})
    assert response.status_code == 200
    post(client, "next_turn", encounter)  # Brandon attacks Ysolde, in total attack
    page = client.get(url("console", encounter), **HTMX).text
    defence = page[page.index('id="ew-defence"') :]
    defence = defence[: defence.index("</fieldset>")]
    assert re.search(r'value="active"[^>]*disabled', defence)
    assert "En attaque totale, le personnage ne peut pas se défendre ce round." in defence
    assert re.search(r'value="none"[^>]*checked', defence)


def test_odds_are_shown_before_the_roll(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    response = client.get(
        url("ew_attack_odds", encounter),
        {
            "version": encounter.version,
            "attacker": b.pk,
            "target": y.pk,
            "defence": "none",
            "modifier": 0,
        },
        **HTMX,
    )
    assert response.status_code == 200
    # NA 8 (no specialty chosen) vs ND 1: score 17 -> 85 %.
    assert "85 %" in response.text


def test_the_characters_to_add_list_the_party_first_each_marked_pc_or_npc(table):
    import re

    client, encounter = table["client"], table["encounter"]
    response = client.get(url("console", encounter))
    # Brandon is the PC (of the player), Ysolde an NPC: the party comes first.
    found = re.findall(
        r'name="characters"[^>]*> (\w+) <span class="tag">(\w+)</span>', response.text
    )
    assert found == [("Brandon", "PJ"), ("Ysolde", "PNJ")]


def test_npcs_from_a_template_join_the_fight_being_prepared(table):
    from apps.characters.models import Character

    client, encounter = table["client"], table["encounter"]
    template = table["ysolde"]
    Character.objects.filter(pk=template.pk).update(is_template=True)
    response = post(
        client,
        "combatants_from_template",
        encounter,
        {"template": template.pk, "count": 3, "hidden": "on"},
    )
    assert response.status_code == 200
    names = sorted(encounter.combatants.values_list("character__name", flat=True))
    assert names == ["Ysolde 1", "Ysolde 2", "Ysolde 3"]
    assert all(encounter.combatants.values_list("hidden", flat=True))
    response = post(
        client, "combatants_from_template", encounter, {"template": template.pk, "count": 21}
    )
    assert "20" in response.text and encounter.combatants.count() == 3


def test_the_end_summary_and_xp_for_the_pcs_in_one_step(table):
    from apps.campaigns.models import LogEntry

    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 1, 10),
    )
    response = post(client, "end", encounter)
    assert "Bilan du combat" in response.text
    assert "−9 points superficiels" in response.text
    assert LogEntry.objects.filter(campaign=table["campaign"], kind="encounter").exists()
    response = post(client, "award_xp", encounter, {"amount": 3, "reason": "Le gué"})
    assert table["brandon"].xp_balance() == 3
    assert table["ysolde"].xp_balance() == 0  # an NPC gets none
    response = post(client, "award_xp", encounter, {"amount": 3, "reason": "Encore"})
    assert table["brandon"].xp_balance() == 3
    # After the end, undo no longer applies.
    assert "Impossible maintenant" in post(client, "undo", encounter).text


def test_a_fight_ended_too_soon_is_reopened_at_the_same_turn(table):
    from apps.campaigns.models import LogEntry

    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(client, "ew_attack", encounter, attack_data(b, y, 1, 10))
    post(client, "next_turn", encounter)
    encounter.refresh_from_db()
    where = (encounter.round, encounter.turn)
    wounded = sheets(table)
    post(client, "end", encounter)
    assert "Rouvrir le combat" in post(client, "pause", encounter).text  # refused, still shown

    response = post(client, "reopen", encounter)

    encounter.refresh_from_db()
    assert (encounter.status, encounter.round, encounter.turn) == (Status.RUNNING, *where)
    assert encounter.ended_at is None and encounter.summary == {}
    assert encounter.events.get(kind="end").undone
    assert "Combat rouvert par le MJ." in response.text and "Tour suivant" in response.text
    assert LogEntry.objects.filter(text="Rencontre « Embuscade » rouverte.").exists()
    assert sheets(table) == wounded
    # Undo goes on from the step before the end; redo has nothing to bring back.
    post(client, "undo", encounter)
    post(client, "undo", encounter)
    assert sheets(table)[1] == (18, 18, 3)
    # Ended again: a new summary, and the XP can be given once.
    post(client, "end", encounter)
    post(client, "award_xp", encounter, {"amount": 2, "reason": "Le gué"})
    assert table["brandon"].xp_balance() == 2


def test_a_fight_that_gave_its_xp_is_not_reopened(table):
    start(table)
    client, encounter = table["client"], table["encounter"]
    post(client, "end", encounter)
    post(client, "award_xp", encounter, {"amount": 2, "reason": "Le gué"})
    response = post(client, "reopen", encounter)
    assert "Ce combat a déjà donné son XP" in response.text
    assert "Rouvrir le combat" not in response.text
    encounter.refresh_from_db()
    assert encounter.status == Status.FINISHED


def test_a_paused_fight_reopens_paused_and_a_running_one_cannot_be_reopened(table):
    start(table)
    client, encounter = table["client"], table["encounter"]
    assert "Impossible maintenant" in post(client, "reopen", encounter).text
    post(client, "pause", encounter)
    post(client, "end", encounter)
    post(client, "reopen", encounter)
    encounter.refresh_from_db()
    assert encounter.status == Status.PAUSED


def test_a_test_on_the_table_feels_the_rounds_extra_actions(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    rank = table["brandon"].ew.specialties.get()
    attack = attack_data(b, y, 20, 1)
    post(client, "ew_attack", encounter, attack)
    post(client, "ew_attack", encounter, attack)  # a second attack: -4 for the round
    response = client.get(url("ew_test_odds", encounter), **HTMX)
    assert "Lancer le test" in response.text  # the panel opens with an empty form
    data = {
        "combatant": b.pk,
        "na_source": "com",
        "specialty": rank.pk,
        "nd": 10,
        "modifier": 1,
        "face": 7,
        "label": "sauter le gué",
    }
    response = post(client, "ew_test", encounter, data)
    assert response.status_code == 200
    event = encounter.events.get(kind="ew_test")
    # NA com 8 + specialty 2 = 10, modifiers -4 + 1: score clamp(10 + 7 - 10) = 7.
    assert event.data["result"]["modifier"] == -3
    assert event.data["result"]["score"] == 7 and event.data["result"]["success"]
    assert "Brandon tente sauter le gué : 7 ≤ 7, réussi" in response.text
    # An opposed test: against Ysolde's PER.
    response = post(
        client,
        "ew_test",
        encounter,
        {"combatant": b.pk, "na_source": "per", "opponent": y.pk, "modifier": 0, "face": 1},
    )
    opposed = encounter.events.filter(kind="ew_test").first()
    assert opposed.data["opponent"] == "Ysolde" and opposed.data["result"]["nd"] == 6
    # A test without a difficulty or an opponent is refused, nothing logged.
    response = post(
        client, "ew_test", encounter, {"combatant": b.pk, "na_source": "per", "modifier": 0}
    )
    assert response.text.count("Donnez une difficulté ou un adversaire") == 1
    assert encounter.events.filter(kind="ew_test").count() == 2


def test_a_double_click_that_killed_the_target_answers_409_not_a_form_error(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    sheet = table["ysolde"].ew
    sheet.lethal_left = 1
    sheet.save()
    encounter.refresh_from_db()
    data = {"version": encounter.version, **attack_data(b, y, 1, 10)}
    assert client.post(url("ew_attack", encounter), data, **HTMX).status_code == 200
    second = client.post(url("ew_attack", encounter), data, **HTMX)
    assert second.status_code == 409
    assert encounter.events.filter(kind="ew_attack").count() == 1


def test_an_attack_answers_with_only_what_it_changed(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    bystander = ew_fighter(table["campaign"], "Passant")
    passerby = encounter.combatants.create(character=bystander, position=2)
    response = post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 2, 5),
    )
    encounter.refresh_from_db()
    html = response.text
    assert response["HX-Reswap"] == "none"
    assert f'id="combatant-{b.pk}" hx-swap-oob="true"' in html
    assert f'id="combatant-{y.pk}" hx-swap-oob="true"' in html
    assert f'id="combatant-{passerby.pk}"' not in html  # untouched rows are not sent again
    assert 'hx-swap-oob="afterbegin:#log-lines"' in html and "2 ≤ 17, touché" in html
    assert (
        f'value="{encounter.version}" class="encounter-version" '
        'hx-swap-oob="outerHTML:.encounter-version"'
    ) in html
    assert f"?v={encounter.version}" in html  # the live check moves on too
    # The form stays as the GM left it: only the odds of the same attack again are sent,
    # with undo and redo and the (now empty) point d'éclat offer.
    assert 'id="ew-attack"' not in html and 'id="console-actions"' not in html
    assert 'id="ew-attack-odds" class="odds" aria-live="polite" hx-swap-oob="true"' in html
    assert "Chance de toucher" in html
    assert 'id="undo-redo" hx-swap-oob="true"' in html
    assert 'id="ew-eclat" hx-swap-oob="true"' in html
    assert "Dépenser un point d'éclat" not in html
    # Without htmx the same POST still works and goes back to the console.
    response = client.post(
        url("ew_attack", encounter),
        {"version": encounter.version, **attack_data(b, y, 20, 1)},
    )
    assert response.status_code == 302 and response["Location"] == url("console", encounter)


def test_a_players_missed_attack_answers_with_the_point_declat_offer(table):
    b, y = start(table)  # Brandon is a PC: a miss of his may be turned around
    response = post(table["client"], "ew_attack", table["encounter"], attack_data(b, y, 20, 3))
    assert response["HX-Reswap"] == "none"
    assert 'id="ew-eclat" hx-swap-oob="true"' in response.text
    assert "Dépenser un point d'éclat" in response.text


def test_a_blow_that_kills_tells_in_the_odds_that_the_target_is_dead(table):
    b, y = start(table)
    sheet = table["ysolde"].ew
    sheet.superficial_left, sheet.lethal_left = 1, 1
    sheet.save()
    response = post(table["client"], "ew_attack", table["encounter"], attack_data(b, y, 1, 10))
    assert response["HX-Reswap"] == "none"
    assert "Ysolde est déjà mort." in response.text  # where the odds of a next blow would be


def test_a_bad_damage_face_for_the_eclat_rescue_is_told_and_changes_nothing(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(
        client,
        "ew_attack",
        encounter,
        attack_data(b, y, 20, 3),
    )
    miss = encounter.events.get(kind="ew_attack")
    before = sheets(table), encounter.events.count()
    response = post(client, "ew_eclat", encounter, {"event": miss.pk, "damage_face": 11})
    assert "Un d10 donne de 1 à 10" in response.text
    assert (sheets(table), encounter.events.count()) == before


# --- Undo never erases what was done outside the fight since --------------------------------


def test_undo_waits_for_a_rest_taken_since_the_blow(table):
    b, y = start(table)
    client, encounter, gm = table["client"], table["encounter"], table["gm"]
    post(client, "ew_attack", encounter, attack_data(b, y, 1, 10))
    wounded = sheets(table)[1]
    assert wounded != (18, 18, 3)
    character_services.character_rest(character=table["ysolde"], by=gm)
    assert sheets(table)[1] == (18, 18, 3)

    response = post(client, "undo", encounter)

    assert "Les réserves de Ysolde ont changé hors du combat depuis ce coup" in response.text
    assert sheets(table)[1] == (18, 18, 3)  # the rest is kept
    assert not encounter.events.get(kind="ew_attack").undone
    # Undo the rest from the campaign log first: then the blow can be undone, exactly.
    rest = table["campaign"].log_entries.exclude(changes=[]).get()
    character_services.table_action_undo(entry=rest, by=gm)
    assert sheets(table)[1] == wounded
    post(client, "undo", encounter)
    assert encounter.events.get(kind="ew_attack").undone
    assert sheets(table)[1] == (18, 18, 3)


def test_a_spend_of_another_pool_does_not_block_the_undo(table):
    b, y = start(table)
    client, encounter, player = table["client"], table["encounter"], table["brandon"].owner
    post(client, "ew_attack", encounter, attack_data(b, y, 1, 10))
    eclat_spend(character=table["brandon"], by=player)
    post(client, "undo", encounter)
    assert encounter.events.get(kind="ew_attack").undone
    assert sheets(table)[0][2] == 2  # Brandon's point d'éclat stays spent


def test_redo_waits_for_a_change_made_since_the_undo(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    post(client, "ew_attack", encounter, attack_data(b, y, 1, 10))
    attack = encounter.events.get(kind="ew_attack")
    post(client, "undo", encounter)
    sheet = table["ysolde"].ew
    sheet.refresh_from_db()
    sheet.superficial_left -= 1  # a change made outside the fight, e.g. by an XP purchase
    sheet.save(update_fields=["superficial_left"])
    with pytest.raises(EncounterError, match="Ysolde"):
        check_not_changed_outside(attack.changes, "after")
    response = post(client, "redo", encounter)
    assert "ont changé hors du combat" in response.text
    attack.refresh_from_db()
    assert attack.undone


def test_an_opposed_test_takes_the_opponents_maluses(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    sheet = table["ysolde"].ew
    sheet.lethal_left = 4  # 4 x 4 < 18 PV: -4 to all her actions, resisting included
    sheet.save()
    data = {"combatant": b.pk, "na_source": "per", "opponent": y.pk, "modifier": 0}
    encounter.refresh_from_db()
    query = {**data, "version": encounter.version}
    response = client.get(url("ew_test_odds", encounter), query, **HTMX)
    # Brandon's PER 8 against Ysolde's PER 6 - 4 = 2: score 10 + 8 - 2 = 16.
    assert "Chance de réussir <strong>80 %</strong>" in response.text
    assert "contre ND 2" in response.text
    post(client, "ew_test", encounter, {**data, "face": 16})
    result = encounter.events.get(kind="ew_test").data["result"]
    assert result["nd"] == 2 and result["score"] == 16 and result["success"]


def test_an_opponents_maluses_may_bring_the_difficulty_below_zero(table):
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    sheet = table["ysolde"].ew
    sheet.lethal_left = 4
    sheet.save()
    data = {"combatant": b.pk, "na_source": "phy", "opponent": y.pk, "opponent_source": "phy"}
    # Ysolde defends twice this round: -4 more. PHY 6 - 4 - 4 = -2.
    for _ in range(2):
        post(client, "ew_attack", encounter, attack_data(b, y, 20, 1, defence="active"))
    post(client, "ew_test", encounter, {**data, "modifier": 0, "face": 16})
    result = encounter.events.get(kind="ew_test").data["result"]
    # Brandon attacked twice, -4 on his side too: score 10 + (8 - 4) - (-2) = 16.
    assert result["nd"] == -2 and result["modifier"] == -4
    assert result["score"] == 16 and result["success"]


def test_the_next_attack_keeps_the_active_defence_chosen_against_the_same_target(table):
    """A repeat is one tap, and a step's answer (which keeps the form as the GM left it)
    reads as a reload does: the defence chosen last against this target stays while the rules
    allow it, even when the round's malus now makes the natural defence the better one."""
    b, y = start(table)
    client, encounter = table["client"], table["encounter"]
    attack = attack_data(b, y, 20, 1, defence="active")
    post(client, "ew_attack", encounter, attack)
    post(client, "ew_attack", encounter, attack)
    # A third active defence: com 6 - 8 = -2, below the natural defence 1.
    page = client.get(url("console", encounter), **HTMX).text
    defence = page[page.index('id="ew-defence"') :]
    defence = defence[: defence.index("</fieldset>")]
    assert re.search(r'value="active"[^>]*checked', defence)
