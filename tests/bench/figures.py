"""The figures ``make bench`` prints, also written to the JSON file named by BENCH_JSON when
it is set (one key per figure, with the load average of the moment), so that runs can be
compared. Plain Python: the rules' script uses it too."""

from __future__ import annotations

import json
import os


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def record(**figures: float) -> None:
    """Add these figures to the BENCH_JSON file, if set (the keys of earlier benches kept)."""
    path = os.environ.get("BENCH_JSON")
    if not path:
        return
    try:
        with open(path) as file:
            saved = json.load(file)
    except (FileNotFoundError, json.JSONDecodeError):
        saved = {}
    saved.update({key: round(value, 3) for key, value in figures.items()})
    saved["load_average"] = load_average()
    with open(path, "w") as file:
        json.dump(saved, file, indent=2, sort_keys=True)


# The deterministic budgets broken in this run (``judge``): ``make bench`` fails on them.
BROKEN: list[str] = []


def judge(name: str, value: float, budget: float) -> bool:
    """Print a figure beside its budget (at most ``budget``), record both, and remember a
    broken one: a deterministic figure (Python calls, kilobytes) over its budget is a
    regression, not a busy machine."""
    kept = value <= budget
    verdict = "ok" if kept else "OVER BUDGET"
    print(f"  {name} = {value:.2f} (budget <= {budget:g}) {verdict}")
    record(**{name: value, f"{name}_budget": budget})
    if not kept:
        BROKEN.append(f"{name} = {value:.2f} > {budget:g}")
    return kept
