"""Aethoria magic: spell rolls, invested Pouvoir, fatigue cost and brûlure d'érys."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from apps.rules.aethoria.character import (
    AethoriaPools,
    PoolDelta,
    apply_delta,
    check_characteristic,
)
from apps.rules.aethoria.constants import MENTAL, SPELL
from apps.rules.aethoria.house import DEFAULT_HOUSE_RULES, AethoriaHouseRules
from apps.rules.aethoria.rolls import (
    PoolResult,
    RollSpec,
    Verdict,
    _check_threshold,
    judge,
    pool_size,
)
from apps.rules.checks import (
    require_int,
)
from apps.rules.dice import D10, check_faces
from apps.rules.errors import (
    InvalidFatigueSpend,
    InvalidSpell,
    fr,
)

# --- Magic ------------------------------------------------------------------------------------


def check_invested(pouvoir: int, invested: int) -> int:
    """Pouvoir invested in a spell: 1..Pouvoir (a mage may invest less than it has)."""
    p = check_characteristic(pouvoir, "pouvoir", exceptional=True)
    return require_int(
        invested,
        field="invested",
        label=fr("Le Pouvoir investi"),
        low=1,
        high=p,
        error=InvalidSpell,
    )


def spell_roll(
    magic_rank: int,
    pouvoir: int,
    invested: int,
    modifiers: Iterable[int] = (),
    *,
    rank_zero_allowed: bool = False,
) -> RollSpec:
    """Spell: magic skill dice under the Pouvoir invested."""
    threshold = check_invested(pouvoir, invested)
    dice = pool_size(magic_rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(SPELL, dice, threshold, MENTAL)


def spell_fatigue_cost(invested: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> int:
    """Fatigue a spell costs in each pool: ceil(invested / 3) (house rule)."""
    require_int(
        invested, field="invested", label=fr("Le Pouvoir investi"), low=1, error=InvalidSpell
    )
    return -(-invested // house.fatigue_cost_divisor)


def is_erys_burn(faces: Sequence[int], threshold: int) -> bool:
    """Brûlure d'érys: every die rolled (fatigue dice included) is a success."""
    checked = check_faces(faces, D10)
    _check_threshold(threshold)
    # With no die rolled there is no roll, hence no burn.
    return bool(checked) and all(face <= threshold for face in checked)


@dataclass(frozen=True)
class SpellResult:
    """A cast spell: verdict, fatigue paid (PV for what a pool could not pay), érys burn."""

    invested: int
    verdict: Verdict
    fatigue_cost: int
    physical_paid: int
    mental_paid: int
    pv_from_fatigue: int
    burn: bool
    burn_pv: int
    delta: PoolDelta
    pools: AethoriaPools


def cast_spell(
    roll: PoolResult,
    pools: AethoriaPools,
    *,
    invested: int,
    difficulty: int = 1,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> SpellResult:
    """Judge a spell roll, pay its fatigue (after the roll's own fatigue dice) and burn."""
    if roll.spec.kind != SPELL or roll.spec.threshold != invested:
        raise InvalidSpell(fr("Ce jet n'est pas le jet de ce sort."), field="roll")
    verdict = judge(roll.successes, difficulty, house)
    cost = spell_fatigue_cost(invested, house)
    physical_paid = min(cost, pools.physical)
    mental_paid = min(cost, pools.mental)
    unpaid = (cost - physical_paid) + (cost - mental_paid)
    if unpaid and not house.unpaid_fatigue_to_pv:
        raise InvalidFatigueSpend(
            fr("Fatigue insuffisante pour lancer ce sort (%(cost)s de chaque réserve)."),
            field="fatigue",
            params={"cost": cost},
        )
    burn = is_erys_burn(roll.all_faces, roll.spec.threshold)
    burn_pv = house.burn_pv_per_pouvoir * invested if burn else 0  # armour never applies
    delta = PoolDelta(pv=-(unpaid + burn_pv), physical=-physical_paid, mental=-mental_paid)
    return SpellResult(
        invested=invested,
        verdict=verdict,
        fatigue_cost=cost,
        physical_paid=physical_paid,
        mental_paid=mental_paid,
        pv_from_fatigue=unpaid,
        burn=burn,
        burn_pv=burn_pv,
        delta=delta,
        pools=apply_delta(pools, delta),
    )
