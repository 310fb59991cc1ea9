from django.db import models
from django.utils.translation import gettext_lazy as _


class DemoRecord(models.Model):
    """Something the demo created once ("account:mj", "campaign:ew"), so it never makes it again:
    what a user renamed or deleted since stays so."""

    key = models.CharField(_("clé"), max_length=40, unique=True)
    object_id = models.BigIntegerField(_("identifiant"))
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("trace de la démo")
        verbose_name_plural = _("traces de la démo")

    def __str__(self) -> str:
        return self.key
