"""apps/rules stays pure Python: no Django, no clock, no randomness of its own."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "apps" / "rules"
SOURCES = sorted(RULES.rglob("*.py"))

# The rules never read the clock nor roll on their own; only the injected roller may use secrets.
FORBIDDEN = {"django", "random", "time", "datetime"}
ALLOWED_ONLY_IN = {"secrets": {"dice.py"}}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            modules.update(arg.value for arg in node.args[:1] if isinstance(arg, ast.Constant))
    return {str(m).split(".")[0] for m in modules}


def test_rules_package_has_sources():
    assert len(SOURCES) >= 5


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_django_clock_or_randomness(path):
    roots = imported_modules(path)
    assert not roots & FORBIDDEN, f"{path.name} imports {roots & FORBIDDEN}"
    for module, files in ALLOWED_ONLY_IN.items():
        if module in roots:
            assert path.name in files, f"{path.name} must not import {module}"


def test_detector_catches_django_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("from django.db import models\nimport os\n", encoding="utf-8")
    assert "django" in imported_modules(sample)


def public_definitions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            yield node
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                        yield item


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_public_functions_have_a_docstring_and_type_hints(path):
    for node in public_definitions(path):
        assert ast.get_docstring(node), f"{path.name}: {node.name} has no docstring"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is not None, f"{path.name}: {node.name} has no return type"
            args = [
                a for a in node.args.args + node.args.kwonlyargs if a.arg not in {"self", "cls"}
            ]
            untyped = [a.arg for a in args if a.annotation is None]
            assert not untyped, f"{path.name}: {node.name} has untyped {untyped}"
