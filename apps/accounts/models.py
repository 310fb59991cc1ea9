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

# A player's request for a new password waits this long for a GM of theirs; the link a GM
# then hands over works this long, once.
RESET_REQUEST_LIFETIME = timedelta(hours=24)
RESET_LINK_LIFETIME = timedelta(hours=1)


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
    # When the password was last set by a reset (a mailed link, a GM's link, the admin): the
    # person is told at their next log-in, then it is cleared.
    password_reset_at = models.DateTimeField(null=True, blank=True, editable=False)
    # An address given on the account form or at sign-up, stored in ``email`` only once its
    # owner opens the link mailed to it.
    email_pending = models.EmailField(
        _("adresse e-mail à confirmer"), blank=True, default="", editable=False
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
    def pending(self) -> ResetLinkQuerySet:
        """Requests a GM may still answer: asked within a day, not used."""
        since = timezone.now() - RESET_REQUEST_LIFETIME
        return self.filter(requested_at__gt=since, used_at=None)

    def usable(self) -> ResetLinkQuerySet:
        """Links handed over within the hour, for a request still pending."""
        since = timezone.now() - RESET_LINK_LIFETIME
        return self.pending().filter(made_at__gt=since).exclude(token_digest="")

    def for_token(self, token: str) -> ResetLinkQuerySet:
        return self.filter(token_digest=_digest(token))


class ResetLink(models.Model):
    """A player's request for a new password, made from the login page without an email,
    and the one-time link a GM of theirs hands over for it. The link works only in the
    browser that asked (it holds the secret whose digest is ``browser_digest``), within an
    hour, once: a GM can neither make one unasked nor use one. Only digests are stored: the
    database never holds a usable link."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reset_links"
    )
    # Empty on the links GMs made unasked before requests existed: they never work.
    requested_at = models.DateTimeField(null=True, default=timezone.now)
    browser_digest = models.CharField(max_length=64, blank=True, default="")
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    token_digest = models.CharField(max_length=64, blank=True, default="")
    made_at = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)

    objects = ResetLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("demande de nouveau mot de passe")
        verbose_name_plural = _("demandes de nouveau mot de passe")
        ordering = ["-requested_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["token_digest"],
                condition=~models.Q(token_digest=""),
                name="resetlink_token_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.requested_at or self.made_at:%Y-%m-%d %H:%M})"

    @staticmethod
    def new_secret() -> tuple[str, str]:
        """A fresh secret (a link's token, a browser's) and the digest to store."""
        secret = secrets.token_urlsafe(32)
        return secret, _digest(secret)

    def opened_by(self, browser_secret: str) -> bool:
        """Whether the browser holding ``browser_secret`` is the one that asked."""
        return bool(self.browser_digest) and secrets.compare_digest(
            self.browser_digest, _digest(browser_secret)
        )


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
