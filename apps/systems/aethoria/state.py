"""An Aethoria fighter's state for the fight, stored as JSON on its combatant.

Its turn (defences left, action taken, aim, prepared action: the engine's ``TurnState``)
plus what the console keeps around it: what a prepared action is, a prepared action just
fired, bleeding, and the severe effects the GM confirmed. The JSON keeps the flat layout
stored since the first fights (turn fields at the top level), so old fights and the undo
records they hold read the same; code reads and writes it only through this class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from apps.rules import aethoria

# What a prepared action is: fired, an attack or a spell gets its form; a free-text action is
# simply logged.
PREPARED_ATTACK = "attack"
PREPARED_SPELL = "spell"
PREPARED_OTHER = "other"
PREPARED_KINDS = (PREPARED_ATTACK, PREPARED_SPELL, PREPARED_OTHER)


@dataclass(frozen=True)
class Fired:
    """A prepared action fired out of turn: usable during that turn, once."""

    round: int
    turn: int
    kind: str = PREPARED_ATTACK  # states stored before kinds existed fired attacks


@dataclass(frozen=True)
class FighterState:
    turn: aethoria.TurnState = field(default_factory=aethoria.TurnState)
    prepared_kind: str = ""  # what the prepared action is, while one is prepared
    fired: Fired | None = None
    bleeding: bool = False
    effects: tuple[dict, ...] = ()  # confirmed severe effects (a fracture...), as logged

    @classmethod
    def of(cls, combatant) -> FighterState:
        return cls.from_json(combatant.state)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> FighterState:
        data = data or {}
        prepared = data.get("prepared")
        turn = aethoria.TurnState(
            defences=data.get("defences", aethoria.BASE_DEFENCES),
            acted=data.get("acted", False),
            aim_target=data.get("aim_target"),
            aim_ready=data.get("aim_ready", False),
            prepared=aethoria.PreparedAction(**prepared) if prepared else None,
        )
        fired = data.get("fired")
        return cls(
            turn=turn,
            prepared_kind=data.get("prepared_kind", ""),
            fired=Fired(**fired, kind=data.get("fired_kind", PREPARED_ATTACK)) if fired else None,
            bleeding=bool(data.get("bleeding")),
            effects=tuple(data.get("effects", ())),
        )

    def to_json(self) -> dict:
        data = asdict(self.turn)
        if self.prepared_kind and self.turn.prepared is not None:
            data["prepared_kind"] = self.prepared_kind
        if self.fired is not None:
            data["fired"] = {"round": self.fired.round, "turn": self.fired.turn}
            data["fired_kind"] = self.fired.kind
        if self.bleeding:
            data["bleeding"] = True
        if self.effects:
            data["effects"] = list(self.effects)
        return data

    def with_turn(self, turn: aethoria.TurnState, **changes) -> FighterState:
        return replace(self, turn=turn, **changes)

    def has_fired(self, round_: int, turn: int, kind: str | None = None) -> bool:
        """Its prepared action was fired this turn and not used yet (as ``kind``, if given)."""
        fired = self.fired
        if fired is None or (fired.round, fired.turn) != (round_, turn):
            return False
        return kind is None or fired.kind == kind
