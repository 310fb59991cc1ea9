"""The EW character: characteristics, fields, PV, natural defence, specialty levels."""

from __future__ import annotations

from dataclasses import dataclass

from apps.rules.checks import (
    require_int,
)
from apps.rules.errors import (
    InvalidCharacteristic,
    InvalidSpecialty,
    fr,
)
from apps.rules.ew.constants import (
    CHARACTERISTIC_LABELS,
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    CHARACTERISTICS,
    FIELD_SOURCES,
    NATURAL_DEFENCE_DIVISOR,
    PV_PER_PHY,
    SPECIALTY_LABELS,
    SPECIALTY_MAX,
    SPECIALTY_MIN,
    divide,
)

# --- The character ----------------------------------------------------------------------------


def check_characteristic(value: object, name: str) -> int:
    """Return a characteristic if it is an int in 3..10, else raise `InvalidCharacteristic`."""
    return require_int(
        value,
        field=name,
        label=CHARACTERISTIC_LABELS.get(name, name),
        low=CHARACTERISTIC_MIN,
        high=CHARACTERISTIC_MAX,
        error=InvalidCharacteristic,
    )


def check_specialty_level(value: object, field_name: str = "specialty") -> int:
    """Return a specialty level if it is an int in 0..6, else raise `InvalidSpecialty`."""
    return require_int(
        value,
        field=field_name,
        label=fr("Le niveau de spécialité"),
        low=SPECIALTY_MIN,
        high=SPECIALTY_MAX,
        error=InvalidSpecialty,
    )


@dataclass(frozen=True)
class EwDerived:
    """Values computed from the four characteristics (never typed in)."""

    con: int
    com: int
    hab: int
    soc: int
    pv: int
    natural_defence: int
    initiative: int


def hit_points(phy: int) -> int:
    """PV = 3 x PHY; it is the size of both the superficial and the lethal pool."""
    return PV_PER_PHY * check_characteristic(phy, "phy")


def natural_defence(phy: int, rounding: str = "down") -> int:
    """Natural defence = PHY / 4, rounded by the campaign rule."""
    return divide(check_characteristic(phy, "phy"), NATURAL_DEFENCE_DIVISOR, rounding)


def derive(phy: int, men: int, per: int, pre: int, rounding: str = "down") -> EwDerived:
    """Fields (averages of two characteristics), PV, natural defence and initiative score."""
    values = {
        name: check_characteristic(value, name)
        for name, value in zip(CHARACTERISTICS, (phy, men, per, pre), strict=True)
    }
    fields = {
        name: divide(values[a] + values[b], 2, rounding) for name, (a, b) in FIELD_SOURCES.items()
    }
    return EwDerived(
        **fields,
        pv=PV_PER_PHY * phy,
        natural_defence=divide(phy, NATURAL_DEFENCE_DIVISOR, rounding),
        initiative=fields["com"],
    )


def specialty_label(level: int) -> str:
    """The rank name of a specialty level (0 néophyte .. 6 expert mondial)."""
    return SPECIALTY_LABELS[check_specialty_level(level)]
