import pytest


@pytest.fixture(autouse=True)
def _development(settings):
    # The demo is for development (pytest-django runs tests with DEBUG off).
    settings.DEBUG = True
