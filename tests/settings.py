"""The test run's settings: the project's, plus the test-only third game system's app
(tests/systems/third/), so that its sheet has a table in the test database, made by its
own migration. The project's `makemigrations --check` runs on config.settings, without it."""

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.systems.third"]  # noqa: F405
