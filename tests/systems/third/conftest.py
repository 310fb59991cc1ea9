import pytest

from apps import systems
from apps.encounters import log

THIRD = "tests.systems.third.system.THIRD"


@pytest.fixture
def third_system(settings, monkeypatch):
    """The third system in the registry, its console routes in the URLconf, for one test.

    The registry and the log's writers are read once and kept (cached): they are cleared
    around the test so that neither the third system nor its absence outlives it."""
    monkeypatch.setitem(systems.SYSTEMS, "third", THIRD)
    systems.get_system.cache_clear()
    log._writers.cache_clear()
    settings.ROOT_URLCONF = "tests.systems.third.project_urls"
    yield systems.get_system("third")
    monkeypatch.undo()
    systems.get_system.cache_clear()
    log._writers.cache_clear()
