from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EncountersConfig(AppConfig):
    name = "apps.encounters"
    verbose_name = _("Rencontres")
