"""The servers' entry points (config/asgi.py, config/wsgi.py) leave what starting made out of
the garbage collector's full passes: one took 40-45 ms on this machine, every request of
the process waiting (the load tests' slowest steps)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_a_server_process_freezes_what_it_loaded_at_start(module):
    frozen_after_import = (
        f"import gc, {module}; "
        "print(gc.get_freeze_count(), sum(gc.get_count()), len(gc.get_objects()))"
    )
    env = {**os.environ, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/unused")
    output = subprocess.run(
        [sys.executable, "-c", frozen_after_import],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    frozen, _young, collected = map(int, output)
    # Nearly everything the start made is frozen: the collector's passes see the rest.
    assert frozen > 10 * collected, (frozen, collected)
