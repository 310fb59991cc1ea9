"""The layout's size rule (issue 15): a module of the application that grows past ~600 lines
is split by topic, so that a reader finds things by file name."""

import ast
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


def _function_local_imports(path: Path) -> list[str]:
    """``import`` statements inside a function of this module (a type-only import under
    ``if TYPE_CHECKING:`` sits at module level and is not one)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [
                f"{path.relative_to(APPS)}:{inner.lineno}"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            ]
    return found


def test_no_application_function_imports_inside_itself():
    """Imports at the top (issue 15): one hidden in a function dodges a cycle or a layer
    that the import contracts would otherwise show."""
    local = [
        place
        for path in APPS.rglob("*.py")
        if "migrations" not in path.parts
        for place in _function_local_imports(path)
    ]
    assert local == []
