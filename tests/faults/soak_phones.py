"""Soak (issue 27, point 5; `make soak`): 100 pushed phones and a GM acting for SOAK_MINUTES
(10 by default), against the README's production server (uvicorn, a process per core).

Half the phones follow the table view, half Alice's sheet, each refreshing when told and on
the keep-alives, paced as static/js/live.js does (tests/bench/bench_push.py's Phones). The GM
strikes and undoes a step every STEP_SECONDS. Printed at the start and at the end: the
server's memory, its open file descriptors, the database's connections; then, 5 s after the
last change, how many phones still show an older state than the server's (their own check
answers 204 only when they are up to date). Fails on an error, a stream that ended, or a
stale screen.
"""

import http.client
import os
import re
import time
from pathlib import Path

from django.db import connection
from django.urls import reverse

from apps.encounters import services
from apps.encounters.models import Encounter
from tests.bench.bench_load import Browser, version_in
from tests.bench.bench_push import (
    LISTENERS,
    PRODUCTION,
    Phones,
    demo,  # noqa: F401 - the fixture
    phone_cookies,
    phone_paths,
    rss_kb,
    serving,
)

MINUTES = float(os.environ.get("SOAK_MINUTES", "10"))
STEP_SECONDS = 1.0
STALE_AFTER = 5.0


def process_tree(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *map(int, children)]


def open_files(pid: int) -> int:
    """File descriptors the server's processes hold (sockets of the streams included)."""
    return sum(len(os.listdir(f"/proc/{one}/fd")) for one in process_tree(pid))


def database_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0] - 1  # less this one


def figures(pid: int) -> dict:
    return {
        "memory_mb": round(rss_kb(pid) / 1024, 1),
        "file_descriptors": open_files(pid),
        "database_connections": database_connections(),
    }


def check(port: int, cookie: str, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Cookie": cookie, "HX-Request": "true"})
    response = conn.getresponse()
    answer = response.status, response.read().decode()
    conn.close()
    return answer


def loaded(port: int, cookie: str, path: str) -> str:
    """The version a page shows as it loads (what its check says now)."""
    _status, html = check(port, cookie, f"{path}?v=")
    return re.search(r"\?v=(\w+)", html).group(1)


def is_current(port: int, cookie: str, path: str, shown: str | None) -> bool:
    """Whether a phone's page shows what the server has: its own check says 204."""
    return shown is not None and check(port, cookie, f"{path}?v={shown}")[0] == 204


def gm_steps(port: int, encounter: Encounter, seconds: float) -> tuple[int, list[str]]:
    """The GM strikes an NPC and undoes it, a step every STEP_SECONDS, for ``seconds``."""
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk and c.character.kind == "npc")
    gm = Browser(port)
    gm.log_in("mj", "tablee-mj")
    attack = reverse("encounters:ew_attack", args=[encounter.pk])
    undo = reverse("encounters:undo", args=[encounter.pk])
    data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
    version = Encounter.objects.get(pk=encounter.pk).version
    steps, errors = 0, []
    next_at = time.monotonic()
    stop_at = next_at + seconds
    while time.monotonic() < stop_at and len(errors) < 5:
        path, payload = (attack, data) if steps % 2 == 0 else (undo, {})
        status, html, _elapsed = gm.request("POST", path, {**payload, "version": version}, True)
        if status != 200:
            errors.append(f"gm {path} {status}")
            version = Encounter.objects.get(pk=encounter.pk).version
        else:
            version = version_in(html)
            steps += 1
        next_at += STEP_SECONDS
        time.sleep(max(0.0, next_at - time.monotonic()))
    return steps, errors


def test_a_hundred_pushed_phones_and_a_gm_for_ten_minutes(demo):  # noqa: F811
    env, encounter = demo
    print(f"\nsoak: {MINUTES:g} min under {PRODUCTION}, load {Path('/proc/loadavg').read_text()}")
    with serving(env, PRODUCTION) as (port, pid):
        cookies = phone_cookies(env, encounter, LISTENERS)
        paths = phone_paths(encounter)
        phones = Phones(port, cookies, paths, refresh=True)
        assert phones.opened.wait(30), phones.errors
        table_check = reverse("encounters:changes", args=[encounter.pk])
        checks = [path or table_check for _stream, path, _region, _target in paths]
        phones.shown = [loaded(port, *both) for both in zip(cookies, checks, strict=True)]
        time.sleep(2)
        start = figures(pid)
        print(f"  start: {start}")
        steps, errors = gm_steps(port, encounter, MINUTES * 60)
        time.sleep(STALE_AFTER)
        stale = sum(
            not is_current(port, *phone)
            for phone in zip(cookies, checks, phones.shown, strict=True)
        )
        end = figures(pid)
        phones.stop()
    print(f"  end:   {end}")
    print(f"  GM steps: {steps}, phone requests: {len(phones.request_times)}")
    print(f"  errors: {len(errors) + len(phones.errors)}, streams ended: {len(phones.ended)}")
    print(f"  stale screens {STALE_AFTER:g} s after the last change: {stale}")
    assert not errors and not phones.errors, (errors + phones.errors)[:5]
    assert not phones.ended and stale == 0
