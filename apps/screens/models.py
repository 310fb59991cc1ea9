"""The table screen's links: a browser logged in as nobody (a TV, a tablet left on the table)
opens one campaign's screen, and nothing else, through a link the GM makes and revokes."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# 144 random bits: a link cannot be guessed, so wrong tokens need no rate limit.
TOKEN_BYTES = 18


def token_digest(token: str) -> str:
    """What is stored of a link's token: its SHA-256 (a copy of the database opens no screen)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class ScreenLink(models.Model):
    """A revocable link to a campaign's screen. Revoking deletes it: its token then opens
    nothing, and its open stream closes (apps/screens/views.py)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="screen_links"
    )
    label = models.CharField(_("nom de l'écran"), max_length=60)
    token_digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("lien d'écran")
        verbose_name_plural = _("liens d'écran")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.label
