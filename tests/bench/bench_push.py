"""Live updates pushed (product spec §4-5, issue 18), against the README's production server.

- 100 listeners on loopback (half a table view's stream, half Alice's sheet's), 10 steps
  wounding Alice a second:
  the latency from a step's COMMIT to the first event at the listener that tells it, p50/p95/
  p99, and how many were never told (budget: 0). The streams pace their events (a random wait
  within the spread, then one event per pace carrying the latest version: apps/core/push.py),
  so at 10 steps a second these figures are mostly that pacing, by design.
- The same with the refresh: COMMIT to the table view's new HTML at 10 of the listeners (the
  page's check, then its region, as static/js/live.js and htmx do), a fifth of their events
  lost on the way; 5 s after the last change, how many of them still show an older state
  ("stale screens": the keep-alives must leave none).
- Idle: queries per idle phone per minute (PostgreSQL's own transaction counters for the
  database; budget: the viewer's check at each keep-alive, 2 queries per 25 s, 4.8 a
  minute), bytes per idle phone per minute, server memory per open stream.
- The load test again with 100 pushed phones and the GM acting without pause: each phone
  refreshes when told (the stream paced the events), as static/js/live.js does; no error,
  p99. Before it, single changes at a quiet table: COMMIT to each of the 100 phones'
  refreshed page, p50/p95.
- The attack step's ratio to the bare view over HTTP under uvicorn and under gunicorn (WSGI),
  and the pages' speed under gunicorn (WSGI), uvicorn ×1 and uvicorn ×2 workers.

Run with `make bench`; figures are printed, and written to the JSON file named by BENCH_JSON
(one key per figure) when it is set. Only errors and lost events fail.
"""

import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import global_settings, settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import F
from django.test import override_settings
from django.urls import reverse

from apps.accounts.models import User
from apps.campaigns.models import Membership, Role
from apps.characters.models import Character
from apps.core.push import MAX_SPREAD_MS, pace_ms
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.encounters.steps import bump_version
from tests.accounts.factories import UserFactory
from tests.asgi_server import session_cookie
from tests.bench.bench_load import Browser, database_url, free_port, percentile, version_in

ROOT = Path(settings.BASE_DIR)
MIN_PACE = 1.0  # s between a page's own refreshes (static/js/live.js's MIN_PACE_MS)
LISTENERS = 100
CHANGES_PER_SECOND = 10
PUSH_SECONDS = 10
REFRESHING = 10
IDLE_SECONDS = 30
LOAD_SECONDS = 20
STATS_FLUSH = 11  # an idle backend reports its counters within 10 s (PostgreSQL ≥ 15)
# The share of "changed" events the refreshing phones lose on the way, and how long after the
# last change every screen must show it (issue 27: a lost event never means a stale screen).
DROPPED = 0.2
STALE_AFTER = 5.0

UVICORN = (
    *("uvicorn", "config.asgi:application", "--no-access-log", "--log-level", "warning"),
    *("--no-proxy-headers", "--timeout-graceful-shutdown", "2"),
)
SERVERS = {
    "gunicorn (WSGI)": ("gunicorn", "config.wsgi", "--workers", "3", "--threads", "4"),
    "uvicorn x1": UVICORN,
    "uvicorn x2": (*UVICORN, "--workers", "2"),
    "uvicorn, a process per core": (*UVICORN, "--workers", str(os.cpu_count() or 1)),
}
# The README's production command (one process per core); BENCH_SERVER=<a name of
# SERVERS> measures another.
PRODUCTION = os.environ.get("BENCH_SERVER", "uvicorn, a process per core")


def record(**figures) -> None:
    """Print figures and add them to the BENCH_JSON file (one key each)."""
    for key, value in figures.items():
        print(f"  {key} = {value}")
    path = os.environ.get("BENCH_JSON")
    if not path:
        return
    found = json.loads(Path(path).read_text()) if Path(path).exists() else {}
    found.update(figures)
    Path(path).write_text(json.dumps(found, indent=2, sort_keys=True) + "\n")


@pytest.fixture
def demo(transactional_db, settings):
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    call_command("seed", verbosity=0)
    settings.DEBUG = True  # the demo accounts are for development only
    call_command("demo", verbosity=0)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bench.settings",
        "DEBUG": "0",
        "SECRET_KEY": "push-bench-" + "x" * 60,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url(),
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    encounter = Encounter.objects.select_related("campaign").get(campaign__system="ew")
    services.encounter_start(
        encounter_id=encounter.pk, version=None, by=User.objects.get(username="mj")
    )
    encounter.refresh_from_db()
    return env, encounter


@contextmanager
def serving(env: dict, name: str):
    port = free_port()
    args = SERVERS[name]
    where = (
        ("--bind", f"127.0.0.1:{port}")
        if args[0] == "gunicorn"
        else ("--host", "127.0.0.1", "--port", str(port))
    )
    process = subprocess.Popen([sys.executable, "-m", *args, *where], cwd=ROOT, env=env)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.5)  # every worker up
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(10)


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children (the workers)."""
    total = 0
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for one in [pid, *map(int, children)]:
        status = Path(f"/proc/{one}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return total


def transactions() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            [connection.settings_dict["NAME"]],
        )
        return cursor.fetchone()[0]


class Phones:
    """Listeners on their streams, in an event loop of their own thread; with ``refresh``,
    a phone then fetches its page's check and region (coalesced while one is under way).
    With ``drop``, that share of the "changed" events is lost on the way (never seen by the
    phone): only the keep-alives, which say how many changes were told, can then put it
    right, as static/js/live.js does."""

    def __init__(
        self, port: int, cookies: list[str], paths: list, refresh: bool = False, drop: float = 0
    ):
        self.port, self.cookies, self.paths, self.refresh = port, cookies, paths, refresh
        self.drop = drop
        self.dropped = 0
        self.shown: list[str | None] = [None] * len(paths)  # the version each page shows
        self.seq = [0] * len(paths)  # how many changes each phone heard of (apps/core/push.py)
        self.loop = asyncio.new_event_loop()
        # Each event's version (None for a sheet's topics) and when it came.
        self.received: list[list[tuple[str | None, float]]] = [[] for _ in paths]
        self.bytes = [0] * len(paths)
        self.refreshed: list[tuple[str | None, float]] = []  # the version shown, when
        self.request_times: list[float] = []
        self.errors: list[str] = []
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.count = 0
        self.tasks: list[asyncio.Future] = []
        self.ended: list[int] = []
        # Held: the loop keeps only weak references to its tasks.
        self.streams = [
            asyncio.run_coroutine_threadsafe(self.listen(number), self.loop)
            for number in range(len(paths))
        ]

    async def listen(self, number: int):
        stream, check, region, target = self.paths[number]
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(
            f"GET {stream} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookies[number]}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            self.errors.append(f"stream {status!r}")
            return
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        self.count += 1
        if self.count == len(self.paths):
            self.opened.set()
        pending = asyncio.Event()
        if self.refresh:
            refreshing = self.refresher(number, check, region, target, pending)
            self.tasks.append(asyncio.ensure_future(refreshing))
        kind = None
        while line := await reader.readline():
            self.bytes[number] += len(line)
            if line.startswith(b"event: "):
                kind = line[7:].strip().decode()
            elif line.startswith(b"data: "):
                told = json.loads(line[6:])
                if kind == "alive":
                    self.alive(number, told, pending)
                elif self.drop and random.random() < self.drop:
                    self.dropped += 1
                else:
                    self.seq[number] = told["seq"]
                    self.received[number].append((told["version"], time.perf_counter()))
                    pending.set()
        self.ended.append(number)

    def alive(self, number: int, told: dict, pending: asyncio.Event) -> None:
        """A keep-alive: more changes told than this phone heard of (an event lost) refresh
        it, as static/js/live.js does."""
        if told["seq"] > self.seq[number]:
            self.seq[number] = told["seq"]
            self.received[number].append((told["version"], time.perf_counter()))
            pending.set()

    async def refresher(self, number, check, region, target, pending):
        """A phone's refreshes as static/js/live.js makes them: when told (the stream paced
        the events), and a second after the last one when it refreshes by itself."""
        version = None
        last = 0.0
        while True:
            await pending.wait()
            await asyncio.sleep(max(0.0, last + MIN_PACE - time.perf_counter()))
            pending.clear()
            last = time.perf_counter()
            told = self.received[number][-1][0]
            if check is None:  # the table view: a pushed version fetches its region at once
                shown = f"?shown={version}" if version else ""
                status, html = await self.get(number, region + shown, target)
                if status == 200:
                    version = re.search(r"\?v=(\w+)", html).group(1)
                    self.shown[number] = version
                    if int(version) < int(told):
                        pending.set()  # served a render a little older: again, paced
                    told = version  # what the page shows
            else:
                status, html = await self.get(number, f"{check}?v={version}")
                if status == 200:
                    version = re.search(r"\?v=(\w+)", html).group(1)
                    status, html = await self.get(number, region, target)
                    if status == 200:
                        self.shown[number] = version
            if status not in (200, 204):
                self.errors.append(f"refresh {status}")
            self.refreshed.append((told, time.perf_counter()))

    async def get(self, number: int, path: str, target: str = "") -> tuple[int, str]:
        start = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        headers = f"HX-Target: {target}\r\n" if target else ""
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookies[number]}\r\n"
            f"HX-Request: true\r\n{headers}Connection: close\r\n\r\n".encode()
        )
        answer = await reader.read()
        writer.close()
        self.request_times.append(time.perf_counter() - start)
        head, _, body = answer.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body.decode(errors="replace")

    def stop(self):
        def cancel_all():
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
            self.loop.call_soon(self.loop.stop)

        self.loop.call_soon_threadsafe(cancel_all)
        self.thread.join(5)


def told_at(events: list[tuple[str | None, float]], version: str, start: float) -> float | None:
    """When a listener was first told of the change to ``version`` made at ``start``: the
    first event after it carrying that version or a newer one (a sheet's events carry none:
    the first event after it). None if never."""
    for told, at in events:
        if at >= start and (told is None or int(told) >= int(version)):
            return at
    return None


def latencies(received, sent: dict[str, float]) -> tuple[list[float], int]:
    """COMMIT-to-event latencies (s) of the changes in ``sent`` (by version), and how many
    were never told."""
    found, lost = [], 0
    for events in received:
        for version, start in sent.items():
            at = told_at(events, version, start)
            if at is None:
                lost += 1
            else:
                found.append(at - start)
    return found, lost


def change(encounter: Encounter) -> tuple[str, float]:
    """One step that wounds Alice: the encounter's and its campaign's version bump (one
    statement) and a write to her character, and the time just before it; returns the
    encounter's new version."""
    start = time.perf_counter()
    with transaction.atomic():
        bump_version(encounter)
        alice = alices_sheet(encounter)
        Character.objects.filter(pk=alice.pk).update(name=F("name"))
    return str(encounter.version), start


def alices_sheet(encounter: Encounter) -> Character:
    return Character.objects.get(campaign=encounter.campaign, owner__username="alice")


def changes(encounter: Encounter, seconds: float) -> dict[str, float]:
    sent: dict[str, float] = {}
    next_at = time.perf_counter()
    for _ in range(int(seconds * CHANGES_PER_SECOND)):
        version, start = change(encounter)
        sent[version] = start
        next_at += 1 / CHANGES_PER_SECOND
        time.sleep(max(0, next_at - time.perf_counter()))
    time.sleep(0.5)  # the last events on their way
    return sent


def phone_paths(encounter: Encounter) -> list[tuple[str, str | None, str, str]]:
    """Each phone's stream, check (None: the table view skips it, components/live.html's
    direct), region and the region's id, half on the table view, half on Alice's sheet."""
    sheet = alices_sheet(encounter)
    table = (
        reverse("encounters:stream", args=[encounter.pk]),
        None,
        reverse("encounters:table", args=[encounter.pk]),
        "table-body",
    )
    own = (
        reverse("characters:stream", args=[sheet.pk]),
        reverse("characters:changes", args=[sheet.pk]),
        reverse("characters:detail", args=[sheet.pk]),
        "sheet",
    )
    return [table if number % 2 else own for number in range(LISTENERS)]


def phone_cookies(env: dict, encounter: Encounter, count: int) -> list[str]:
    """The sessions of ``count`` players of the campaign, one per phone (a user's streams are
    capped), signed with the server's key (signed-cookie sessions)."""
    cookies = []
    with override_settings(SECRET_KEY=env["SECRET_KEY"]):
        for _ in range(count):
            player = UserFactory()
            Membership.objects.create(campaign=encounter.campaign, user=player, role=Role.PLAYER)
            cookies.append(session_cookie(player))
    return cookies


def test_push_to_a_hundred_phones(demo):
    env, encounter = demo
    print(f"\npush bench under {PRODUCTION}, load average {Path('/proc/loadavg').read_text()}")
    with serving(env, PRODUCTION) as (port, pid):
        cookies = phone_cookies(env, encounter, LISTENERS + REFRESHING)
        memory_before = rss_kb(pid)
        phones = Phones(port, cookies[:LISTENERS], phone_paths(encounter))
        assert phones.opened.wait(20), phones.errors
        time.sleep(1)
        memory_per_stream = (rss_kb(pid) - memory_before) / LISTENERS

        # 1. Push alone.
        sent = changes(encounter, PUSH_SECONDS)
        # Every step changes both what the table view and what Alice's sheet follow.
        found, lost = latencies(phones.received, sent)
        record(
            push_listeners=LISTENERS,
            push_changes_per_second=CHANGES_PER_SECOND,
            push_events=len(found),
            push_lost=lost,
            push_p50_ms=round(percentile(found, 0.50), 2),
            push_p95_ms=round(percentile(found, 0.95), 2),
            push_p99_ms=round(percentile(found, 0.99), 2),
            stream_memory_kb=round(memory_per_stream, 1),
        )

        # 2. With the refresh of 10 table views, a share of whose events are lost on the
        # way: the keep-alive after the last change must bring every screen to it.
        table = [phone_paths(encounter)[1]] * REFRESHING
        refreshers = Phones(port, cookies[LISTENERS:], table, refresh=True, drop=DROPPED)
        assert refreshers.opened.wait(20), refreshers.errors
        sent = changes(encounter, PUSH_SECONDS)
        time.sleep(STALE_AFTER - 0.5)  # changes() waited 0.5 s already
        final = str(Encounter.objects.get(pk=encounter.pk).version)
        stale = sum(shown != final for shown in refreshers.shown)
        times = [at - sent[told] for told, at in refreshers.refreshed if told in sent]
        refreshers.stop()
        print(f"  stale screens {STALE_AFTER:g} s after the last change: {stale}")
        record(
            refresh_p50_ms=round(percentile(times, 0.50), 2),
            refresh_p95_ms=round(percentile(times, 0.95), 2),
            refresh_errors=len(refreshers.errors),
            refresh_events_dropped=refreshers.dropped,
            stale_screens_5s_after_last_change=stale,
        )

        # 3. Idle: no change at all.
        time.sleep(STATS_FLUSH)
        before, bytes_before = transactions(), sum(phones.bytes)
        time.sleep(IDLE_SECONDS)
        idle_bytes = sum(phones.bytes) - bytes_before
        time.sleep(STATS_FLUSH)
        queries = transactions() - before - 1  # less the first count's own transaction
        per_minute = 60 / IDLE_SECONDS / LISTENERS
        record(
            idle_queries_per_phone_minute=round(queries * per_minute, 2),
            idle_bytes_per_phone_minute=round(idle_bytes * per_minute, 1),
        )
        phones.stop()
        assert not phones.errors, phones.errors[:5]
        assert lost == 0
        assert stale == 0


def test_load_with_a_hundred_pushed_phones_and_a_gm_acting(demo):
    """bench_load.py again, the phones pushed instead of polling: each refreshes when told."""
    env, encounter = demo
    print(f"\npushed load under {PRODUCTION}, load average {Path('/proc/loadavg').read_text()}")
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk and c.character.kind == "npc")
    with serving(env, PRODUCTION) as (port, _pid):
        cookies = phone_cookies(env, encounter, LISTENERS)
        phones = Phones(port, cookies, phone_paths(encounter), refresh=True)
        assert phones.opened.wait(20), phones.errors
        quiet = one_change_at_a_time(phones, encounter)
        gm_times: list[float] = []
        errors: list[str] = []
        browser = Browser(port)
        browser.log_in("mj", "tablee-mj")
        attack = reverse("encounters:ew_attack", args=[encounter.pk])
        undo = reverse("encounters:undo", args=[encounter.pk])
        version = Encounter.objects.get(pk=encounter.pk).version
        data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
        stop_at = time.perf_counter() + LOAD_SECONDS
        while time.perf_counter() < stop_at and not errors:
            for path, payload in ((attack, data), (undo, {})):
                status, html, elapsed = browser.request(
                    "POST", path, {**payload, "version": version}, htmx=True
                )
                if status != 200:
                    errors.append(f"gm {path} {status}")
                    break
                version = version_in(html)
                gm_times.append(elapsed)
        time.sleep(1)
        phones.stop()
    everything = gm_times + phones.request_times
    record(
        refresh_quiet_p50_ms=round(percentile(quiet, 0.50), 1),
        refresh_quiet_p95_ms=round(percentile(quiet, 0.95), 1),
        pushed_load_gm_steps=len(gm_times),
        pushed_load_phone_requests=len(phones.request_times),
        pushed_load_errors=len(errors) + len(phones.errors),
        pushed_load_gm_p50_ms=round(statistics.median(gm_times) * 1000, 1),
        pushed_load_gm_p99_ms=round(percentile(gm_times, 0.99), 1),
        pushed_load_phones_p99_ms=round(percentile(phones.request_times, 0.99), 1),
        pushed_load_p99_ms=round(percentile(everything, 0.99), 1),
    )
    assert not errors and not phones.errors, (errors + phones.errors)[:5]


def one_change_at_a_time(phones: Phones, encounter: Encounter, count: int = 5) -> list[float]:
    """A GM's tap at a quiet table of 100 phones: COMMIT to each phone's refreshed page (s),
    over ``count`` changes a quiet while apart. The phones' requests are then forgotten, so
    that the load's figures are the load's."""
    starts: list[float] = []
    quiet = pace_ms(MAX_SPREAD_MS) / 1000 + 0.5  # longer than any pace
    for _ in range(count):
        time.sleep(quiet)  # each change is the first after a quiet spell
        starts.append(change(encounter)[1])
    time.sleep(quiet)
    # A quiet spell apart: a refresh is of the latest change made before it.
    times = [
        at - max(start for start in starts if start <= at)
        for _told, at in phones.refreshed
        if any(start <= at for start in starts)
    ]
    phones.refreshed.clear()
    phones.request_times.clear()
    return times


def median_request_ms(browser: Browser, method, path, data=None, rounds=200) -> float:
    samples = []
    for number in range(rounds + 10):
        status, _, elapsed = browser.request(method, path, data, htmx=True)
        assert status == 200, (path, status)
        if number >= 10:  # warm-up
            samples.append(elapsed)
    return statistics.median(samples) * 1000


def attack_ratio(port: int, encounter: Encounter) -> tuple[float, float, float]:
    """Median ms of the bare view and of an attack step (with its undo), over HTTP."""
    combatants = services.load_combatants(encounter)
    acting = services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.pk != acting.pk and c.character.kind == "npc")
    browser = Browser(port)
    browser.log_in("mj", "tablee-mj")
    hello = median_request_ms(browser, "GET", "/bench/hello/")
    attack = reverse("encounters:ew_attack", args=[encounter.pk])
    undo = reverse("encounters:undo", args=[encounter.pk])
    data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
    samples = []
    version = Encounter.objects.get(pk=encounter.pk).version
    for number in range(110):
        status, html, elapsed = browser.request(
            "POST", attack, {**data, "version": version}, htmx=True
        )
        assert status == 200, status
        version = version_in(html)
        if number >= 10:
            samples.append(elapsed)
        _, html, _ = browser.request("POST", undo, {"version": version}, htmx=True)
        version = version_in(html)
    step = statistics.median(samples) * 1000
    return hello, step, step / hello


def pages_speed(port: int, path: str, cookie: dict, clients=8, seconds=8.0):
    """Requests a second and p50/p99 ms of one page, ``clients`` at once without pause."""
    times: list[float] = []
    stop_at = time.perf_counter() + seconds

    def run():
        browser = Browser(port)
        browser.cookies = dict(cookie)
        while time.perf_counter() < stop_at:
            status, _, elapsed = browser.request("GET", path)
            assert status == 200, status
            times.append(elapsed)

    threads = [threading.Thread(target=run) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(times) / seconds, statistics.median(times) * 1000, percentile(times, 0.99)


def test_servers_attack_ratio_and_pages_speed(demo):
    env, encounter = demo
    print(f"\nservers, load average {Path('/proc/loadavg').read_text()}")
    figures = {}
    named = (("gunicorn (WSGI)", "wsgi"), ("uvicorn x1", "uvicorn1"), (PRODUCTION, "asgi"))
    for name, key in named:
        with serving(env, name) as (port, _pid):
            hello, step, ratio = attack_ratio(port, encounter)
            player = Browser(port)
            player.log_in("alice", "tablee-alice")
            table = reverse("encounters:table", args=[encounter.pk])
            rate, p50, p99 = pages_speed(port, table, player.cookies)
            print(
                f"{name}: bare view {hello:.2f} ms, attack step {step:.2f} ms = {ratio:.1f}x | "
                f"table view, 8 clients: {rate:.0f}/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms"
            )
            figures[f"attack_ratio_{key}"] = round(ratio, 2)
            figures[f"table_view_per_second_{key}"] = round(rate)
            figures[f"table_view_p99_ms_{key}"] = round(p99, 1)
    record(**figures)
