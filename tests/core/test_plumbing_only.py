"""apps/core is the plumbing under every app (htmx, live checks, refusals): it imports no
feature app, at the top of a module or inside a function, so no app sits on two floors."""

import ast
from pathlib import Path

import apps.core

CORE = Path(apps.core.__file__).parent
# The pure rules engine sits below core (refusals translate its errors); nothing else of ours.
ALLOWED = ("apps.core", "apps.rules")


def imported_modules(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def test_core_imports_no_feature_app():
    offending = {
        f"{path.relative_to(CORE)}: {module}"
        for path in CORE.rglob("*.py")
        for module in imported_modules(path)
        if module.split(".")[0] == "apps" and not module.startswith(ALLOWED)
    }
    assert not offending, sorted(offending)


def test_the_check_sees_function_local_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from apps.campaigns.models import Campaign\n")
    assert imported_modules(sample) == ["apps.campaigns.models"]
