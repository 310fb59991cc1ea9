"""`make clean` keeps the embedded database unless told, in words, to delete it."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".pgdata").mkdir()
    (tmp_path / ".pgdata" / "PG_VERSION").write_text("18\n")
    return tmp_path


def clean(project: Path, answer: str) -> str:
    result = subprocess.run(
        ["make", "-s", "clean"], cwd=project, input=answer, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("answer", ["", "no\n", "y\n"], ids=["no-input", "no", "y"])
def test_clean_warns_and_keeps_the_database_unless_yes(project, answer):
    out = clean(project, answer)
    assert "every local campaign, character and account" in out and "Kept .pgdata/." in out
    assert (project / ".pgdata" / "PG_VERSION").exists()
    assert not (project / ".venv").exists()


def test_clean_deletes_the_database_after_yes(project):
    assert "Deleted .pgdata/." in clean(project, "yes\n")
    assert not (project / ".pgdata").exists()
