"""How the suite reports itself (pyproject.toml's [tool.pytest.ini_options])."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_skipped_test_says_why_without_asking(tmp_path):
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\ndef test_needs_a_browser():\n    pytest.skip('no Chromium here')\n"
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            ROOT / "pyproject.toml",
            "--rootdir",
            ROOT,
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            tmp_path / "test_sample.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "1 skipped" in result.stdout, result.stdout + result.stderr
    assert "SKIPPED [1]" in result.stdout and "no Chromium here" in result.stdout
