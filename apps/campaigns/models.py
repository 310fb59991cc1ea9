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
    # The document the GM shows the table now (the screen, every phone), if any: one at a
    # time, and taking it down leaves it in the campaign's documents.
    shown_handout = models.ForeignKey(
        "Handout",
        verbose_name=_("document montré"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    objects = CampaignQuerySet.as_manager()

    class Meta:
        verbose_name = _("campagne")
        verbose_name_plural = _("campagnes")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def house(self):
        """The campaign's house rules as the rules engine's dataclass (defaults filled in).
        Read once per instance while its rules stay the same object: a step asks for them
        in many places, and checking them all again costs more than the rest of a small
        step (the rules are replaced whole, by ``set_house_rules``, never edited in place)."""
        cached = self.__dict__.get("_house")
        if cached is not None and cached[0] is self.house_rules and cached[1] == self.system:
            return cached[2]
        house = get_system(self.system).house_rules_class.from_dict(self.house_rules)
        self.__dict__["_house"] = (self.house_rules, self.system, house)
        return house

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


# What a handout's image is stored as: its format, checked from its content, names it.
HANDOUT_IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}
HANDOUT_TEXT_LENGTH = 2000


def handout_image_path(handout: Handout, _filename: str) -> str:
    """Where a handout's image is stored: a random name under its campaign's folder, with the
    extension of its checked format (the uploader's file name is never used)."""
    extension = HANDOUT_IMAGE_TYPES[handout.image_type]
    return f"handouts/{handout.campaign_id}/{secrets.token_hex(16)}.{extension}"


class Handout(models.Model):
    """A document the GM shows the table (a map, a letter, a portrait, a clue): an image, a
    short text, or both. Its image lives in Django's default storage, read only through a
    view that checks who asks (never a public media URL)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="handouts")
    title = models.CharField(_("titre"), max_length=120, blank=True)
    text = models.TextField(_("texte"), max_length=HANDOUT_TEXT_LENGTH, blank=True)
    image = models.FileField(_("image"), upload_to=handout_image_path, blank=True, max_length=200)
    image_type = models.CharField(max_length=16, blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("document")
        verbose_name_plural = _("documents")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(image="") | ~Q(text=""), name="handout_image_or_text"
            ),
            models.CheckConstraint(
                condition=Q(image="", image_type="")
                | Q(image_type__in=list(HANDOUT_IMAGE_TYPES), width__gt=0, height__gt=0),
                name="handout_image_checked",
            ),
        ]

    def __str__(self) -> str:
        return self.title or self.text[:60] or str(_("Document"))
