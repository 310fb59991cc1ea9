"""The test run's settings: the project's, plus the test-only third game system's app
(tests/systems/third/), so that its sheet has a table in the test database, made by its
own migration. The project's `makemigrations --check` runs on config.settings, without it."""

import atexit
import shutil
import tempfile
from pathlib import Path

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.systems.third"]  # noqa: F405

# The handouts the tests upload go to a folder of this run's own, deleted when it ends.
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="tablee-test-media-"))
atexit.register(shutil.rmtree, MEDIA_ROOT, ignore_errors=True)
