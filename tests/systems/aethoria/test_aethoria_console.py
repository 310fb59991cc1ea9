"""The Aethoria console: odds before every roll, and a constant number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.encounters.kit import lock_fight
from apps.encounters.models import Encounter, Event
from apps.systems import get_system
from apps.systems.aethoria.fighters import armour_of
from tests.compendium.factories import AethoriaArmourCoverageFactory
from tests.encounters.factories import aethoria_fighter, campaign_with_gm
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    post,
    start,
    url,
)

pytestmark = pytest.mark.django_db


def test_the_attack_odds_are_exact_and_shown_before_the_roll(table):
    y, b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    query = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.first().pk,
        "defence": "none",
    }
    response = table["client"].get(url("aethoria_attack_odds", encounter), query, **HTMX)
    # 4 dice at 6 miss only if all four fail: 1 - 0.4^4 = 97.44 %.
    assert "97,4 %" in response.text
    # Brandon's breastplate: RD 0 to 2 depending on the location, averaged over the table.
    assert "RD 0–2 selon la localisation" in response.text
    response = table["client"].get(
        url("aethoria_attack_odds", encounter), {**query, "defence": "dodge"}, **HTMX
    )
    assert "contre 3 d10 ≤ 6, esquive" in response.text
    # The console shows the odds of the default attack before anything is typed: against
    # the defender's best defence (Brandon's dodge beats his parry here).
    response = table["client"].get(url("console", encounter), **HTMX)
    assert "Chance de toucher" in response.text and "esquive" in response.text


def test_the_test_odds_show_the_much_lower_risk(table):
    y, _b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    response = table["client"].get(
        url("aethoria_test_odds", encounter),
        {"version": encounter.version, "combatant": y.pk, "source": "force", "difficulty": 3},
        **HTMX,
    )
    assert "Chance de réussir" in response.text and "très inférieur" in response.text


def test_the_parry_refusal_shows_in_the_odds_preview(table):
    sheet = table["ysolde"].aethoria
    sheet.force, sheet.pv, sheet.fatigue_physical = 9, 28, 14
    sheet.save()
    y, b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    response = table["client"].get(
        url("aethoria_attack_odds", encounter),
        {
            "version": encounter.version,
            "attacker": y.pk,
            "target": b.pk,
            "mode": "attack",
            "weapon": table["ysolde"].aethoria.weapons.first().pk,
            "defence": "parry",
            "parry_with": "shield",
        },
        **HTMX,
    )
    assert "Parade impossible" in response.text


def _fight(client, fighters: int, events: int) -> Encounter:
    """A running Aethoria encounter with that many combatants and log lines."""
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    characters = [
        aethoria_fighter(campaign, "Maëlle", magic_type="doue", pouvoir=5, magie=3),
        *(aethoria_fighter(campaign, f"Garde {n}") for n in range(fighters - 1)),
    ]
    for character in characters:
        piece = AethoriaArmourCoverageFactory(location="torso", rd=1).piece
        character.aethoria.armour_pieces.add(piece)
    encounter = Encounter.objects.create(campaign=campaign, name="Siège")
    client.force_login(gm)
    fight = {"encounter": encounter, "client": client}
    post(fight, "combatants_add", {"characters": [c.pk for c in characters]})
    first = encounter.combatants.get(character=characters[0])
    faces = {f"face_{c.pk}": 1 for c in encounter.combatants.all()}
    post(fight, "start", {**faces, f"face_{first.pk}": 20})
    encounter.refresh_from_db()
    assert encounter.combatants.order_by("position").first().pk == first.pk
    target = encounter.combatants.exclude(pk=first.pk).first()
    response = post(
        fight,
        "aethoria_attack",
        {
            "attacker": first.pk,
            "target": target.pk,
            "mode": "attack",
            "weapon": characters[0].aethoria.weapons.first().pk,
            "defence": "dodge",
        },
    )
    assert response.status_code == 200
    # Undone, so the mage may still act: the console then shows every form with its odds.
    post(fight, "undo")
    model = encounter.events.get(kind="aethoria_attack")
    last = encounter.events.order_by("-sequence").first().sequence
    Event.objects.bulk_create(
        [
            Event(
                encounter=encounter,
                sequence=last + n + 1,
                kind=model.kind,
                round=1,
                actor=model.actor,
                target=model.target,
                dice=model.dice,
                data=model.data,
                changes=[],
            )
            for n in range(max(0, events - encounter.events.count()))
        ]
    )
    Encounter.objects.filter(pk=encounter.pk).update(
        last_sequence=encounter.events.order_by("-sequence").first().sequence
    )
    return encounter


def _console_queries(client, encounter) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("encounters:console", args=[encounter.pk]), **HTMX)
    assert response.status_code == 200
    return len(queries)


def test_console_queries_do_not_grow_with_combatants_or_log_lines(
    client, django_assert_num_queries
):
    small = _fight(client, 3, 5)
    expected = _console_queries(client, small)
    big = _fight(client, 20, 500)
    assert big.events.count() == 500 and big.combatants.count() == 20
    with django_assert_num_queries(expected):
        response = client.get(reverse("encounters:console", args=[big.pk]), **HTMX)
    # The mage acts: attack, special actions and spell forms, each with its odds.
    assert "Lancer le sort" in response.text and "Chance de toucher" in response.text
    assert expected < 40, expected


def test_cibler_location_odds_are_exact_and_sum_to_one():
    from fractions import Fraction

    from apps.rules.aethoria import DEFAULT_HOUSE_RULES
    from apps.systems.aethoria.fighters import cibler_probabilities

    chances = cibler_probabilities(DEFAULT_HOUSE_RULES, "head")
    # Head on either of two d20: 1 - (18/20)^2.
    assert chances["head"] == 1 - Fraction(18, 20) ** 2
    assert sum(chances.values()) == 1
    assert cibler_probabilities(DEFAULT_HOUSE_RULES, "")["torso"] == Fraction(8, 20)


def _attack_queries(client, encounter) -> int:
    attacker, target = encounter.combatants.order_by("position")[:2]
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "attacker": attacker.pk,
        "target": target.pk,
        "mode": "attack",
        "weapon": attacker.character.aethoria.weapons.first().pk,
        "defence": "dodge",
    }
    url = reverse("encounters:aethoria_attack", args=[encounter.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text
    assert encounter.events.filter(kind="aethoria_attack", undone=False).exists()
    return len(queries)


def test_an_attack_runs_the_same_queries_whatever_the_size_of_the_fight(client, monkeypatch):
    # The step reuses the fight its form loaded, and its answer reuses it again. Every die
    # shows 1, so both fights' attacks end alike (what is shown after depends on it).
    monkeypatch.setattr("apps.rules.dice.secrets.randbelow", lambda sides: 0)
    small = _attack_queries(client, _fight(client, 3, 5))
    assert _attack_queries(client, _fight(client, 20, 500)) == small
    assert small < 30, small


def _special_queries(client, encounter, action="defense") -> tuple[int, str]:
    acting, target = encounter.combatants.order_by("position")[:2]
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "combatant": acting.pk,
        "action": action,
        "target": target.pk if action == "viser" else "",
    }
    url = reverse("encounters:aethoria_special", args=[encounter.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text
    return len(queries), response


@pytest.mark.parametrize("action", ["defense", "viser"])
def test_a_special_action_answers_with_what_it_changed_in_fixed_queries(client, action):
    small, _response = _special_queries(client, _fight(client, 3, 5), action)
    big = _fight(client, 20, 500)
    count, response = _special_queries(client, big, action)
    assert count == small and count < 25, (count, small)
    # Only the fragments the step changed, swapped out of band; the console stays.
    assert response["HX-Reswap"] == "none"
    acting = big.combatants.order_by("position").first()
    assert f'id="combatant-{acting.pk}" hx-swap-oob="true"' in response.text
    assert response.text.count('<li id="combatant-') <= 2  # the actor, and its target
    assert 'id="console-actions"' in response.text
    # The same row as a reload of the console shows.
    console = client.get(reverse("encounters:console", args=[big.pk]), **HTMX).text
    row = console[console.index(f'<li id="combatant-{acting.pk}"') :]
    assert row[: row.index("</li>")].replace(' hx-swap-oob="true"', "") in response.text.replace(
        ' hx-swap-oob="true"', ""
    )


def test_the_parry_list_holds_the_chosen_targets_items_and_follows_the_target(table):
    from tests.compendium.factories import AethoriaWeaponFactory

    # A third fighter with a parrying weapon of its own; Brandon has his shield.
    gaspard = aethoria_fighter(table["campaign"], "Gaspard")
    baton = AethoriaWeaponFactory(name="Bâton", parry_value=4)
    gaspard.aethoria.weapons.add(baton)
    fighters = [table["ysolde"], table["brandon"], gaspard]
    post(table, "combatants_add", {"characters": [c.pk for c in fighters]})
    encounter = table["encounter"]
    y, _b, g = (encounter.combatants.get(character=c) for c in fighters)
    post(table, "start", {f"face_{y.pk}": 15, f"face_{_b.pk}": 5, f"face_{g.pk}": 3})
    encounter.refresh_from_db()
    console = table["client"].get(url("console", encounter), **HTMX).text
    form = console[console.index('id="aethoria-attack"') :]
    form = form[: form.index("</form>")]
    # Ysolde acts; her first target is Brandon: his shield, not Gaspard's staff.
    assert "Bouclier (parade 6)" in form and "Bâton" not in form
    # Any change asks for the form drawn again; only the odds and the parry lists are taken.
    assert """hx-vals='{"redraw": "1"}'""" in form and "hx-select-oob" in form
    query = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": g.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.first().pk,
        "defence": "parry",
        "parry_with": "shield",  # Brandon's, chosen before the target changed
        "redraw": "1",
    }
    response = table["client"].get(url("aethoria_attack_odds", encounter), query, **HTMX)
    assert 'id="aethoria-attack"' in response.text  # the whole form, for Gaspard
    assert "Bâton (4)" in response.text and "Bouclier (parade 6)" not in response.text
    assert "Sélectionnez un choix valide" not in response.text  # reset to "—", no error
    # Posting Brandon's shield against Gaspard is refused, not silently changed.
    query.pop("redraw")
    response = post(table, "aethoria_attack", query)
    assert "Sélectionnez un choix valide" in response.text
    assert not encounter.events.filter(kind="aethoria_attack").exists()


def test_the_armour_read_with_the_lock_is_the_armour_of_the_sheet(client):
    """The RD a step reads with its lock query (``worn_armour``) is the sheet's own."""
    encounter = _fight(client, 3, 5)
    target = encounter.combatants.order_by("position")[1]
    sheet = target.character.aethoria
    helmet = AethoriaArmourCoverageFactory(location="head", rd=3).piece
    AethoriaArmourCoverageFactory(piece=helmet, location="torso", rd=2)
    AethoriaArmourCoverageFactory(piece=helmet, location="left_arm", rd=3)
    sheet.armour_pieces.add(helmet)
    fight = lock_fight(encounter.pk, [target.pk], system=get_system("aethoria"))
    locked = fight.fighters[target.pk].character.aethoria
    assert locked.worn_armour is not None
    assert set(armour_of(locked)) == set(armour_of(sheet)) and len(armour_of(sheet)) == 3
