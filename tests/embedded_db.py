"""pytest plugin: give the test run a PostgreSQL before Django reads its settings.

With DATABASE_URL set, that server is used. Otherwise a throwaway embedded cluster is
started in a temporary folder and deleted when the run ends.
"""

import os

import pytest

from config.embedded_db import ensure_database_url


# A wrapper runs before every plain implementation of the hook, pytest-django's included,
# and pytest-django reads the settings (hence DATABASE_URL) in that hook.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    os.environ.setdefault("DEBUG", "1")
    ensure_database_url(throwaway=True)
    return (yield)
