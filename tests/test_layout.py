"""The layout's size rule (issue 15): a module of the application that grows past ~600 lines
is split by topic, so that a reader finds things by file name."""

from pathlib import Path

APPS = Path(__file__).resolve().parents[1] / "apps"
MAX_LINES = 600


def test_no_application_module_is_over_600_lines():
    long = {
        str(path.relative_to(APPS)): count
        for path in APPS.rglob("*.py")
        if "migrations" not in path.parts
        and (count := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
