"""EW experience: the XP cost of each improvement, and PV after a PHY change."""

from __future__ import annotations

from apps.rules.checks import (
    require_int,
)
from apps.rules.errors import (
    InvalidImprovement,
    NotEnoughXp,
    fr,
)
from apps.rules.ew.character import check_characteristic, check_specialty_level
from apps.rules.ew.combat import EwPools
from apps.rules.ew.constants import CHARACTERISTIC_MAX, PV_PER_PHY, SPECIALTY_MAX
from apps.rules.ew.house import DEFAULT_HOUSE_RULES, EwHouseRules

# --- Experience -------------------------------------------------------------------------------


def characteristic_xp_cost(current: int, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> int:
    """XP to raise a characteristic by 1: the new value (house rule)."""
    check_characteristic(current, "characteristic")
    if current >= CHARACTERISTIC_MAX:
        raise InvalidImprovement(
            fr("Une caractéristique ne dépasse pas %(maximum)s."),
            field="characteristic",
            params={"maximum": CHARACTERISTIC_MAX},
        )
    return house.xp_characteristic_factor * (current + 1)


def specialty_xp_cost(
    current_level: int, field_factor: int, house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> int:
    """XP to raise a specialty by 1 level: the new level x the archetype's field factor."""
    check_specialty_level(current_level)
    require_int(
        field_factor,
        field="factor",
        label=fr("Le facteur de coût"),
        low=0,
        error=InvalidImprovement,
    )
    if current_level >= SPECIALTY_MAX:
        raise InvalidImprovement(
            fr("Une spécialité ne dépasse pas le niveau %(maximum)s."),
            field="specialty",
            params={"maximum": SPECIALTY_MAX},
        )
    return house.xp_specialty_factor * (current_level + 1) * field_factor


def power_xp_cost(current_level: int, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> int:
    """XP to raise a power by 1 level: 2 x the new level (house rule)."""
    require_int(
        current_level,
        field="power",
        label=fr("Le niveau de pouvoir"),
        low=0,
        error=InvalidImprovement,
    )
    return house.xp_power_factor * (current_level + 1)


def eclat_xp_cost(
    current: int, maximum: int, count: int = 1, house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> int:
    """XP to buy back `count` spent points d'éclat (1 XP each), up to the character's maximum."""
    require_int(
        maximum, field="maximum", label=fr("Le maximum d'éclat"), low=0, error=InvalidImprovement
    )
    require_int(
        current,
        field="eclat",
        label=fr("Les points d'éclat"),
        low=0,
        high=maximum,
        error=InvalidImprovement,
    )
    require_int(
        count, field="count", label=fr("Le nombre de points"), low=1, error=InvalidImprovement
    )
    if current + count > maximum:
        raise InvalidImprovement(
            fr("Les points d'éclat ne peuvent pas dépasser %(maximum)s."),
            field="eclat",
            params={"maximum": maximum},
        )
    return house.xp_eclat_cost * count


def check_xp_affordable(balance: int, cost: int) -> int:
    """Return the balance left after paying `cost`, or raise `NotEnoughXp`."""
    require_int(balance, field="xp", label=fr("L'expérience"), error=InvalidImprovement)
    require_int(cost, field="cost", label=fr("Le coût"), low=0, error=InvalidImprovement)
    if cost > balance:
        raise NotEnoughXp(
            fr("Il faut %(cost)s XP, le personnage n'en a que %(balance)s."),
            field="xp",
            params={"cost": cost, "balance": balance},
        )
    return balance - cost


def pools_after_phy_change(pools: EwPools, old_phy: int, new_phy: int) -> EwPools:
    """PV follow PHY (3 x PHY): both maxima and both current values move by the same amount."""
    check_characteristic(old_phy, "phy")
    check_characteristic(new_phy, "phy")
    if pools.pv != PV_PER_PHY * old_phy:
        raise InvalidImprovement(
            fr("Les PV (%(pv)s) ne correspondent pas à PHY %(phy)s."),
            field="phy",
            params={"pv": pools.pv, "phy": old_phy},
        )
    delta = PV_PER_PHY * (new_phy - old_phy)
    if pools.superficial + delta < 0 or pools.lethal + delta < 0:
        raise InvalidImprovement(
            fr("Baisser PHY viderait une réserve de points sous 0."), field="phy"
        )
    return EwPools(pools.pv + delta, pools.superficial + delta, pools.lethal + delta)
