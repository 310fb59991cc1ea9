from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScreensConfig(AppConfig):
    name = "apps.screens"
    verbose_name = _("Écran de table")
