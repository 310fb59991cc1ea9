"""An EW fighter's state for the round, stored as JSON on its combatant: the engine's
``RoundActions`` (attacks and defences made this round, the declared stance), which start
afresh each round. Code reads and writes it only through this class."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from apps.rules import ew


@dataclass(frozen=True)
class FighterState:
    actions: ew.RoundActions = field(default_factory=ew.RoundActions)

    @classmethod
    def of(cls, combatant) -> FighterState:
        return cls.from_json(combatant.state)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> FighterState:
        data = data or {}
        return cls(
            ew.RoundActions(
                attacks=data.get("attacks", 0),
                defences=data.get("defences", 0),
                stance=data.get("stance", ew.NORMAL),
            )
        )

    def to_json(self) -> dict:
        return asdict(self.actions)
