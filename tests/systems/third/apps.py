from django.apps import AppConfig


class ThirdConfig(AppConfig):
    """A game system that exists only in the tests (the proof that generic code assumes
    neither EW-System nor Aethoria). Installed by tests/settings.py; registered in
    ``SYSTEMS`` only by the ``third_system`` fixture."""

    name = "tests.systems.third"
    label = "third"
    default_auto_field = "django.db.models.BigAutoField"
