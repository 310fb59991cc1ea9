"""Over HTTP under the production server (the README's uvicorn command): the p50 of an
attack, an undo and a next turn in both systems, each as a ratio to a bare view of the same
server measured in the same run (``http_`` keys), with the load average of the moment.

Budgets (issue #33): every ratio ≤ 5× for EW and ≤ 7× for Aethoria, judged only on a quiet
machine (load average below 2): they are printed beside their figure, never failed on —
a time on a shared machine is no regression.
"""

import os
import statistics

from django.urls import reverse

from apps.accounts.models import User
from apps.encounters import services
from apps.encounters.models import Encounter, Status
from tests.bench.bench_push import PRODUCTION, Browser, demo, median_request_ms, serving
from tests.bench.figures import record

__all__ = ["demo"]  # the fixture, shared with the push bench

ROUNDS = 60
WARM_UP = 5
BUDGETS = {"ew": 5.0, "aethoria": 7.0}
QUIET = 2.0


def version(encounter: Encounter) -> int:
    return Encounter.objects.values_list("version", flat=True).get(pk=encounter.pk)


def started(system: str) -> Encounter:
    encounter = Encounter.objects.select_related("campaign").get(campaign__system=system)
    if encounter.status == Status.PREPARING:
        services.encounter_start(
            encounter_id=encounter.pk, version=None, by=User.objects.get(username="mj")
        )
    encounter.refresh_from_db()
    return encounter


def attack_payload(system: str, encounter: Encounter) -> tuple[str, dict]:
    """The acting fighter strikes the first other fighter, undefended: EW's fists and typed
    dice (the same path each time), Aethoria's first weapon and the app's dice (the demo's
    fighters roll other numbers of dice than the tests' ones)."""
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk)
    data = {"attacker": acting.pk, "target": target.pk}
    if system == "ew":
        data.update(defence="none", modifier=0, to_hit_face=1, damage_face=1)
        return reverse("encounters:ew_attack", args=[encounter.pk]), data
    weapon = acting.character.aethoria.weapons.first()
    data.update(mode="attack", defence="none", **({"weapon": weapon.pk} if weapon else {}))
    return reverse("encounters:aethoria_attack", args=[encounter.pk]), data


def timed(browser: Browser, encounter: Encounter, timed_path: str, data: dict, after: str):
    """The p50 (ms) of posting to ``timed_path``, each followed, untimed, by ``after``."""
    samples = []
    for number in range(ROUNDS + WARM_UP):
        status, html, elapsed = browser.request(
            "POST", timed_path, {**data, "version": version(encounter)}, htmx=True
        )
        assert status == 200 and "field-error" not in html, (timed_path, status)
        if number >= WARM_UP:
            samples.append(elapsed)
        status, _, _ = browser.request("POST", after, {"version": version(encounter)}, htmx=True)
        assert status == 200, (after, status)
    return statistics.median(samples) * 1000


def undo_p50(browser: Browser, encounter: Encounter, attack: str, data: dict) -> float:
    """The p50 (ms) of an undo, each of an attack made untimed just before."""
    undo = reverse("encounters:undo", args=[encounter.pk])
    samples = []
    for number in range(ROUNDS + WARM_UP):
        browser.request("POST", attack, {**data, "version": version(encounter)}, htmx=True)
        status, _, elapsed = browser.request(
            "POST", undo, {"version": version(encounter)}, htmx=True
        )
        assert status == 200, status
        if number >= WARM_UP:
            samples.append(elapsed)
    return statistics.median(samples) * 1000


def step_ratios(browser: Browser, system: str, hello: float) -> dict[str, float]:
    encounter = started(system)
    attack, data = attack_payload(system, encounter)
    undo = reverse("encounters:undo", args=[encounter.pk])
    next_turn = reverse("encounters:next_turn", args=[encounter.pk])
    times = {
        "attack": timed(browser, encounter, attack, data, undo),
        "undo": undo_p50(browser, encounter, attack, data),
        "next_turn": timed(browser, encounter, next_turn, {}, undo),
    }
    return {f"http_{system}_{step}_ratio": ms / hello for step, ms in times.items()}


def test_steps_over_http_under_the_production_server(demo):
    env, _encounter = demo
    load = os.getloadavg()[0]
    figures = {}
    with serving(env, PRODUCTION) as (port, _pid):
        browser = Browser(port)
        browser.log_in("mj", "tablee-mj")
        hello = median_request_ms(browser, "GET", "/bench/hello/")
        for system in ("ew", "aethoria"):
            figures |= step_ratios(browser, system, hello)
    judged = "judged" if load < QUIET else f"not judged: load above {QUIET:g}"
    print(f"\nover HTTP ({PRODUCTION}), bare view {hello:.2f} ms, load {load:.2f} ({judged})")
    for key, ratio in figures.items():
        budget = BUDGETS[key.split("_")[1]]
        verdict = "" if load >= QUIET else (" ok" if ratio <= budget else " OVER BUDGET")
        print(f"  {key} = {ratio:.2f} (budget <= {budget:g}){verdict}")
    record(**figures, http_hello_ms=hello, http_load_average=load)
