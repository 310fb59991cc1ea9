"""The layout's size rule (issue 15): a module of the application that grows past ~600 lines
is split by topic, so that a reader finds things by file name."""

import ast
from pathlib import Path

from django.urls import URLResolver, get_resolver

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


def _routed_views(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routed_views(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


def test_every_view_of_the_application_is_a_plain_function_with_a_docstring():
    """Views written out (issue 15): a reader or a grep finds each route's function by its
    name and reads what it does; no factory or lambda hides one. Views built on one of
    Django's classes (the log-in page) say what they do on their class."""
    unclear = []
    for route, view in _routed_views(get_resolver().url_patterns):
        target = getattr(view, "view_class", view)
        if not target.__module__.startswith("apps."):
            continue
        if view.__name__ == "<lambda>" or not (target.__doc__ or "").strip():
            unclear.append(f"{route} {target.__module__}.{view.__name__}")
    assert unclear == []
