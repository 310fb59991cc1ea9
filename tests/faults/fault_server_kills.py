"""The server killed at random moments while the GM makes 100 steps (issue 27, point 5;
`make faults`): no step is ever half applied.

A uvicorn process serves the demo's EW fight; the GM strikes and passes the turn over HTTP.
Before about a third of the requests a timer is set to kill the server with SIGKILL a few
milliseconds later — while the step runs, mid-transaction, or while its answer is written.
The GM then restarts it and goes on from the version the console shows. At the end the step
log is replayed from the rows as they were before the first step — each change's "before"
must be what the previous step left, and the result must be exactly what is stored — and the
encounter's version and sequence must count the logged steps.
"""

import http.client
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

from django.apps import apps
from django.urls import reverse

from apps.encounters import services
from apps.encounters.fighters import is_dead
from apps.encounters.models import Combatant, Encounter
from apps.systems import system_of
from tests.bench.bench_load import Browser, free_port, version_in
from tests.bench.bench_push import (
    ROOT,
    UVICORN,
    demo,  # noqa: F401 - the fixture
)

STEPS = int(os.environ.get("FAULT_STEPS", "100"))
KILL_SHARE = 0.35
KILL_WITHIN_S = (0.0, 0.06)  # a step takes a few tens of milliseconds here


class Server:
    """uvicorn (one process), started, killed with SIGKILL, started again."""

    def __init__(self, env: dict):
        self.env, self.port, self.process = env, free_port(), None
        self.kills = 0

    def start(self) -> None:
        args = [sys.executable, "-m", *UVICORN, "--host", "127.0.0.1", "--port", str(self.port)]
        self.process = subprocess.Popen(args, cwd=ROOT, env=self.env)
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.kills += 1

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def rows_of(encounter: Encounter) -> dict[tuple[str, object], dict]:
    """Every row a step of this fight may change, as stored: {(label, pk): {column: value}}."""
    system = system_of(encounter.campaign)
    combatants = Combatant.objects.filter(encounter=encounter)
    character_ids = list(combatants.values_list("character_id", flat=True))
    found = {}
    for model, query in (
        (Encounter, Encounter.objects.filter(pk=encounter.pk)),
        (Combatant, combatants),
        (apps.get_model("characters.character"), None),
        (system.sheet_model(), None),
    ):
        if query is None:
            field = "pk" if model._meta.label_lower == "characters.character" else "character_id"
            query = model.objects.filter(**{f"{field}__in": character_ids})
        for row in query.values():
            found[(model._meta.label_lower, row[model._meta.pk.attname])] = row
    return found


def replay(before: dict, events) -> tuple[dict, list[str]]:
    """The rows once every logged change is applied in order, and every change whose
    "before" is not what the previous step left (a half-applied step would show there)."""
    rows = {key: dict(values) for key, values in before.items()}
    broken = []
    for event in events:
        for change in event.changes:
            row = rows.setdefault((change["model"], change["pk"]), {})
            if row.get(change["field"]) != change["before"]:
                broken.append(f"step {event.sequence}: {change}")
            row[change["field"]] = change["after"]
    return rows, broken


def differences(replayed: dict, stored: dict, events) -> list[str]:
    touched = {(c["model"], c["pk"], c["field"]) for e in events for c in e.changes}
    return [
        f"{label} {pk} {field}: replayed {replayed[(label, pk)].get(field)!r}, "
        f"stored {stored.get((label, pk), {}).get(field)!r}"
        for label, pk, field in sorted(touched, key=str)
        if replayed[(label, pk)].get(field) != stored.get((label, pk), {}).get(field)
    ]


def step_data(encounter: Encounter, number: int) -> tuple[str, dict]:
    """Odd steps pass the turn; even ones strike another fighter, with typed dice (a light
    wound: the fight lasts the 100 steps)."""
    if number % 2:
        return reverse("encounters:next_turn", args=[encounter.pk]), {}
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    house = encounter.campaign.house()
    # Spread over those still alive: a hundred blows on one fighter would kill them, and a
    # blow at the dead is refused (no step).
    alive = [c for c in combatants if c.pk != acting.pk and c.present and not is_dead(c, house)]
    target = random.choice(alive)
    data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
    data |= {"to_hit_face": random.randint(1, 10), "damage_face": 1}
    return reverse("encounters:ew_attack", args=[encounter.pk]), data


def test_the_server_killed_during_a_hundred_steps_leaves_no_step_half_applied(demo):  # noqa: F811
    env, encounter = demo
    before = rows_of(encounter)
    first_version, first_sequence = encounter.version, encounter.last_sequence
    server = Server(env)
    server.start()
    cut = restarts = made = applied_unanswered = 0
    gm = Browser(server.port)
    gm.log_in("mj", "tablee-mj")
    version = first_version
    try:
        while made < STEPS:
            encounter.refresh_from_db()
            path, data = step_data(encounter, made + 1)
            killer = None
            if random.random() < KILL_SHARE:
                killer = threading.Timer(random.uniform(*KILL_WITHIN_S), server.kill)
                killer.start()
            try:
                status, html, _ = gm.request("POST", path, {**data, "version": version}, True)
            except (OSError, http.client.HTTPException):
                status, html = None, ""
            if killer:
                killer.join()
                server.process.wait()  # answered first or not, it is down now
                server.start()
                restarts += 1
                cookies, gm = gm.cookies, Browser(server.port)  # a new connection, same session
                gm.cookies = cookies
            if status == 200:  # a step, or one the rules refused in words: the log tells
                version = version_in(html)
                encounter.refresh_from_db()
                made = encounter.last_sequence - first_sequence
                continue
            # Cut (no answer: applied or not, the log will say) or refused (409: the step a
            # cut request made went through). Go on from what the server has.
            cut += status is None
            encounter.refresh_from_db()
            version = encounter.version
            now_made = encounter.last_sequence - first_sequence
            applied_unanswered += status is None and now_made > made
            made = now_made
    finally:
        server.stop()
    encounter.refresh_from_db()
    events = list(encounter.events.filter(sequence__gt=first_sequence).order_by("sequence"))
    replayed, broken = replay(before, events)
    stored = rows_of(encounter)
    wrong = differences(replayed, stored, events)
    print(
        f"\nserver killed {server.kills} times (restarted {restarts}) during {len(events)} steps; "
        f"{cut} answers cut ({applied_unanswered} after their step committed, the others "
        f"rolled back whole); half-applied steps: {len(broken) + len(wrong)}"
    )
    assert [e.sequence for e in events] == list(
        range(first_sequence + 1, first_sequence + STEPS + 1)
    )
    assert encounter.version == first_version + len(events)  # each step moved it once
    assert broken == [] and wrong == []
