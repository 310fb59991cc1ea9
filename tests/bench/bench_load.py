"""Load on loopback (product spec §5): 100 phones checking for news every 2 s while the GM
acts without pause, against gunicorn as the README's production section runs it.

Each phone behaves as its page does (static/js/live.js, htmx): it checks with the version it
last saw, and when the answer says something changed it fetches the region its page
refreshes (the table view's body, or the sheet) and keeps the new version. The GM acting
without pause, nearly every check brings news: the heaviest a fight makes the phones.

Budget: no error, p99 latency ≤ 100 ms. Run with `make bench`; this prints a measurement, it
asserts only that nothing failed. The demo campaigns are loaded into the test database, which
a gunicorn started here serves (DEBUG off, static files collected as in production).
"""

import http.client
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import global_settings, settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from apps.accounts.models import User
from apps.characters.live import sheet_fingerprint
from apps.characters.models import Character
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.bench.figures import load_average, record

PHONES = 100
PHONE_PERIOD = 2.0  # seconds between two checks of one phone
DURATION = 20.0  # seconds of load
CLIENT_THREADS = 10
ROOT = Path(settings.BASE_DIR)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host = db["HOST"] or "localhost"
    return f"postgres://{db['USER']}{password}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


class Browser:
    """One keep-alive connection with its cookies, as a phone or the GM's laptop."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        htmx: bool = False,
        target: str = "",
    ):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if htmx:
            headers["HX-Request"] = "true"
        if target:
            headers["HX-Target"] = target
        start = time.perf_counter()
        try:
            response = self._send(method, path, body, headers)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the idle keep-alive connection (as gunicorn does after a
            # few seconds): like a browser, open a new one and send the request again.
            self.connection.close()
            response = self._send(method, path, body, headers)
        text = response.read().decode()
        elapsed = time.perf_counter() - start
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, text, elapsed

    def _send(self, method, path, body, headers) -> http.client.HTTPResponse:
        self.connection.request(method, path, body=body, headers=headers)
        return self.connection.getresponse()

    def log_in(self, username: str, password: str):
        login = reverse("accounts:login")
        _status, page, _ = self.request("GET", login)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, _, _ = self.request(
            "POST",
            login,
            {"username": username, "password": password, "csrfmiddlewaretoken": token},
        )
        assert status == 302, f"login of {username}: {status}"


def version_in(html: str) -> int:
    return int(re.search(r'value="(\d+)" class="encounter-version"', html).group(1))


@pytest.fixture
def server(transactional_db, settings):
    # The server checks passwords with the real hashers (the tests' fast one is not there).
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    call_command("seed", verbosity=0)
    settings.DEBUG = True  # the demo accounts are for development only
    call_command("demo", verbosity=0)
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "load-test-" + "x" * 60,
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
    port = free_port()
    # The README's production command (workers and threads), on a free port.
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--workers", "3", "--threads", "4", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


def test_phones_and_a_gm_under_load(server):
    port = server
    encounter = Encounter.objects.select_related("campaign").get(campaign__system="ew")
    gm = User.objects.get(username="mj")
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    acting = services.acting_combatant(encounter, services.load_combatants(encounter))
    # The GM's blows land on an NPC, as most do: the PC's sheet the phones watch changes only
    # when the fight's banner does (the table view's phones still fetch after every step).
    target = (
        encounter.combatants.exclude(pk=acting.pk)
        .filter(character__kind="npc")
        .order_by("position")
        .first()
    )

    sheet = Character.objects.get(campaign=encounter.campaign, owner__username="alice")
    table_version = encounter.version
    sheet_version = sheet_fingerprint(sheet.pk, sheet.owner_id)
    stop = threading.Event()
    phone_times: list[float] = []
    refresh_times: list[float] = []
    gm_times: list[float] = []
    errors: list[str] = []

    player = Browser(port)
    player.log_in("alice", "tablee-alice")  # once: each phone then carries her session

    def phones(first: int, count: int):
        """Several phones from one client thread: a hundred client threads would mostly
        measure this process waiting for its own interpreter lock."""
        screens = []
        for number in range(first, first + count):
            browser = Browser(port)
            browser.cookies = dict(player.cookies)
            # Half follow the fight's table view, half their sheet (its own news):
            # (the check, the region the page then fetches, its htmx target, the version).
            # Each starts with the version its page was loaded with: no burst of refreshes
            # at the start that no table would see.
            if number % 2:
                check = reverse("encounters:changes", args=[encounter.pk])
                region = (reverse("encounters:table", args=[encounter.pk]), "table-body")
                seen = table_version
            else:
                check = reverse("characters:changes", args=[sheet.pk])
                region = (reverse("characters:detail", args=[sheet.pk]), "sheet")
                seen = sheet_version
            screens.append([browser, check, region, seen])
        offset = random.uniform(0, PHONE_PERIOD)
        next_check = time.perf_counter() + offset
        while not stop.is_set():
            for screen in screens:
                browser, check, (region, target), version = screen
                try:
                    status, html, elapsed = browser.request(
                        "GET", f"{check}?v={version}", htmx=True
                    )
                    phone_times.append(elapsed)
                    if status == 200:  # news: the page fetches its region again
                        screen[3] = re.search(r"\?v=(\w+)", html).group(1)
                        status, _, elapsed = browser.request(
                            "GET", region, htmx=True, target=target
                        )
                        refresh_times.append(elapsed)
                except OSError as error:
                    errors.append(f"phone {error!r}")
                    continue
                if status not in (200, 204):
                    errors.append(f"phone {status}")
            next_check += PHONE_PERIOD
            stop.wait(max(0, next_check - time.perf_counter()))

    def game_master():
        browser = Browser(port)
        browser.log_in("mj", "tablee-mj")
        attack = reverse("encounters:ew_attack", args=[encounter.pk])
        undo = reverse("encounters:undo", args=[encounter.pk])
        version = Encounter.objects.get(pk=encounter.pk).version
        data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
        while not stop.is_set():
            # Strike, then take it back: the fight stays the same, however long the test.
            for path, payload in ((attack, data), (undo, {})):
                try:
                    status, html, elapsed = browser.request(
                        "POST", path, {**payload, "version": version}, htmx=True
                    )
                except OSError as error:
                    errors.append(f"gm {error!r}")
                    return
                if status != 200:
                    errors.append(f"gm {path} {status}")
                    return
                version = version_in(html)
                gm_times.append(elapsed)

    per_thread = PHONES // CLIENT_THREADS
    threads = [
        threading.Thread(target=phones, args=(n * per_thread, per_thread))
        for n in range(CLIENT_THREADS)
    ]
    threads.append(threading.Thread(target=game_master))
    for thread in threads:
        thread.start()
    time.sleep(DURATION)
    stop.set()
    for thread in threads:
        thread.join(15)
    everything = phone_times + refresh_times + gm_times
    print(
        f"\nload: {PHONES} phones every {PHONE_PERIOD:.0f} s + 1 GM acting, {DURATION:.0f} s, "
        f"{len(everything)} requests, {len(errors)} errors\n"
        f"phones' checks p50 {statistics.median(phone_times) * 1000:.1f} ms, "
        f"p99 {percentile(phone_times, 0.99):.1f} ms | their refreshes ({len(refresh_times)}) "
        f"p50 {statistics.median(refresh_times) * 1000:.1f} ms, "
        f"p99 {percentile(refresh_times, 0.99):.1f} ms | GM steps p50 "
        f"{statistics.median(gm_times) * 1000:.1f} ms, p99 {percentile(gm_times, 0.99):.1f} ms "
        f"| all p99 {percentile(everything, 0.99):.1f} ms (budget 100 ms) "
        f"| load average {load_average()}"
    )
    record(
        load_requests=len(everything),
        load_errors=len(errors),
        load_p99_ms=percentile(everything, 0.99),
        load_phone_check_p99_ms=percentile(phone_times, 0.99),
        gm_step_p50_ms=statistics.median(gm_times) * 1000,
        gm_step_p99_ms=percentile(gm_times, 0.99),
    )
    assert not errors, errors[:5]
