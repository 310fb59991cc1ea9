"""The deterministic figures of ``make bench``: Python calls of the console's steps and of
the console itself, as ratios to the bare view's calls in the same run, and the console's
compressed size. A count of calls is the same on a quiet and on a busy machine: these are
judged (``figures.judge``), and ``make bench`` fails when one is over its budget.

Budgets (issue #33): an attack ≤ 12× (EW) and ≤ 20× (Aethoria); undo, redo and next turn ≤
the attack's ratio of the same system; the console at 100 fighters ≤ 3× its calls at 10,
and ≤ 40 KB gzip-compressed.
"""

import pytest
from django.urls import reverse

from apps.encounters.models import Encounter
from tests.bench.bench_encounter import (  # noqa: F401
    ew_attack_data,
    production_rendering,
    python_calls,
)
from tests.bench.figures import judge, record
from tests.encounters.test_encounter_queries import fight
from tests.systems.aethoria.support import ARM_BLOW

HTMX = {"HTTP_HX_REQUEST": "true"}
BUDGETS = {"ew": 12.0, "aethoria": 20.0}
CONSOLE_GROWTH = 3.0
CONSOLE_KB = 40.0


def version(encounter) -> int:
    return Encounter.objects.values_list("version", flat=True).get(pk=encounter.pk)


def post(client, encounter, name: str, data: dict | None = None):
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    response = client.post(url, {"version": version(encounter), **(data or {})}, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text, name
    return response


def step_calls(client, encounter, name: str, data: dict | None = None) -> int:
    """The Python calls of one step, its version read before (not counted)."""
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    payload = {"version": version(encounter), **(data or {})}

    def step():
        response = client.post(url, payload, **HTMX)
        assert response.status_code == 200 and "field-error" not in response.text, name

    return python_calls(step)


def hello_calls(client) -> int:
    """The bare view's Python calls, once warm (the first request of a client reads more)."""
    for _ in range(3):
        client.get("/bench/hello/")
    return python_calls(lambda: client.get("/bench/hello/"))


def judge_steps(client, system: str, encounter, attack_name: str, attack_data: dict):
    """Attack, undo, redo and next turn of one fight: each measured after a warm-up of the
    same step (template and translation caches filled), the fight left as it was."""
    hello = hello_calls(client)
    post(client, encounter, attack_name, attack_data)  # warm-up
    post(client, encounter, "undo")
    post(client, encounter, "redo")
    post(client, encounter, "undo")
    attack = step_calls(client, encounter, attack_name, attack_data)
    undo = step_calls(client, encounter, "undo")
    redo = step_calls(client, encounter, "redo")
    post(client, encounter, "undo")
    post(client, encounter, "next_turn")  # warm-up, then undone
    post(client, encounter, "undo")
    next_turn = step_calls(client, encounter, "next_turn")
    post(client, encounter, "undo")
    attack_x = attack / hello
    print(f"\n{system}: bare view {hello} Python calls")
    judge(f"{system}_attack_step_calls_ratio", attack_x, BUDGETS[system])
    # Undo, redo and next turn: no dearer than the attack (and its budget).
    within = min(attack_x, BUDGETS[system])
    judge(f"{system}_undo_step_calls_ratio", undo / hello, within)
    judge(f"{system}_redo_step_calls_ratio", redo / hello, within)
    judge(f"{system}_next_turn_calls_ratio", next_turn / hello, within)
    record(
        **{
            f"{system}_attack_step_python_calls": attack,
            f"{system}_undo_step_python_calls": undo,
            f"{system}_redo_step_python_calls": redo,
            f"{system}_next_turn_python_calls": next_turn,
        }
    )


@pytest.mark.django_db
@pytest.mark.urls("tests.bench.urls")
def test_ew_steps_calls(client, production_rendering):  # noqa: F811
    encounter, gm, _ = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    acting, target = encounter.combatants.order_by("position")[:2]
    judge_steps(client, "ew", encounter, "ew_attack", ew_attack_data(acting, target))


@pytest.mark.django_db
@pytest.mark.urls("tests.bench.urls")
def test_aethoria_steps_calls(client, production_rendering):  # noqa: F811
    from tests.systems.aethoria.test_aethoria_console import _fight

    encounter = _fight(client, 20, 500)
    attacker, target = encounter.combatants.order_by("position")[:2]
    data = {
        "attacker": attacker.pk,
        "target": target.pk,
        "mode": "attack",
        "weapon": attacker.character.aethoria.weapons.first().pk,
        **ARM_BLOW,
    }
    judge_steps(client, "aethoria", encounter, "aethoria_attack", data)


def console_figures(client, combatants: int) -> tuple[int, float]:
    """The console page's Python calls (after a warm-up) and its gzip-compressed size."""
    encounter, gm, _ = fight(combatants=combatants, log_lines=100)
    client.force_login(gm)
    url = reverse("encounters:console", args=[encounter.pk])
    client.get(url)  # warm-up
    calls = python_calls(lambda: client.get(url))
    # Compressed by the app's own middleware, as a browser receives it.
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    return calls, len(response.content) / 1024


@pytest.mark.django_db
@pytest.mark.urls("tests.bench.urls")
def test_console_calls_and_size(client, production_rendering):  # noqa: F811
    calls_10, kb_10 = console_figures(client, 10)
    calls_100, kb_100 = console_figures(client, 100)
    hello = hello_calls(client)
    print(f"\nconsole: {calls_10} Python calls at 10 fighters, {calls_100} at 100")
    record(
        console_calls_ratio_10=calls_10 / hello,
        console_kb_compressed_10=kb_10,
        console_python_calls_10=calls_10,
        console_python_calls_100=calls_100,
    )
    print(f"  console_calls_ratio_10 = {calls_10 / hello:.1f}")
    print(f"  console_kb_compressed_10 = {kb_10:.1f}")
    judge("console_calls_ratio_100", calls_100 / hello, CONSOLE_GROWTH * calls_10 / hello)
    judge("console_kb_compressed_100", kb_100, CONSOLE_KB)
