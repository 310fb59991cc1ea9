"""The import contracts (pyproject.toml, checked by lint-imports in CI) and the push
triggers cover every game system: a system registered without them fails here."""

import tomllib
from pathlib import Path

import pytest
from django.db import connection

from apps.systems import SYSTEMS, all_systems

ROOT = Path(__file__).resolve().parents[2]
ENCOUNTERS = ROOT / "apps" / "encounters"
# The modules of encounters a game system may import.
KIT = {"apps.encounters.kit", "apps.encounters.models"}
THIRD = "tests.systems.third"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}


def _contract(start: str) -> dict:
    return next(c for name, c in _contracts().items() if name.startswith(start))


def _system_packages() -> set[str]:
    """Every registered system's package (its folder), and the tests' third one."""
    return {path.rpartition(".system.")[0] for path in SYSTEMS.values()} | {THIRD}


def test_every_system_reaches_the_fight_framework_only_through_its_kit():
    contract = _contract("A game system reaches the fight framework only through its kit")
    assert set(contract["source_modules"]) == _system_packages()


def test_every_system_is_independent_of_the_others():
    contract = _contract("The game systems are independent")
    assert set(contract["modules"]) == _system_packages()


def test_every_other_encounters_module_is_forbidden_to_the_systems():
    contract = _contract("A game system reaches the fight framework only through its kit")
    modules = {
        f"apps.encounters.{path.stem}"
        for path in ENCOUNTERS.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert set(contract["forbidden_modules"]) == modules - KIT


def test_the_check_sees_a_missing_system(monkeypatch):
    monkeypatch.setitem(SYSTEMS, "quatre", "apps.systems.quatre.system.QUATRE")
    contract = _contract("A game system reaches the fight framework only through its kit")
    assert set(contract["source_modules"]) != _system_packages()


@pytest.mark.django_db
def test_every_systems_sheet_tells_the_open_screens_of_its_changes(third_system):
    """An open sheet follows its own changes through a trigger on its system's sheet table
    (apps/core/push.py): a system's sheet without one would leave phones behind."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "JOIN pg_proc p ON p.oid = t.tgfoid "
            "WHERE NOT t.tgisinternal AND p.proname = 'tablee_push_row'"
        )
        followed = {row[0] for row in cursor.fetchall()}
    tables = {system.sheet_model()._meta.db_table for system in all_systems()}
    assert "third_thirdsheet" in tables
    assert tables <= followed, tables - followed
