from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from apps.characters import fights


class EncountersConfig(AppConfig):
    name = "apps.encounters"
    verbose_name = _("Rencontres")

    def ready(self) -> None:
        # A sheet shows the fight under way and moves the fights it is in: characters
        # cannot import this app, so it is told where to ask.
        fights.register("apps.encounters.sheets.SHEET_FIGHTS")
