"""Each system's fight state is a frozen dataclass that reads and writes the combatant's JSON:
a round trip keeps it, and the layout stored by earlier fights still reads."""

import re
from pathlib import Path

import pytest

from apps.rules import aethoria, ew
from apps.systems.aethoria.state import PREPARED_ATTACK, PREPARED_SPELL, Fired
from apps.systems.aethoria.state import FighterState as AethoriaState
from apps.systems.ew.state import FighterState as EwState

PREPARED = aethoria.PreparedAction(description="tirer", trigger="s'il bouge")


@pytest.mark.parametrize(
    "state",
    [
        AethoriaState(),
        AethoriaState(turn=aethoria.TurnState(defences=0, acted=True, aim_target=7)),
        AethoriaState(turn=aethoria.TurnState(prepared=PREPARED), prepared_kind=PREPARED_SPELL),
        AethoriaState(fired=Fired(round=2, turn=1, kind=PREPARED_SPELL)),
        AethoriaState(bleeding=True, effects=({"kind": "fracture", "location": "head"},)),
    ],
)
def test_aethoria_state_round_trip(state):
    assert AethoriaState.from_json(state.to_json()) == state


def test_aethoria_fresh_state_is_the_turn_state_alone():
    assert AethoriaState().to_json() == {
        "defences": aethoria.BASE_DEFENCES,
        "acted": False,
        "aim_target": None,
        "aim_ready": False,
        "prepared": None,
    }


def test_aethoria_state_reads_older_layouts():
    # A fired action stored before kinds existed was an attack; an empty state is fresh.
    old = AethoriaState.from_json({"fired": {"round": 1, "turn": 0}})
    assert old.fired == Fired(round=1, turn=0, kind=PREPARED_ATTACK)
    assert old.has_fired(1, 0, PREPARED_ATTACK) and not old.has_fired(1, 1)
    assert AethoriaState.from_json(None) == AethoriaState()


def test_aethoria_prepared_kind_is_kept_only_while_something_is_prepared():
    state = AethoriaState(prepared_kind=PREPARED_SPELL)
    assert "prepared_kind" not in state.to_json()


@pytest.mark.parametrize(
    "actions", [ew.RoundActions(), ew.RoundActions(attacks=2, defences=1, stance=ew.TOTAL_ATTACK)]
)
def test_ew_state_round_trip(actions):
    assert EwState.from_json(EwState(actions).to_json()) == EwState(actions)
    assert EwState.from_json({}) == EwState()


def test_nothing_reads_the_fight_state_by_string_key():
    """Only the state classes know the JSON's keys (transfer copies the JSON whole)."""
    apps = Path(__file__).resolve().parents[2] / "apps"
    by_key = re.compile(r"""\bstate(\.get\(|\[)["']""")
    readers = [
        f"{path.relative_to(apps)}:{number}"
        for path in apps.rglob("*.py")
        if path.name != "state.py" and "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if by_key.search(line)
    ]
    assert readers == []
