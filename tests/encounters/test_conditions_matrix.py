"""When conditions end, and how undo and redo bring them back: every way a condition lasts ×
what may happen meanwhile (initiative rolled again in another order, a fighter arriving or
leaving, a pause) × undo and redo of the step that ended it. Each cell plays the turns of an
EW fight (initiative every round) until the condition ends, checks that it ended at the very
step the rule names, then that undo brings it back exactly and redo ends it again."""

from dataclasses import dataclass

import pytest

from apps.encounters import services, tools
from apps.encounters.conditions import ConditionChoice
from apps.encounters.models import Combatant, Encounter, Event
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter

pytestmark = pytest.mark.django_db

ENDINGS = [
    "turn_start:bearer",
    "turn_end:bearer",
    "turn_start:placer",
    "turn_end:placer",
    "rounds:1",
    "rounds:2",
]
MEANWHILE = ["nothing", "initiative_reversed", "arrival", "departure", "pause_resume"]


@dataclass
class Fight:
    encounter: Encounter
    gm: object
    ana: Combatant  # acts first in round 1, puts the condition
    bob: Combatant  # bears it
    cid: Combatant
    reserve: object  # a character who may arrive


def _fight() -> Fight:
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    ana = ew_fighter(campaign, "Ana", owner=player)
    bob, cid = ew_fighter(campaign, "Bob"), ew_fighter(campaign, "Cid")
    reserve = ew_fighter(campaign, "Dora")
    encounter = Encounter.objects.create(campaign=campaign, name="Matrice")
    services.combatants_add(encounter_id=encounter.pk, characters=[ana, bob, cid])
    fighters = {c.character.name: c for c in encounter.combatants.select_related("character")}
    faces = {fighters["Ana"].pk: 10, fighters["Bob"].pk: 6, fighters["Cid"].pk: 2}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    encounter.refresh_from_db()
    return Fight(encounter, gm, fighters["Ana"], fighters["Bob"], fighters["Cid"], reserve)


def _version(fight: Fight) -> int:
    fight.encounter.refresh_from_db()
    return fight.encounter.version


def _put(fight: Fight, ending: str) -> dict:
    rounds = ending.partition(":")[2]
    choice = ConditionChoice(
        combatant_id=fight.bob.pk,
        label="sonné",
        duration=ending if not rounds.isdigit() else "rounds",
        rounds=int(rounds) if rounds.isdigit() else None,
        modifiers={"attack": -2},
    )
    event = tools.condition_put(
        encounter_id=fight.encounter.pk, version=_version(fight), by=fight.gm, choice=choice
    )
    return event.data["condition"]


def _meanwhile(fight: Fight, what: str) -> None:
    encounter_id, gm = fight.encounter.pk, fight.gm
    if what == "arrival":
        tools.encounter_reinforce(
            encounter_id=encounter_id, version=_version(fight), by=gm, characters=[fight.reserve]
        )
    elif what == "departure":
        tools.combatant_withdraw(
            encounter_id=encounter_id, version=_version(fight), by=gm, combatant_id=fight.cid.pk
        )
    elif what == "pause_resume":
        services.encounter_pause(encounter_id=encounter_id, version=_version(fight), by=gm)
        services.encounter_resume(encounter_id=encounter_id, version=_version(fight), by=gm)


def _faces(fight: Fight, what: str) -> dict[int, int] | None:
    """The new rounds' initiative: typed, the order of round 1 reversed when asked."""
    order = [fight.ana, fight.bob, fight.cid]
    if what == "initiative_reversed":
        order.reverse()
    present = Combatant.objects.filter(encounter=fight.encounter, present=True)
    faces = {c.pk: 10 - 3 * i for i, c in enumerate(order)}
    return {c.pk: faces.get(c.pk, 1) for c in present}


def _bears(fight: Fight) -> list[dict]:
    fight.bob.refresh_from_db(fields=["conditions"])
    return fight.bob.conditions


def _acting(fight: Fight) -> int:
    fight.encounter.refresh_from_db()
    fighters = services.load_combatants(fight.encounter, gear=False)
    return services.acting_combatant(fight.encounter, fighters).pk


def _rule_ends_it(ending: str, condition: dict, step: Event, ended: int) -> bool:
    """Whether the rule ends the condition at this passing of the turn (before its ``skip``):
    ``ended`` is the fighter whose turn the step ended, ``step.actor_id`` the one whose turn
    it began."""
    kind = ending.partition(":")[0]
    if kind == "rounds":
        return step.data.get("new_round", 0) >= condition["round"]
    holder = condition["turn_of"]
    return (step.actor_id if kind == "turn_start" else ended) == holder


@pytest.mark.parametrize("meanwhile", MEANWHILE)
@pytest.mark.parametrize("ending", ENDINGS)
def test_a_condition_ends_when_its_rule_says_and_undo_redo_are_exact(ending, meanwhile):
    fight = _fight()
    placed = _put(fight, ending)
    assert _bears(fight) == [placed]
    _meanwhile(fight, meanwhile)
    assert _bears(fight) == [placed], "nothing but a turn passing ends it"
    skip = placed["skip"]
    for _turn in range(12):
        before, ended = _bears(fight), _acting(fight)
        event = services.encounter_next_turn(
            encounter_id=fight.encounter.pk,
            version=_version(fight),
            by=fight.gm,
            initiative=_faces(fight, meanwhile),
        )
        event.refresh_from_db()
        due = _rule_ends_it(ending, placed, event, ended)
        if due and skip:
            skip -= 1
            assert _bears(fight) and _bears(fight)[0]["skip"] == skip
            continue
        if not due:
            assert _bears(fight) == before, f"ended too early, at {event.data}"
            continue
        assert _bears(fight) == [], f"still there at {event.data}"
        log = Event.objects.get(pk=event.pk).data["conditions_ended"]
        assert log == [
            {"combatant": fight.bob.pk, "name": "Bob", "label": "sonné", "public": False}
        ]
        break
    else:
        pytest.fail("the condition never ended")

    services.encounter_undo(encounter_id=fight.encounter.pk, version=_version(fight), by=fight.gm)
    assert _bears(fight) == before  # exactly as it was, its countdown included
    services.encounter_redo(encounter_id=fight.encounter.pk, version=_version(fight), by=fight.gm)
    assert _bears(fight) == []
