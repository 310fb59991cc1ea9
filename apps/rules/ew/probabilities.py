"""EW exact odds: success of a test, superficial and lethal damage of an attack."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from apps.rules import odds
from apps.rules.checks import (
    require_int,
)
from apps.rules.dice import D10, D20
from apps.rules.errors import (
    fr,
)
from apps.rules.ew.combat import lethal_damage
from apps.rules.ew.resolution import _sum_modifiers, _table
from apps.rules.ew.table import ResolutionTable

# --- Odds -------------------------------------------------------------------------------------


def superficial_damage_distribution(target_natural_defence: int) -> odds.Distribution:
    """Exact distribution of superficial points lost (1d10 - natural defence, at least 0)."""
    require_int(
        target_natural_defence, field="natural_defence", label=fr("La défense naturelle"), low=0
    )
    return odds.transform(odds.uniform(1, D10), lambda face: max(0, face - target_natural_defence))


def lethal_damage_distribution(impact: int, protection: int) -> odds.Distribution:
    """Distribution of lethal points lost (no die: a single certain value)."""
    return odds.point(lethal_damage(impact, protection))


@dataclass(frozen=True)
class EwAttackOdds:
    """Odds shown before an attack roll; damage distributions count a miss as 0."""

    hit: Fraction
    superficial: dict[int, Fraction]
    lethal: dict[int, Fraction]
    expected_superficial: Fraction
    expected_lethal: Fraction


def attack_odds(
    *,
    na: int,
    nd: int,
    impact: int,
    target_natural_defence: int,
    target_protection: int,
    modifiers: Iterable[int] = (),
    table: ResolutionTable | None = None,
) -> EwAttackOdds:
    """Chance to hit and exact damage distributions of an attack, before rolling."""
    # ND may be below 0 here (a badly wounded active defender), unlike a GM-typed difficulty.
    require_int(na, field="na", label=fr("Le NA"), low=0)
    require_int(nd, field="nd", label=fr("Le ND"))
    hit = Fraction(_table(table).score(na + _sum_modifiers(modifiers), nd), D20)
    miss = 1 - hit
    superficial = odds.mixture(
        [(hit, superficial_damage_distribution(target_natural_defence)), (miss, odds.point(0))]
    )
    lethal = odds.mixture(
        [(hit, lethal_damage_distribution(impact, target_protection)), (miss, odds.point(0))]
    )
    return EwAttackOdds(
        hit=hit,
        superficial=superficial,
        lethal=lethal,
        expected_superficial=odds.mean(superficial),
        expected_lethal=odds.mean(lethal),
    )
