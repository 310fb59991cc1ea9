from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person at the table: game master, player, or both in different campaigns."""

    language = models.CharField(
        _("langue"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fr",
        help_text=_("Langue de l'interface."),
    )

    class Meta:
        verbose_name = _("utilisateur")
        verbose_name_plural = _("utilisateurs")

    def __str__(self) -> str:
        return self.get_full_name() or self.username

    @property
    def display_name(self) -> str:
        """The name shown at the table: the first name when known, else the username."""
        return self.first_name or self.username

    def set_language(self, language: str) -> None:
        self.language = language
        self.save(update_fields=["language"])
