from django.apps import AppConfig

from . import all_systems


class SystemsConfig(AppConfig):
    name = "apps.systems"
    verbose_name = "Systèmes de jeu"

    def ready(self) -> None:
        # Load every registered system now: one with a hook left unfilled cannot be
        # instantiated, and the start-up fails here rather than in the middle of a fight.
        all_systems()
