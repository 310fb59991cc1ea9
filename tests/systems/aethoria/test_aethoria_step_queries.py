"""Every Aethoria console step runs a pinned number of queries, the same with 3 fighters
and 5 log lines as with 20 and 500 (product spec §5; the attack's budget is 8 besides
transaction control: what stands between is said in ``ATTACK``)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.encounters.models import Encounter
from tests.systems.aethoria.test_aethoria_console import HTMX, _fight

pytestmark = pytest.mark.django_db

CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")

# The user; the encounter locked with the membership checked and the two fighters with their
# sheets and the target's armour (one query); their skills and weapons (two); the round
# states (one), the target's sheet, the event, the versions (one). The answer is
# out-of-band fragments built from the step's fighters: nothing more is read.
ATTACK = 1 + 1 + 2 + 4
# A special action, a spell and a table test are still on the console's first way (the
# access read, the whole fight and its forms' gear before the lock): pinned as they stand
# (a spell and a test read no armour they do not use; a test no weapon either).
SPECIAL = 9
SPELL = 16
TEST = 16


def steps_only(queries) -> int:
    return sum(1 for q in queries if not q["sql"].startswith(CONTROL))


def count(client, encounter, name: str, data: dict) -> int:
    data = {"version": Encounter.objects.get(pk=encounter.pk).version, **data}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse(f"encounters:{name}", args=[encounter.pk]), data, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text, response.text
    return steps_only(queries.captured_queries)


def attack(encounter) -> dict:
    attacker, target = encounter.combatants.order_by("position")[:2]
    return {
        "attacker": attacker.pk,
        "target": target.pk,
        "mode": "attack",
        "weapon": attacker.character.aethoria.weapons.first().pk,
        "defence": "dodge",
    }


def special(encounter) -> dict:
    return {"combatant": encounter.combatants.order_by("position").first().pk, "action": "defense"}


def spell(encounter) -> dict:
    caster = encounter.combatants.order_by("position").first()
    return {"caster": caster.pk, "invested": 2, "difficulty": 1}


def table_test(encounter) -> dict:
    actor = encounter.combatants.order_by("position").first()
    return {"combatant": actor.pk, "source": "adresse", "difficulty": 1}


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("aethoria_attack", attack, ATTACK),
        ("aethoria_special", special, SPECIAL),
        ("aethoria_spell", spell, SPELL),
        ("aethoria_test", table_test, TEST),
    ],
)
@pytest.mark.parametrize(("fighters", "log_lines"), [(3, 5), (20, 500)])
def test_each_step_runs_its_pinned_queries(
    client, monkeypatch, name, data, expected, fighters, log_lines
):
    # Every die shows 1: each step ends alike whatever the size of the fight (an attack
    # lands and wounds).
    monkeypatch.setattr("apps.rules.dice.secrets.randbelow", lambda sides: 0)
    encounter = _fight(client, fighters, log_lines)
    assert count(client, encounter, name, data(encounter)) == expected


# Undo, redo and next turn, pinned at what they read now (issue #33; they were 20, 20 and
# 14): the user; the encounter locked with the GM checked (next turn: read, then locked)
# and the fighters' sheets; the step to undo with the one before it (undo still offered
# after?) or the step to redo (the latest other step, the undos and redos since, the step:
# whether another is left to redo is told from them); the sheets it wrote, fresh; its
# writes; the event and the versions. The answer draws the actions panel of the fighter
# acting now from the fight read once (a next turn: the one its step read) — the step
# reverted, the turn written back, "can undo?" and "can redo?" are not read again.
UNDO = 17
REDO = 16
NEXT_TURN = 12


@pytest.mark.parametrize(("fighters", "log_lines"), [(3, 5), (20, 500)])
def test_undo_redo_and_next_turn_run_their_pinned_queries(client, monkeypatch, fighters, log_lines):
    monkeypatch.setattr("apps.rules.dice.secrets.randbelow", lambda sides: 0)
    encounter = _fight(client, fighters, log_lines)
    count(client, encounter, "aethoria_attack", attack(encounter))
    counts = [count(client, encounter, "undo", {}), count(client, encounter, "redo", {})]
    count(client, encounter, "undo", {})
    counts.append(count(client, encounter, "next_turn", {}))
    assert counts == [UNDO, REDO, NEXT_TURN]
