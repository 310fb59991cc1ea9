"""The Aethoria character: characteristics, skill ranks, PV and fatigue pools, condition."""

from __future__ import annotations

from dataclasses import dataclass, replace

from apps.rules.aethoria.constants import (
    CHARACTERISTIC_LABELS,
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    DEAD,
    EXCEPTIONAL_CHARACTERISTIC_MAX,
    FATIGUE_KINDS,
    OUT,
    PHYSICAL,
    SKILL_RANK_MAX,
    SKILL_RANK_MIN,
    STANDING,
)
from apps.rules.aethoria.house import DEFAULT_HOUSE_RULES, AethoriaHouseRules
from apps.rules.checks import (
    require_choice,
    require_int,
)
from apps.rules.errors import (
    InvalidCharacteristic,
    InvalidDamage,
    InvalidFatigueSpend,
    InvalidSkillRank,
    fr,
)

# --- The character ----------------------------------------------------------------------------


def check_characteristic(value: object, name: str, *, exceptional: bool = False) -> int:
    """Return a characteristic in 1..9 (1..12 if flagged exceptional), else raise."""
    return require_int(
        value,
        field=name,
        label=CHARACTERISTIC_LABELS.get(name, name),
        low=CHARACTERISTIC_MIN,
        high=EXCEPTIONAL_CHARACTERISTIC_MAX if exceptional else CHARACTERISTIC_MAX,
        error=InvalidCharacteristic,
    )


def check_skill_rank(value: object, field_name: str = "rank") -> int:
    """Return a skill rank in 0..9, else raise `InvalidSkillRank`."""
    return require_int(
        value,
        field=field_name,
        label=fr("Le rang de compétence"),
        low=SKILL_RANK_MIN,
        high=SKILL_RANK_MAX,
        error=InvalidSkillRank,
    )


@dataclass(frozen=True)
class AethoriaDerived:
    """PV and fatigue pools computed from the characteristics."""

    pv: int
    physical_fatigue: int
    mental_fatigue: int


def derive(
    force: int,
    vitalite: int,
    concentration: int,
    esprit: int,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> AethoriaDerived:
    """PV = 2 x (Force + Vitalité); fatigue = Force + Vitalité and Concentration + Esprit."""
    # Sheets may hold GM-flagged exceptional values (up to 12), so derive accepts them.
    f = check_characteristic(force, "force", exceptional=True)
    v = check_characteristic(vitalite, "vitalite", exceptional=True)
    c = check_characteristic(concentration, "concentration", exceptional=True)
    e = check_characteristic(esprit, "esprit", exceptional=True)
    return AethoriaDerived(
        pv=house.pv_multiplier * (f + v),
        physical_fatigue=house.physical_fatigue_multiplier * (f + v),
        mental_fatigue=house.mental_fatigue_multiplier * (c + e),
    )


@dataclass(frozen=True)
class AethoriaPools:
    """Current PV and fatigue; PV may go below 0 (out of the fight, dead at -Vitalité)."""

    pv_max: int
    pv: int
    physical_max: int
    physical: int
    mental_max: int
    mental: int

    def __post_init__(self) -> None:
        require_int(self.pv_max, field="pv_max", label=fr("Les PV maximum"), low=1)
        require_int(self.pv, field="pv", label=fr("Les PV"), high=self.pv_max)
        require_int(
            self.physical_max, field="physical_max", label=fr("La fatigue physique max"), low=0
        )
        require_int(
            self.physical,
            field="physical",
            label=fr("La fatigue physique"),
            low=0,
            high=self.physical_max,
        )
        require_int(self.mental_max, field="mental_max", label=fr("La fatigue mentale max"), low=0)
        require_int(
            self.mental, field="mental", label=fr("La fatigue mentale"), low=0, high=self.mental_max
        )

    @classmethod
    def full(cls, derived: AethoriaDerived) -> AethoriaPools:
        """Every pool at its maximum."""
        return cls(
            derived.pv,
            derived.pv,
            derived.physical_fatigue,
            derived.physical_fatigue,
            derived.mental_fatigue,
            derived.mental_fatigue,
        )

    def fatigue(self, kind: str) -> int:
        """Points left in the physical or mental fatigue pool."""
        require_choice(
            kind,
            FATIGUE_KINDS,
            field="fatigue_kind",
            label=fr("La fatigue"),
            error=InvalidFatigueSpend,
        )
        return self.physical if kind == PHYSICAL else self.mental


@dataclass(frozen=True)
class PoolDelta:
    """A change of the pools (negative = lost); stored so that undo is exact."""

    pv: int = 0
    physical: int = 0
    mental: int = 0


def apply_delta(pools: AethoriaPools, delta: PoolDelta) -> AethoriaPools:
    """Pools after a change."""
    return _shifted(pools, delta, 1)


def revert_delta(pools: AethoriaPools, delta: PoolDelta) -> AethoriaPools:
    """Pools with a stored change undone."""
    return _shifted(pools, delta, -1)


def _shifted(pools: AethoriaPools, delta: PoolDelta, sign: int) -> AethoriaPools:
    pv = pools.pv + sign * delta.pv
    physical = pools.physical + sign * delta.physical
    mental = pools.mental + sign * delta.mental
    if pv > pools.pv_max or not 0 <= physical <= pools.physical_max:
        raise InvalidDamage(fr("Ce changement ne tient pas dans les réserves."), field="pools")
    if not 0 <= mental <= pools.mental_max:
        raise InvalidDamage(fr("Ce changement ne tient pas dans les réserves."), field="pools")
    return replace(pools, pv=pv, physical=physical, mental=mental)


def condition(pv: int, vitalite: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> str:
    """standing, out (PV at 0 or below) or dead (PV at -Vitalité or below)."""
    require_int(pv, field="pv", label=fr("Les PV"))
    v = check_characteristic(vitalite, "vitalite", exceptional=True)
    if pv <= -house.death_threshold_factor * v:
        return DEAD
    if pv <= 0:
        return OUT
    return STANDING


def take_damage(pools: AethoriaPools, amount: int) -> tuple[AethoriaPools, PoolDelta]:
    """Remove PV (damage after armour, bleeding, burn...); PV may go below 0."""
    require_int(amount, field="damage", label=fr("Les dégâts"), low=0, error=InvalidDamage)
    delta = PoolDelta(pv=-amount)
    return apply_delta(pools, delta), delta


def bleed(
    pools: AethoriaPools, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> tuple[AethoriaPools, PoolDelta]:
    """PV lost to bleeding at the start of the bleeding character's turn."""
    return take_damage(pools, house.bleeding_pv_per_turn)
