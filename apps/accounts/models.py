from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

RESET_LINK_LIFETIME = timedelta(hours=24)


class User(AbstractUser):
    """A person at the table: game master, player, or both in different campaigns."""

    language = models.CharField(
        _("langue"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fr",
        help_text=_("Langue de l'interface."),
    )
    # Folded into the session auth hash that Django checks against this row on every
    # request: changing it ends every session of the user without a query more.
    session_salt = models.CharField(max_length=32, blank=True, default="", editable=False)

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

    def _get_session_auth_hash(self, secret: str | None = None) -> str:
        # Until a first rotation the hash is Django's own, so existing sessions survive the
        # upgrade; afterwards it also depends on the salt.
        if not self.session_salt:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac(
            "apps.accounts.models.User.get_session_auth_hash",
            f"{self.password}:{self.session_salt}",
            secret=secret,
            algorithm="sha256",
        ).hexdigest()

    def end_sessions(self) -> None:
        """Make every session of this user invalid (signed cookies included)."""
        self.session_salt = secrets.token_hex(16)
        self.save(update_fields=["session_salt"])


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ResetLinkQuerySet(models.QuerySet):
    def usable(self) -> ResetLinkQuerySet:
        return self.filter(used_at=None, created_at__gt=timezone.now() - RESET_LINK_LIFETIME)

    def for_token(self, token: str) -> ResetLinkQuerySet:
        return self.filter(token_digest=_digest(token))


class ResetLink(models.Model):
    """A one-time link to choose a new password, made by a GM (or staff) for a player
    without email. Only the token's digest is stored: the database never holds a usable link."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reset_links"
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    token_digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    objects = ResetLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("lien de nouveau mot de passe")
        verbose_name_plural = _("liens de nouveau mot de passe")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} ({self.created_at:%Y-%m-%d %H:%M})"

    @classmethod
    def new_token(cls) -> tuple[str, str]:
        """A fresh token and the digest to store."""
        token = secrets.token_urlsafe(32)
        return token, _digest(token)


class Attempt(models.Model):
    """One counted action for a rate limit (a sign-up, a wrong invitation code), by key:
    an address or a user. Kept in PostgreSQL so that every instance counts the same."""

    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["kind", "key", "created_at"], name="attempt_lookup")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"
