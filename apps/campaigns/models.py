"""Campaigns: one game system, one GM, players by invitation, house rules, a session log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from apps.systems import get_system, system_choices

# No 0/O, 1/I/L: a code read aloud across the table or typed on a phone must not be misread.
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 8


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


class Role(models.TextChoices):
    GM = "gm", _("MJ")
    PLAYER = "player", _("joueur")


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user) -> CampaignQuerySet:
        """Campaigns the user belongs to, each annotated with the user's ``role`` in it."""
        return self.filter(memberships__user=user).annotate(role=F("memberships__role"))


class Campaign(models.Model):
    name = models.CharField(_("nom"), max_length=120)
    # The code of a registered game system (apps/systems/__init__.py).
    system = models.CharField(_("système"), max_length=16, choices=system_choices)
    description = models.TextField(_("description"), blank=True)
    invite_code = models.CharField(
        _("code d'invitation"), max_length=16, unique=True, default=new_invite_code
    )
    # The system's house-rule dataclass as JSON (EwHouseRules / AethoriaHouseRules.to_dict()).
    house_rules = models.JSONField(_("règles maison"), default=dict, blank=True)
    # Bumped by every change other screens must show; their idle check compares it.
    version = models.PositiveBigIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        verbose_name = _("campagne")
        verbose_name_plural = _("campagnes")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def house(self):
        """The campaign's house rules as the rules engine's dataclass (defaults filled in)."""
        return get_system(self.system).house_rules_class.from_dict(self.house_rules)

    def set_house_rules(self, house) -> None:
        self.house_rules = house.to_dict()
        self.save(update_fields=["house_rules"])

    def regenerate_invite_code(self) -> None:
        self.invite_code = new_invite_code()
        self.save(update_fields=["invite_code"])

    def touch(self) -> None:
        """Tell every open screen of the campaign that something changed."""
        Campaign.objects.filter(pk=self.pk).update(version=F("version") + 1)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("rôle"), max_length=8, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("participation")
        verbose_name_plural = _("participations")
        ordering = ["campaign", "role", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(role="gm"), name="one_gm_per_campaign"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.campaign} ({self.get_role_display()})"


class LogKind(models.TextChoices):
    NOTE = "note", _("note")
    XP = "xp", _("expérience")
    ENCOUNTER = "encounter", _("rencontre")


class LogEntry(models.Model):
    """A dated line of the session log: the GM's notes, XP awards, finished encounters, and
    the table actions made outside a fight (a sheet's spend, a rest)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log_entries")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=LogKind.choices, default=LogKind.NOTE)
    text = models.TextField(_("texte"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # A table action records the values it changed, as an encounter step does:
    # [{"model": "characters.ewsheet", "pk": 7, "field": "eclat", "before": 3, "after": 2}],
    # so that the GM can undo it (``undone``). A note, an award or a fight has none.
    changes = models.JSONField(default=list, blank=True)
    undone = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("entrée du journal")
        verbose_name_plural = _("journal de campagne")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text[:60]
