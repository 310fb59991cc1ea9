"""Benchmark of the exact odds of the rules engine (a script, not a test).

Run from the project root: `python tests/bench/bench_rules.py`. Every timed run starts with the
caches cleared (in the untimed setup), so the figures are the cost of a first computation.
"""

from __future__ import annotations

import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

# Run as a plain script from anywhere: make the project root importable first.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from apps.rules import aethoria, ew, odds
from tests.bench.figures import record

RUNS = 301
BUDGET_US = 1000.0  # "well under a millisecond"


def median_us(function: Callable[[], object], *, cold: bool = True) -> float:
    """Median time of one call in microseconds; caches cleared before each call if cold."""
    timer = timeit.Timer(function, setup=odds.clear_caches if cold else "pass")
    return statistics.median(timer.repeat(repeat=RUNS, number=1)) * 1e6


def main() -> None:
    cases: list[tuple[str, str, Callable[[], object]]] = [
        (
            "rules_aethoria_distribution_30_dice",
            "Aethoria: success distribution of 30 dice",
            lambda: aethoria.success_distribution(30, 7),
        ),
        (
            "rules_aethoria_landing_15_vs_15",
            "Aethoria: 15-die attack lands vs 15-die defence",
            lambda: aethoria.landing_probability(15, 7, 15, 6),
        ),
        (
            "rules_aethoria_attack_odds_15_vs_15",
            "Aethoria: 15 vs 15 attack odds with damage (4+4d, RD 2)",
            lambda: aethoria.attack_odds(
                attack_dice=15,
                attack_threshold=7,
                defence_dice=15,
                defence_threshold=6,
                weapon_dice=4,
                fixed=4,
                force=6,
                rd=2,
            ),
        ),
        (
            "rules_ew_attack_odds",
            "EW: attack odds (hit chance, damage distributions)",
            lambda: ew.attack_odds(
                na=9, nd=7, impact=3, target_natural_defence=1, target_protection=1
            ),
        ),
    ]
    print(f"median of {RUNS} runs, caches cleared before each run (cold) / kept (warm)")
    for key, name, function in cases:
        cold = median_us(function)
        warm = median_us(function, cold=False)
        verdict = "ok" if cold < BUDGET_US else "OVER BUDGET"
        print(f"{name:58} cold {cold:8.1f} us   warm {warm:8.1f} us   {verdict}")
        record(**{f"{key}_cold_us": cold, f"{key}_warm_us": warm})


if __name__ == "__main__":
    main()
