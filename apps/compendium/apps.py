from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompendiumConfig(AppConfig):
    name = "apps.compendium"
    verbose_name = _("Compendium")
