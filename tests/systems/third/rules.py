"""The third system's "engine": its house rules, as plain Python like apps/rules/<code>/."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from apps.rules.errors import InvalidHouseRules


@dataclass(frozen=True)
class ThirdHouseRules:
    # Souffle a coup takes from its target.
    coup: int = 2

    def __post_init__(self) -> None:
        if not 1 <= self.coup <= 6:
            raise InvalidHouseRules("Un coup prend de 1 à 6 points de souffle.", field="coup")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ThirdHouseRules:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
