"""The embedded PostgreSQL launcher (config/embedded_db.py), on clusters of the tests' own."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import embedded_db

ROOT = Path(__file__).resolve().parents[2]
# A process that starts (or joins) the cluster in argv[1], says so, then sleeps or exits.
HOLDER = """
import sys, time
from pathlib import Path
from config.embedded_db import start_server
start_server(Path(sys.argv[1]), throwaway=False)
print("up", flush=True)
if sys.argv[2] == "sleep":
    time.sleep(120)
"""


def hold(data_dir: Path, then: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir), then],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "up"
    return process


def server_pid(data_dir: Path) -> int | None:
    pid_file = data_dir / "postmaster.pid"
    return int(pid_file.read_text().split()[0]) if pid_file.exists() else None


def test_a_start_after_a_hard_kill_still_stops_the_server_on_exit(tmp_path):
    data_dir = tmp_path / "pgdata"
    data_dir.mkdir()
    killed = hold(data_dir, "sleep")
    postmaster = server_pid(data_dir)
    killed.send_signal(signal.SIGKILL)  # what `kill -9` of `make run` does
    killed.wait(10)
    assert killed.pid in json.loads((data_dir / embedded_db.HANDLES_FILE).read_text())
    try:
        clean = hold(data_dir, "exit")
        assert clean.wait(30) == 0
        deadline = time.monotonic() + 10
        while server_pid(data_dir) is not None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server_pid(data_dir) is None, "the server outlived the clean exit"
    finally:
        if server_pid(data_dir) is not None:
            os.kill(postmaster, signal.SIGTERM)


def test_dead_ids_are_forgotten_and_live_ones_kept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / embedded_db.HANDLES_FILE).write_text(json.dumps([os.getpid(), dead.pid]))
    embedded_db.forget_dead_handles(tmp_path)
    assert json.loads((tmp_path / embedded_db.HANDLES_FILE).read_text()) == [os.getpid()]


def test_with_debug_off_a_missing_database_url_is_an_error(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setenv("DEBUG", "0")
    monkeypatch.setattr(embedded_db, "PROJECT_DATA_DIR", tmp_path / "pgdata")
    with pytest.raises(ImproperlyConfigured, match=r"DATABASE_URL is not set\. With DEBUG off"):
        embedded_db.ensure_database_url()
    assert not (tmp_path / "pgdata").exists()


def test_manage_py_says_so_in_one_line_and_starts_no_cluster():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DEBUG="0", SECRET_KEY="x" * 60)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert result.stderr.startswith("Configuration error: DATABASE_URL is not set.")
    assert "Traceback" not in result.stderr
