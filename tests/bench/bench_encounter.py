"""Server time of the encounter console's hot paths, as ratios to a bare Django view.

Run with `make bench`. Budgets (product spec §5): an attack step with 20 combatants and
500 log lines ≤ 10× the bare view; the idle "anything new?" check ≤ 3× and ≤ 2 queries.
Times are measured in this process through the full middleware stack (the test client),
so the ratio compares like with like; this is a measurement, not a test that can fail.
Two floors are printed beside the step, to tell its own cost from what any step pays: a
view making as many queries (the cheapest reads) and nothing else, and the step's answer
rendered alone from its context.
"""

import statistics
import sys
import time

import pytest
from django.db import connection
from django.template import Template
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext, _TestState
from django.urls import reverse

from apps.encounters.models import Encounter, Event
from apps.systems.ew import views as ew_views
from tests.bench.figures import load_average, record
from tests.encounters.test_encounter_queries import fight
from tests.systems.aethoria.support import ARM_BLOW

ROUNDS = 200
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def production_rendering(monkeypatch):
    """Measure templates as production renders them: the test environment instruments
    every template render (for response.context), which would inflate the page-heavy side."""
    monkeypatch.setattr(Template, "_render", _TestState.saved_data.template_render)


def median_ms(call, rounds: int = ROUNDS, clock=time.perf_counter) -> float:
    for _ in range(10):  # warm up: template caches, connection pool
        call()
    samples = []
    for _ in range(rounds):
        start = clock()
        call()
        samples.append(clock() - start)
    return statistics.median(samples) * 1000


def ew_attack_data(acting, target) -> dict:
    """The benches' EW attack: fists, undefended, typed faces (the same path every time)."""
    return {
        "attacker": acting.pk,
        "target": target.pk,
        "defence": "none",
        "modifier": 0,
        "to_hit_face": 1,
        "damage_face": 1,
    }


def python_calls(call) -> int:
    """How many Python functions (and builtins) one ``call`` runs: a count that, unlike a
    time, is the same on a quiet and on a busy machine — the figure to compare run to run."""
    count = 0

    def counter(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counter)
    try:
        call()
    finally:
        sys.setprofile(None)
    return count


def calls_ratio(step, hello) -> tuple[int, float]:
    """The Python calls of ``step`` and their ratio to the bare view's."""
    calls = python_calls(step)
    return calls, calls / python_calls(hello)


def steps_only(queries) -> int:
    """The queries of a step besides transaction control (the budget's count)."""
    control = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")
    return sum(1 for q in queries if not q["sql"].startswith(control))


@pytest.mark.django_db
@pytest.mark.urls("tests.bench.urls")
def test_encounter_budgets(client, production_rendering, monkeypatch):
    encounter, gm, _player = fight(combatants=20, log_lines=500)
    acting, target = encounter.combatants.order_by("position")[:2]
    client.force_login(gm)
    hello = median_ms(lambda: client.get("/bench/hello/"))

    check = reverse("encounters:changes", args=[encounter.pk])
    version = Encounter.objects.get(pk=encounter.pk).version
    idle = median_ms(lambda: client.get(check, {"v": version}, **HTMX))
    with CaptureQueriesContext(connection) as idle_queries:
        client.get(check, {"v": version}, **HTMX)
    # Counted now: the capture reads a bounded log that later loops would rotate.
    idle_count = len(idle_queries)

    attack_url = reverse("encounters:ew_attack", args=[encounter.pk])
    undo_url = reverse("encounters:undo", args=[encounter.pk])

    def current():
        return Encounter.objects.values_list("version", flat=True).get(pk=encounter.pk)

    def attack(version=None):
        response = client.post(
            attack_url,
            {
                "version": current() if version is None else version,
                **ew_attack_data(acting, target),
            },
            **HTMX,
        )
        assert response.status_code == 200 and "field-error" not in response.text

    def attack_and_undo():
        """One blow that lands and wounds (a real UPDATE of the target's sheet), then, untimed
        by ``timed_steps``, its undo: the fight stays the same however long the bench."""
        attack()
        client.post(undo_url, {"version": current()}, **HTMX)

    # The version read in attack() is the test's bookkeeping: time it apart and take it off.
    overhead = median_ms(current)
    step = timed_steps(attack, lambda: client.post(undo_url, {"version": current()}, **HTMX))
    step -= overhead
    with CaptureQueriesContext(connection) as step_queries:
        attack()
    step_count = steps_only(step_queries.captured_queries[1:])  # less attack()'s version read
    assert Event.objects.filter(encounter=encounter, kind="ew_attack").last().data["applied"]
    client.post(undo_url, {"version": current()}, **HTMX)

    paired_hello, paired_step = interleaved_medians(
        attack,
        lambda: client.post(undo_url, {"version": current()}, **HTMX),
        lambda: client.get("/bench/hello/"),
    )
    version = current()  # read before: the count is the step's alone
    calls, calls_x = calls_ratio(lambda: attack(version), lambda: client.get("/bench/hello/"))
    client.post(undo_url, {"version": current()}, **HTMX)
    # CPU time of this process only: steadier on a busy machine, but it leaves out the
    # database server's share, so the wall-clock ratio above is the one that counts.
    cpu_hello = median_ms(lambda: client.get("/bench/hello/"), clock=time.process_time)
    cpu_step = timed_steps(
        attack, lambda: client.post(undo_url, {"version": current()}, **HTMX), 50, time.process_time
    )
    print(
        f"\ncpu time: bare view {cpu_hello:.2f} ms | attack step {cpu_step:.2f} ms "
        f"= {cpu_step / cpu_hello:.1f}x | Python calls {calls} = {calls_x:.1f}x the bare view's"
    )
    # The bare view reads the user too (the language middleware): the floor view makes the
    # step's other queries, the cheapest there are.
    reads = step_count - 1
    floor = median_ms(lambda: client.get(f"/bench/queries/{reads}/"))
    print(
        f"\nfloor: the user and {reads} trivial ORM reads, nothing else {floor:.2f} ms "
        f"= {floor / hello:.1f}x the bare view"
    )
    answer = _answer_template_ms(attack_and_undo, monkeypatch)
    print(
        f"\nanswer template alone (the fragments of a step, rendered from its context, "
        f"no query) {answer:.2f} ms = {answer / hello:.1f}x the bare view"
    )
    print(
        f"\nbare view {hello:.2f} ms | idle check {idle:.2f} ms = {idle / hello:.1f}x "
        f"({idle_count} queries) | EW attack step (20 combatants, 500+ log lines, the target "
        f"wounded) {step:.2f} ms = {step / hello:.1f}x ({step_count} queries besides "
        f"transaction control) | load average {load_average()}"
    )
    paired_step -= overhead
    print(
        f"\ninterleaved (a bare view timed right before each step): bare view "
        f"{paired_hello:.2f} ms | EW attack step {paired_step:.2f} ms "
        f"= {paired_step / paired_hello:.1f}x"
    )
    record(
        ew_attack_step_interleaved_hello_ms=paired_hello,
        ew_attack_step_interleaved_ratio=paired_step / paired_hello,
        hello_ms=hello,
        idle_check_ms=idle,
        idle_check_ratio=idle / hello,
        idle_check_queries=idle_count,
        ew_attack_step_ms=step,
        ew_attack_step_ratio=step / hello,
        ew_attack_step_queries=step_count,
        ew_attack_step_cpu_ratio=cpu_step / cpu_hello,
        ew_attack_step_python_calls=calls,
        ew_attack_answer_template_ratio=answer / hello,
        ew_attack_query_floor_ratio=floor / hello,
    )


def timed_steps(step, untimed, rounds: int = 100, clock=time.perf_counter) -> float:
    """The median time of ``step``, each followed by ``untimed`` (an undo), after a warm-up."""
    samples = []
    for round_ in range(rounds + 10):
        start = clock()
        step()
        elapsed = clock() - start
        untimed()
        if round_ >= 10:
            samples.append(elapsed)
    return statistics.median(samples) * 1000


def interleaved_medians(step, untimed, hello, rounds: int = 100) -> tuple[float, float]:
    """The bare view's and the step's medians (ms), each round timing one bare view right
    before one step (then ``untimed``, an undo): both measured in the same state of the
    machine. On this one a bare view run 200 times in a row gets its code and data into the
    CPU's caches and takes 0.8 to 1.3 ms, one run between steps 1.3 to 2.6 ms: the figure
    above compares a step against the first. Their ratio is printed beside the budget's
    figure, which it does not replace."""
    hellos, steps = [], []
    for round_ in range(rounds + 10):
        start = time.perf_counter()
        hello()
        between = time.perf_counter()
        step()
        end = time.perf_counter()
        untimed()
        if round_ >= 10:
            hellos.append(between - start)
            steps.append(end - between)
    return statistics.median(hellos) * 1000, statistics.median(steps) * 1000


@pytest.mark.django_db
@pytest.mark.urls("tests.bench.urls")
def test_aethoria_attack_step(client, production_rendering):
    """The same budget for an Aethoria attack (20 combatants, 500 log lines). Each timed
    attack is undone, untimed, so the next one may act."""
    from tests.systems.aethoria.test_aethoria_console import _fight

    encounter = _fight(client, 20, 500)
    hello = median_ms(lambda: client.get("/bench/hello/"))
    attacker = encounter.combatants.order_by("position").first()
    target = encounter.combatants.order_by("position")[1]
    attack_url = reverse("encounters:aethoria_attack", args=[encounter.pk])
    undo_url = reverse("encounters:undo", args=[encounter.pk])
    # Typed dice, the same each time: the blow beats the dodge and wounds the target's arm
    # (real damage, as the EW step's), and every run measures the same path.
    payload = {
        "attacker": attacker.pk,
        "target": target.pk,
        "mode": "attack",
        "weapon": attacker.character.aethoria.weapons.first().pk,
        **ARM_BLOW,
    }

    def version():
        return Encounter.objects.values_list("version", flat=True).get(pk=encounter.pk)

    samples, cpu_samples = [], []
    for round_ in range(60):
        data = {**payload, "version": version()}
        start, cpu_start = time.perf_counter(), time.process_time()
        response = client.post(attack_url, data, **HTMX)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        assert response.status_code == 200 and "field-error" not in response.text
        if round_ >= 10:  # warm-up first
            samples.append(elapsed)
            cpu_samples.append(cpu)
        client.post(undo_url, {"version": version()}, **HTMX)
    step = statistics.median(samples) * 1000
    # As for the EW step: this process's CPU time, steadier on a busy machine.
    cpu_hello = median_ms(lambda: client.get("/bench/hello/"), clock=time.process_time)
    cpu_step = statistics.median(cpu_samples) * 1000
    print(
        f"\ncpu time: bare view {cpu_hello:.2f} ms | Aethoria attack step {cpu_step:.2f} ms "
        f"= {cpu_step / cpu_hello:.1f}x"
    )
    overhead = median_ms(version)  # the test's own read, taken off as for the EW step
    paired_hello, paired_step = interleaved_medians(
        lambda: client.post(attack_url, {**payload, "version": version()}, **HTMX),
        lambda: client.post(undo_url, {"version": version()}, **HTMX),
        lambda: client.get("/bench/hello/"),
        rounds=50,
    )
    paired_step -= overhead
    print(
        f"\ninterleaved (a bare view timed right before each step): bare view "
        f"{paired_hello:.2f} ms | Aethoria attack step {paired_step:.2f} ms "
        f"= {paired_step / paired_hello:.1f}x"
    )
    with CaptureQueriesContext(connection) as queries:
        client.post(attack_url, {**payload, "version": version()}, **HTMX)
    count = steps_only(queries.captured_queries[1:])  # less the version read
    client.post(undo_url, {"version": version()}, **HTMX)
    data = {**payload, "version": version()}
    calls, calls_x = calls_ratio(
        lambda: client.post(attack_url, data, **HTMX), lambda: client.get("/bench/hello/")
    )
    print(
        f"\nbare view {hello:.2f} ms | Aethoria attack step (20 combatants, 500+ log lines) "
        f"{step:.2f} ms = {step / hello:.1f}x ({count} queries besides transaction control) "
        f"| Python calls {calls} = {calls_x:.1f}x the bare view's | load average {load_average()}"
    )
    record(
        aethoria_hello_ms=hello,
        aethoria_attack_step_ms=step,
        aethoria_attack_step_ratio=step / hello,
        aethoria_attack_step_queries=count,
        aethoria_attack_step_cpu_ratio=cpu_step / cpu_hello,
        aethoria_attack_step_python_calls=calls,
        aethoria_attack_step_interleaved_hello_ms=paired_hello,
        aethoria_attack_step_interleaved_ratio=paired_step / paired_hello,
    )


def _answer_template_ms(attack, monkeypatch) -> float:
    """The other floor of any attack step: rendering its answer, from the context a real
    step built (captured from the view), with no query and no rule computed."""
    captured = {}

    def capture(request, event, fight, form):
        captured["request"], captured["context"] = request, real(request, event, fight, form)
        return captured["context"]

    real = ew_views.attack_step_context
    monkeypatch.setattr(ew_views, "attack_step_context", capture)
    attack()
    request, context = captured["request"], captured["context"]

    def render():
        return render_to_string(f"{ew_views.ACTIONS}#attack-update", context, request)

    with CaptureQueriesContext(connection) as queries:
        render()
    assert len(queries) == 0, [q["sql"] for q in queries]
    return median_ms(render)
