"""The third system's "engine": its house rules, as plain Python like apps/rules/<code>/."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
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


# A coup lands on a d6 + adresse (+ modifiers) of 6 or more; a 6 on the die leaves its
# target sonné. An épreuve succeeds on a d6 + vigueur (+ modifiers) of 7 or more.
COUP_NEEDS, EPREUVE_NEEDS, STUNNING_FACE = 6, 7, 6


def chance(score: int, modifiers: Sequence[int], needs: int) -> Fraction:
    """The exact chance that a d6 + ``score`` + ``modifiers`` reaches ``needs``."""
    total = score + sum(modifiers)
    return Fraction(sum(1 for face in range(1, 7) if face + total >= needs), 6)


def succeeds(face: int, score: int, modifiers: Sequence[int], needs: int) -> bool:
    return face + score + sum(modifiers) >= needs
