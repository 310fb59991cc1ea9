"""EW house rules: each "(house rule, default)" value of the rules page, as a setting."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from apps.rules.checks import (
    require_bool,
    require_choice,
    require_int,
    require_labelled_values,
    tuples_from_json,
)
from apps.rules.errors import (
    InvalidHouseRules,
    fr,
)
from apps.rules.ew.constants import (
    DEFAULT_CONDITION_VALUES,
    DEFAULT_DIFFICULTY_LADDER,
    PER_LEVEL,
    ROUNDINGS,
    SPECIALTY_COST_MODES,
)
from apps.rules.ew.table import ResolutionTable, _check_grid
from apps.rules.requests import REQUEST_RULES

# --- House rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class EwHouseRules:
    """Every "(house rule, default)" value of the EW rules page, as one campaign setting."""

    rounding: str = "down"
    generation_points: int = 36
    specialty_cost_mode: str = PER_LEVEL
    difficulty_ladder: tuple[tuple[str, int], ...] = DEFAULT_DIFFICULTY_LADDER
    condition_values: tuple[tuple[str, int], ...] = DEFAULT_CONDITION_VALUES
    initiative_ties_by_com: bool = True
    extra_action_malus: int = -4
    total_defence_bonus: int = 2
    total_attack_bonus: int = 2
    xp_characteristic_factor: int = 1
    xp_specialty_factor: int = 1
    xp_power_factor: int = 2
    xp_eclat_cost: int = 1
    resolution_grid: tuple[tuple[int, ...], ...] | None = None  # None = the default formula
    # Roll requests (issue #31): which rolls of a PC the console sends to its player by
    # default, and whether a player sees their odds against an NPC.
    requests_initiative: bool = True
    requests_defence: bool = True
    requests_attack: bool = False
    odds_against_npcs: bool = True

    def __post_init__(self) -> None:
        bad = InvalidHouseRules
        require_choice(self.rounding, ROUNDINGS, field="rounding", label=fr("L'arrondi"), error=bad)
        require_int(
            self.generation_points,
            field="generation_points",
            label=fr("Les points de génération"),
            low=0,
            high=500,
            error=bad,
        )
        require_choice(
            self.specialty_cost_mode,
            SPECIALTY_COST_MODES,
            field="specialty_cost_mode",
            label=fr("Le coût des spécialités"),
            error=bad,
        )
        require_labelled_values(
            self.difficulty_ladder,
            field="difficulty_ladder",
            label=fr("L'échelle de difficulté"),
            low=0,
            high=100,
            error=bad,
        )
        require_labelled_values(
            self.condition_values,
            field="condition_values",
            label=fr("Les états de la table"),
            low=-20,
            high=20,
            error=bad,
            allow_empty=True,
        )
        require_bool(
            self.initiative_ties_by_com,
            field="initiative_ties_by_com",
            label=fr("Le départage par le combat"),
            error=bad,
        )
        for name, label in REQUEST_RULES:
            require_bool(getattr(self, name), field=name, label=label, error=bad)
        require_int(
            self.extra_action_malus,
            field="extra_action_malus",
            label=fr("Le malus par action supplémentaire"),
            low=-20,
            high=0,
            error=bad,
        )
        for name, label in (
            ("total_defence_bonus", fr("Le bonus de défense totale")),
            ("total_attack_bonus", fr("Le bonus d'attaque totale")),
        ):
            require_int(getattr(self, name), field=name, label=label, low=0, high=20, error=bad)
        for name, label in (
            ("xp_characteristic_factor", fr("Le coût en XP des caractéristiques")),
            ("xp_specialty_factor", fr("Le coût en XP des spécialités")),
            ("xp_power_factor", fr("Le coût en XP des pouvoirs")),
            ("xp_eclat_cost", fr("Le coût en XP d'un point d'éclat")),
        ):
            require_int(getattr(self, name), field=name, label=label, low=0, high=100, error=bad)
        if self.resolution_grid is not None:
            _check_grid(self.resolution_grid)

    @cached_property
    def table(self) -> ResolutionTable:
        """The campaign's resolution table (the default formula unless the GM supplied a grid)."""
        if self.resolution_grid is None:
            return _DEFAULT_TABLE
        return ResolutionTable(self.resolution_grid)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form, for storage in the campaign."""
        return {
            "rounding": self.rounding,
            "generation_points": self.generation_points,
            "specialty_cost_mode": self.specialty_cost_mode,
            "difficulty_ladder": [[label, value] for label, value in self.difficulty_ladder],
            "condition_values": [[label, value] for label, value in self.condition_values],
            "initiative_ties_by_com": self.initiative_ties_by_com,
            "extra_action_malus": self.extra_action_malus,
            "total_defence_bonus": self.total_defence_bonus,
            "total_attack_bonus": self.total_attack_bonus,
            "xp_characteristic_factor": self.xp_characteristic_factor,
            "xp_specialty_factor": self.xp_specialty_factor,
            "xp_power_factor": self.xp_power_factor,
            "xp_eclat_cost": self.xp_eclat_cost,
            "resolution_grid": (
                None if self.resolution_grid is None else [list(r) for r in self.resolution_grid]
            ),
            **{name: getattr(self, name) for name, _label in REQUEST_RULES},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EwHouseRules:
        """Rebuild from `to_dict` output; unknown keys are ignored, missing ones take defaults."""
        bad = InvalidHouseRules
        if not isinstance(data, Mapping):
            raise bad(fr("Les règles maison doivent être un dictionnaire."))
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        if "difficulty_ladder" in known:
            known["difficulty_ladder"] = tuples_from_json(
                known["difficulty_ladder"], field="difficulty_ladder", size=2, error=bad
            )
        if "condition_values" in known:
            known["condition_values"] = tuples_from_json(
                known["condition_values"], field="condition_values", size=2, error=bad
            )
        if known.get("resolution_grid") is not None:
            known["resolution_grid"] = ResolutionTable.from_grid(known["resolution_grid"]).grid
        return cls(**known)


_DEFAULT_TABLE = ResolutionTable.default()
DEFAULT_HOUSE_RULES = EwHouseRules()
