import pytest

from apps import systems

THIRD = "tests.systems.third.system.THIRD"


@pytest.fixture
def third_system(settings, monkeypatch):
    """The test-only third system (tests/systems/third/) in the registry, its console routes
    in the URLconf, for one test. The registry is read once and kept (cached): it is cleared
    around the test so that neither the third system nor its absence outlives it (the log's
    writers follow the registry by themselves)."""
    monkeypatch.setitem(systems.SYSTEMS, "third", THIRD)
    systems.get_system.cache_clear()
    settings.ROOT_URLCONF = "tests.systems.third_project_urls"
    yield systems.get_system("third")
    monkeypatch.undo()
    systems.get_system.cache_clear()
