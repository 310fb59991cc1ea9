"""The restore drill (issue 27, point 6), run by CI with the suite: a dump of the demo's data
(`manage.py backup`) restored into an empty database (`manage.py restore`, as a person runs
it) holds every table row for row, and the push triggers."""

import subprocess
import sys
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from apps.core.backups import tables
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.demo_data import load_demo

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]

FINGERPRINT = """
SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), ''))
  FROM {table} t
"""
TRIGGERS = """
SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
 WHERE NOT t.tgisinternal ORDER BY 1, 2
"""


def fingerprints(cursor, names: list[str]) -> dict[str, tuple]:
    found = {}
    for name in names:
        cursor.execute(FINGERPRINT.format(table=f'"{name}"'))
        found[name] = cursor.fetchone()
    cursor.execute(TRIGGERS)
    found["(triggers)"] = tuple(cursor.fetchall())
    return found


def url_of(settings_dict: dict, name: str) -> str:
    host = quote(settings_dict["HOST"] or "localhost", safe="")
    password = f":{quote(settings_dict['PASSWORD'], safe='')}" if settings_dict["PASSWORD"] else ""
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    return f"postgres://{settings_dict['USER']}{password}@{host}{port}/{name}"


@pytest.fixture
def empty_database():
    name = f"{connection.settings_dict['NAME']}_restored"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def demo_data(settings):
    gm = load_demo(settings)
    encounter = Encounter.objects.get(campaign__system="ew")
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)


def test_a_dump_of_the_demo_restores_into_an_empty_database_table_for_table(
    demo_data, empty_database, tmp_path
):
    dump = tmp_path / "demo.dump"
    call_command("backup", str(dump), stdout=StringIO())
    env = {
        "PATH": "/usr/bin:/bin",
        "DEBUG": "1",
        "DATABASE_URL": url_of(connection.settings_dict, empty_database),
    }
    restored = subprocess.run(
        [sys.executable, "manage.py", "restore", str(dump)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert restored.returncode == 0, restored.stderr
    names = tables()
    assert "encounters_event" in names and len(names) > 30
    with connection.cursor() as cursor:
        original = fingerprints(cursor, names)
    params = {**connection.get_connection_params(), "dbname": empty_database}
    params.pop("cursor_factory", None)
    with psycopg.connect(**params) as other, other.cursor() as cursor:
        copy = fingerprints(cursor, names)
    assert copy == original
    assert original["accounts_user"][0] == 3 and original["encounters_event"][0] >= 1


def test_a_restore_into_a_database_that_holds_data_is_refused(tmp_path, db):
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(_touch(tmp_path / "any.dump")))


def _touch(path: Path) -> Path:
    path.write_bytes(b"PGDMP")
    return path
