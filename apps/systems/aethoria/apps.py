from django.apps import AppConfig


class AethoriaConfig(AppConfig):
    """A Django app only for its template tags: the system itself is found through the
    registry of ``apps.systems``."""

    name = "apps.systems.aethoria"
    label = "systems_aethoria"
    verbose_name = "Aethoria"
