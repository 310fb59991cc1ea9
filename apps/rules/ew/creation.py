"""EW character creation: the 28 characteristic points, the generation budget, problems."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from apps.rules.checks import (
    Problem,
    is_int,
    require_choice,
    require_int,
)
from apps.rules.errors import (
    InvalidCreation,
    InvalidSpecialty,
    format_french,
    fr,
)
from apps.rules.ew.character import check_specialty_level
from apps.rules.ew.constants import (
    CHARACTERISTIC_LABELS,
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    CHARACTERISTICS,
    CREATION_CHARACTERISTIC_POINTS,
    FIELDS,
    PROGRESSIVE,
    SPECIALTY_MAX,
    SPECIALTY_MIN,
)
from apps.rules.ew.house import DEFAULT_HOUSE_RULES, EwHouseRules

# --- Creation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldFactors:
    """The archetype's cost factor for buying specialties of each field."""

    con: int = 1
    com: int = 1
    hab: int = 1
    soc: int = 1

    def factor(self, field_name: str) -> int:
        """Cost factor of one field."""
        require_choice(
            field_name, FIELDS, field="field", label=fr("Le champ"), error=InvalidSpecialty
        )
        factor: int = getattr(self, field_name)
        return factor


@dataclass(frozen=True)
class SpecialtyChoice:
    """A specialty bought at creation: its field and level."""

    name: str
    field: str
    level: int


@dataclass(frozen=True)
class TraitChoice:
    """A trait: an advantage costs points, a restriction (negative cost) gives points back."""

    name: str
    cost: int


@dataclass(frozen=True)
class PowerChoice:
    """A power bought at a level; its cost per level is compendium data."""

    name: str
    level: int
    cost_per_level: int


@dataclass(frozen=True)
class AptitudeChoice:
    """An archetype aptitude bought for its generation-point cost."""

    name: str
    cost: int


@dataclass(frozen=True)
class EwCreation:
    """Everything a player chose at creation, as plain values."""

    phy: int
    men: int
    per: int
    pre: int
    factors: FieldFactors = field(default_factory=FieldFactors)
    specialties: tuple[SpecialtyChoice, ...] = ()
    traits: tuple[TraitChoice, ...] = ()
    powers: tuple[PowerChoice, ...] = ()
    aptitudes: tuple[AptitudeChoice, ...] = ()


def _problem(field_name: str, code: str, template: str, **params: Any) -> Problem:
    return Problem(field_name, code, format_french(template, params), template, params)


@dataclass(frozen=True)
class GenerationBudget:
    """Generation points: budget (house-rule points + restrictions' refunds), spent and left."""

    base: int
    refunded: int
    traits: int
    powers: int
    specialties: int
    aptitudes: int
    total: int = field(init=False)
    spent: int = field(init=False)
    left: int = field(init=False)

    def __post_init__(self) -> None:
        spent = self.traits + self.powers + self.specialties + self.aptitudes
        # Frozen dataclass: derived fields are set once here so `asdict` stores them too.
        object.__setattr__(self, "total", self.base + self.refunded)
        object.__setattr__(self, "spent", spent)
        object.__setattr__(self, "left", self.base + self.refunded - spent)


def specialty_creation_cost(
    level: int, factor: int, house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> int:
    """Generation points of a specialty: each level costs the archetype's field factor."""
    check_specialty_level(level)
    require_int(
        factor, field="factor", label=fr("Le facteur de coût"), low=0, error=InvalidSpecialty
    )
    if house.specialty_cost_mode == PROGRESSIVE:
        return factor * level * (level + 1) // 2  # level k costs k x factor
    return factor * level


def characteristic_points_left(phy: int, men: int, per: int, pre: int) -> int:
    """Creation points still to distribute among the four characteristics (28 in all)."""
    values = (phy, men, per, pre)
    total = sum(v for v in values if is_int(v))
    return CREATION_CHARACTERISTIC_POINTS - total


def generation_budget(
    creation: EwCreation, house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> GenerationBudget:
    """Live counters of generation points (entries with invalid values count for nothing)."""
    traits = [t.cost for t in creation.traits if is_int(t.cost)]
    powers = sum(
        p.level * p.cost_per_level
        for p in creation.powers
        if _valid_count(p.level) and _valid_count(p.cost_per_level)
    )
    specialties = 0
    for s in creation.specialties:
        factor = creation.factors.factor(s.field) if s.field in FIELDS else None
        if _valid_specialty_level(s.level) and _valid_count(factor):
            specialties += specialty_creation_cost(s.level, factor, house)
    aptitudes = sum(a.cost for a in creation.aptitudes if _valid_count(a.cost))
    return GenerationBudget(
        base=house.generation_points,
        refunded=-sum(c for c in traits if c < 0),
        traits=sum(c for c in traits if c > 0),
        powers=powers,
        specialties=specialties,
        aptitudes=aptitudes,
    )


def _valid_count(value: object) -> TypeGuard[int]:
    return is_int(value) and value >= 0


def _valid_specialty_level(value: object) -> TypeGuard[int]:
    return is_int(value) and SPECIALTY_MIN <= value <= SPECIALTY_MAX


def validate_creation(
    creation: EwCreation, house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> list[Problem]:
    """Every broken creation rule (empty list = the sheet may be saved)."""
    problems: list[Problem] = []
    problems += _characteristic_problems(creation)
    problems += _factor_problems(creation.factors)
    problems += _specialty_problems(creation.specialties)
    problems += _purchase_problems(creation)
    budget = generation_budget(creation, house)
    if budget.left < 0:
        problems.append(
            _problem(
                "generation_points",
                "over_budget",
                fr(
                    "%(spent)s points de génération dépensés pour un budget de %(total)s "
                    "(%(over)s de trop)."
                ),
                spent=budget.spent,
                total=budget.total,
                over=-budget.left,
            )
        )
    return problems


def ensure_valid_creation(creation: EwCreation, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> None:
    """Raise `InvalidCreation` (carrying every problem) unless the creation is valid."""
    problems = validate_creation(creation, house)
    if problems:
        raise InvalidCreation(tuple(problems))


def _characteristic_problems(creation: EwCreation) -> list[Problem]:
    problems = []
    for name in CHARACTERISTICS:
        value = getattr(creation, name)
        label = CHARACTERISTIC_LABELS[name]
        if not is_int(value):
            problems.append(
                _problem(
                    name, "not_an_integer", fr("%(label)s doit être un nombre entier."), label=label
                )
            )
        elif not CHARACTERISTIC_MIN <= value <= CHARACTERISTIC_MAX:
            problems.append(
                _problem(
                    name,
                    "out_of_range",
                    fr("%(label)s : valeur attendue entre %(low)s et %(high)s (reçu : %(value)s)."),
                    label=label,
                    low=CHARACTERISTIC_MIN,
                    high=CHARACTERISTIC_MAX,
                    value=value,
                )
            )
    values = [getattr(creation, name) for name in CHARACTERISTICS]
    if all(is_int(v) for v in values) and sum(values) != CREATION_CHARACTERISTIC_POINTS:
        problems.append(
            _problem(
                "characteristics",
                "wrong_total",
                fr(
                    "Les caractéristiques doivent totaliser %(points)s points "
                    "(total actuel : %(total)s)."
                ),
                points=CREATION_CHARACTERISTIC_POINTS,
                total=sum(values),
            )
        )
    return problems


def _factor_problems(factors: FieldFactors) -> list[Problem]:
    return [
        _problem(
            f"factors.{name}",
            "invalid_factor",
            fr("Le facteur de coût du champ %(field)s doit être un entier positif ou nul."),
            field=name,
        )
        for name in FIELDS
        if not _valid_count(getattr(factors, name))
    ]


def _specialty_problems(specialties: Sequence[SpecialtyChoice]) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for index, s in enumerate(specialties):
        where = f"specialties.{index}"
        if s.field not in FIELDS:
            problems.append(
                _problem(
                    f"{where}.field",
                    "unknown_field",
                    fr("La spécialité « %(name)s » doit dépendre d'un champ (con, com, hab, soc)."),
                    name=s.name,
                )
            )
        if not _valid_specialty_level(s.level):
            problems.append(
                _problem(
                    f"{where}.level",
                    "out_of_range",
                    fr(
                        "Le niveau de « %(name)s » doit être compris entre %(low)s et %(high)s "
                        "(reçu : %(value)r)."
                    ),
                    name=s.name,
                    low=SPECIALTY_MIN,
                    high=SPECIALTY_MAX,
                    value=s.level,
                )
            )
        if s.name in seen:
            problems.append(
                _problem(
                    f"{where}.name",
                    "duplicate",
                    fr("La spécialité « %(name)s » est en double."),
                    name=s.name,
                )
            )
        seen.add(s.name)
    return problems


def _purchase_problems(creation: EwCreation) -> list[Problem]:
    problems = []
    for index, t in enumerate(creation.traits):
        if not is_int(t.cost):
            problems.append(
                _problem(
                    f"traits.{index}.cost",
                    "not_an_integer",
                    fr("Le coût du trait « %(name)s » doit être un nombre entier."),
                    name=t.name,
                )
            )
    for index, p in enumerate(creation.powers):
        if not is_int(p.level) or p.level < 1:
            problems.append(
                _problem(
                    f"powers.{index}.level",
                    "out_of_range",
                    fr("Le niveau du pouvoir « %(name)s » doit être au moins 1."),
                    name=p.name,
                )
            )
        if not _valid_count(p.cost_per_level):
            problems.append(
                _problem(
                    f"powers.{index}.cost_per_level",
                    "invalid_cost",
                    fr("Le coût par niveau du pouvoir « %(name)s » doit être un entier positif."),
                    name=p.name,
                )
            )
    for index, a in enumerate(creation.aptitudes):
        if not _valid_count(a.cost):
            problems.append(
                _problem(
                    f"aptitudes.{index}.cost",
                    "invalid_cost",
                    fr("Le coût de l'aptitude « %(name)s » doit être un entier positif."),
                    name=a.name,
                )
            )
    return problems
