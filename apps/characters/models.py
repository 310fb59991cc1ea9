"""Characters (PCs and NPCs) of a campaign, with one sheet per game system and an XP ledger.

A ``Character`` holds what both systems share; its ``ew`` or ``aethoria`` sheet (one-to-one)
holds the system's characteristics, current pools and gear. Derived values (fields, PV
maxima, natural defence...) are never stored: the rules engine computes them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from apps.rules import aethoria, ew
from apps.systems import all_systems, system_of

from .bars import Bar


class Kind(models.TextChoices):
    PC = "pc", _("PJ")
    NPC = "npc", _("PNJ")


# A sheet's notes, the owner's and the GM's: a page or two of a phone, said with a counter
# while typed (a note pasted by mistake is refused in words, not stored).
NOTES_MAX = 5000


class CharacterQuerySet(models.QuerySet):
    def for_campaign(self, campaign) -> CharacterQuerySet:
        return self.filter(campaign=campaign)

    def pcs(self) -> CharacterQuerySet:
        return self.filter(kind=Kind.PC)

    def npcs(self) -> CharacterQuerySet:
        return self.filter(kind=Kind.NPC)

    def playable(self) -> CharacterQuerySet:
        """Characters that can take part in a scene (NPC templates only serve to be copied)."""
        return self.filter(is_template=False)

    def with_sheets(self) -> CharacterQuerySet:
        """Load every system's sheet in the same query (the absent ones are simply None)."""
        names = [system.sheet_name for system in all_systems()]
        return self.select_related("campaign", "owner", *names)

    def with_xp(self) -> CharacterQuerySet:
        """Annotate ``xp``: the balance of each character's ledger, in the same query."""
        return self.annotate(
            xp=Coalesce(
                models.Subquery(
                    XpEntry.objects.filter(character=models.OuterRef("pk"))
                    .values("character")
                    .annotate(total=Sum("amount"))
                    .values("total")
                ),
                Value(0),
            )
        )


class Character(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    kind = models.CharField(_("type"), max_length=8, choices=Kind.choices, default=Kind.PC)
    # The player who owns a PC; NPCs belong to the GM and have no owner. A PC may have none
    # for a while: imported with its player not (yet) in the campaign, until the GM assigns it.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="characters",
    )
    name = models.CharField(_("nom"), max_length=80)
    concept = models.CharField(_("concept"), max_length=160, blank=True)
    # An NPC template is copied to make several NPCs; it never appears in fights itself.
    is_template = models.BooleanField(_("modèle"), default=False)
    # Players see an NPC (name and coarse state) only once the GM reveals it.
    revealed = models.BooleanField(_("révélé aux joueurs"), default=False)
    equipment_notes = models.TextField(_("équipement (notes)"), blank=True)
    notes = models.TextField(_("notes"), blank=True, max_length=NOTES_MAX)  # owner's and GM's
    gm_notes = models.TextField(_("notes du MJ"), blank=True, max_length=NOTES_MAX)  # GM's only
    # Conditions the GM kept on the character when a fight ended ("bras fracturé"): the sheet
    # shows them and the next fight starts with them (the fight framework's condition JSON,
    # in its lasting form; a sheet knows no fight, so this is plain data here).
    conditions = models.JSONField(_("états durables"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        verbose_name = _("personnage")
        verbose_name_plural = _("personnages")
        ordering = ["kind", "name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="pc", is_template=False) | Q(kind="npc", owner__isnull=True),
                name="pc_no_template_npc_no_owner",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pc(self) -> bool:
        return self.kind == Kind.PC

    @property
    def has_player(self) -> bool:
        """A PC someone plays: their phone can be asked its rolls."""
        return self.is_pc and self.owner_id is not None

    @property
    def sheet(self) -> models.Model | None:
        """The sheet of the campaign's system (None only while it is being created)."""
        try:
            return getattr(self, system_of(self.campaign).sheet_name)
        except ObjectDoesNotExist:
            return None

    def assign_to(self, player) -> None:
        """Give this PC to a player of its campaign (the GM hands an unowned one over)."""
        self.owner = player
        self.save(update_fields=["owner", "updated_at"])

    def xp_balance(self) -> int:
        """The ledger's sum (uses the ``with_xp`` annotation when the queryset made it)."""
        if hasattr(self, "xp"):
            return self.xp
        return self.xp_entries.aggregate(total=Sum("amount"))["total"] or 0

    def pool_view(self, house) -> list[Bar]:
        """The pools as bars: label, value, maximum and the thresholds a <meter> needs."""
        sheet = self.sheet
        return [] if sheet is None else system_of(self.campaign).pool_bars(sheet, house)

    def health(self, house) -> str:
        """The state in a word or two, for screens that must not show numbers (players see
        NPCs so) and as the sheet's headline: the same word everywhere, console included."""
        sheet = self.sheet
        return "" if sheet is None else system_of(self.campaign).health(sheet, house)


# --- EW-System -------------------------------------------------------------------------------


def _range(name: str, low: int, high: int, prefix: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{name}__gte": low, f"{name}__lte": high}),
        name=f"{prefix}_{name}_{low}_{high}",
    )


class EwSheet(models.Model):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, primary_key=True, related_name="ew"
    )
    archetype = models.ForeignKey(
        "compendium.EwArchetype",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("archétype"),
    )
    phy = models.PositiveSmallIntegerField("PHY")
    men = models.PositiveSmallIntegerField("MEN")
    per = models.PositiveSmallIntegerField("PER")
    pre = models.PositiveSmallIntegerField("PRÉ")
    eclat = models.PositiveSmallIntegerField(_("points d'éclat"), default=ew.ECLAT_AT_CREATION)
    eclat_max = models.PositiveSmallIntegerField(
        _("points d'éclat maximum"), default=ew.ECLAT_AT_CREATION
    )
    # Current points left in each pool; both maxima are 3 × PHY.
    superficial_left = models.PositiveSmallIntegerField(_("points superficiels restants"))
    lethal_left = models.PositiveSmallIntegerField(_("points létaux restants"))
    armour = models.ForeignKey(
        "compendium.EwArmour",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("armure"),
    )
    weapons = models.ManyToManyField("compendium.EwWeapon", blank=True, verbose_name=_("armes"))
    traits = models.ManyToManyField("compendium.EwTrait", blank=True, verbose_name=_("traits"))
    aptitudes = models.ManyToManyField(
        "compendium.EwAptitude", blank=True, verbose_name=_("aptitudes")
    )

    class Meta:
        verbose_name = _("fiche EW-System")
        verbose_name_plural = _("fiches EW-System")
        constraints = [
            *(
                _range(name, ew.CHARACTERISTIC_MIN, ew.CHARACTERISTIC_MAX, "ew")
                for name in ew.CHARACTERISTICS
            ),
            models.CheckConstraint(condition=Q(eclat__lte=F("eclat_max")), name="ew_eclat_max"),
            models.CheckConstraint(
                condition=Q(superficial_left__lte=F("phy") * ew.PV_PER_PHY)
                & Q(lethal_left__lte=F("phy") * ew.PV_PER_PHY),
                name="ew_pools_within_pv",
            ),
        ]

    def __str__(self) -> str:
        return str(self.character)

    def derived(self, rounding: str = "down") -> ew.EwDerived:
        return ew.derive(self.phy, self.men, self.per, self.pre, rounding)

    def pools(self) -> ew.EwPools:
        return ew.EwPools(ew.hit_points(self.phy), self.superficial_left, self.lethal_left)

    def set_pools(self, pools: ew.EwPools) -> None:
        self.superficial_left, self.lethal_left = pools.superficial, pools.lethal
        self.save(update_fields=["superficial_left", "lethal_left"])


class EwSpecialtyRank(models.Model):
    sheet = models.ForeignKey(EwSheet, on_delete=models.CASCADE, related_name="specialties")
    specialty = models.ForeignKey("compendium.EwSpecialty", on_delete=models.PROTECT)
    level = models.PositiveSmallIntegerField(_("niveau"))

    class Meta:
        verbose_name = _("spécialité")
        ordering = ["specialty__name"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "specialty"], name="ew_specialty_once"),
            _range("level", ew.SPECIALTY_MIN, ew.SPECIALTY_MAX, "ew_specialty"),
        ]

    def __str__(self) -> str:
        return f"{self.specialty} {self.level}"


class EwPowerRank(models.Model):
    sheet = models.ForeignKey(EwSheet, on_delete=models.CASCADE, related_name="powers")
    power = models.ForeignKey("compendium.EwPower", on_delete=models.PROTECT)
    level = models.PositiveSmallIntegerField(_("niveau"))

    class Meta:
        verbose_name = _("pouvoir")
        ordering = ["power__name"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "power"], name="ew_power_once"),
            _range("level", 1, 20, "ew_power"),
        ]

    def __str__(self) -> str:
        return f"{self.power} {self.level}"


# --- Aethoria --------------------------------------------------------------------------------


class MagicType(models.TextChoices):
    NONE = "none", _("aucune")
    DOUE = "doue", _("doué")
    MARQUE = "marque", _("marqué")


AETHORIA_BASE = ("force", "adresse", "vitalite", "concentration", "intelligence", "esprit")


class AethoriaSheet(models.Model):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, primary_key=True, related_name="aethoria"
    )
    force = models.PositiveSmallIntegerField(_("Force"))
    adresse = models.PositiveSmallIntegerField(_("Adresse"))
    vitalite = models.PositiveSmallIntegerField(_("Vitalité"))
    concentration = models.PositiveSmallIntegerField(_("Concentration"))
    intelligence = models.PositiveSmallIntegerField(_("Intelligence"))
    esprit = models.PositiveSmallIntegerField(_("Esprit"))
    # The GM may allow values above 9 (up to 12); the sheet shows them flagged.
    exceptional = models.BooleanField(_("valeurs exceptionnelles permises"), default=False)
    magic_type = models.CharField(
        _("magie"), max_length=8, choices=MagicType.choices, default=MagicType.NONE
    )
    pouvoir = models.PositiveSmallIntegerField(_("Pouvoir"), default=0)
    domain = models.ForeignKey(
        "compendium.AethoriaMagicDomain",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("domaine"),
    )
    god = models.ForeignKey(
        "compendium.AethoriaGod",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("dieu"),
    )
    # Current pools. PV may fall below 0 (out of the fight; dead at −Vitalité).
    pv = models.SmallIntegerField(_("PV"))
    fatigue_physical = models.PositiveSmallIntegerField(_("fatigue physique"))
    fatigue_mental = models.PositiveSmallIntegerField(_("fatigue mentale"))
    weapons = models.ManyToManyField(
        "compendium.AethoriaWeapon", blank=True, verbose_name=_("armes")
    )
    shield = models.ForeignKey(
        "compendium.AethoriaShield",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        verbose_name=_("bouclier"),
    )
    armour_pieces = models.ManyToManyField(
        "compendium.AethoriaArmourPiece", blank=True, verbose_name=_("armure")
    )

    class Meta:
        verbose_name = _("fiche Aethoria")
        verbose_name_plural = _("fiches Aethoria")
        constraints = [
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{name}__gte": aethoria.CHARACTERISTIC_MIN})
                    & (
                        Q(**{f"{name}__lte": aethoria.CHARACTERISTIC_MAX})
                        | Q(
                            exceptional=True,
                            **{f"{name}__lte": aethoria.EXCEPTIONAL_CHARACTERISTIC_MAX},
                        )
                    ),
                    name=f"aethoria_{name}_range",
                )
                for name in AETHORIA_BASE
            ),
            models.CheckConstraint(
                condition=Q(magic_type="none", pouvoir=0)
                | (
                    ~Q(magic_type="none")
                    & Q(pouvoir__gte=1, pouvoir__lte=aethoria.EXCEPTIONAL_CHARACTERISTIC_MAX)
                ),
                name="aethoria_pouvoir_only_for_mages",
            ),
            models.CheckConstraint(
                condition=Q(magic_type="doue", god__isnull=True)
                | Q(magic_type="marque", domain__isnull=True)
                | Q(magic_type="none", god__isnull=True, domain__isnull=True),
                name="aethoria_domain_or_god",
            ),
        ]

    def __str__(self) -> str:
        return str(self.character)

    def derived(self, house: aethoria.AethoriaHouseRules) -> aethoria.AethoriaDerived:
        return aethoria.derive(self.force, self.vitalite, self.concentration, self.esprit, house)

    def pools(self, house: aethoria.AethoriaHouseRules) -> aethoria.AethoriaPools:
        derived = self.derived(house)
        return aethoria.AethoriaPools(
            derived.pv,
            self.pv,
            derived.physical_fatigue,
            self.fatigue_physical,
            derived.mental_fatigue,
            self.fatigue_mental,
        )

    def set_pools(self, pools: aethoria.AethoriaPools) -> None:
        self.pv, self.fatigue_physical, self.fatigue_mental = (
            pools.pv,
            pools.physical,
            pools.mental,
        )
        self.save(update_fields=["pv", "fatigue_physical", "fatigue_mental"])


class AethoriaSkillRank(models.Model):
    sheet = models.ForeignKey(AethoriaSheet, on_delete=models.CASCADE, related_name="skills")
    skill = models.ForeignKey("compendium.AethoriaSkill", on_delete=models.PROTECT)
    rank = models.PositiveSmallIntegerField(_("rang"))

    class Meta:
        verbose_name = _("compétence")
        ordering = ["skill__name"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "skill"], name="aethoria_skill_once"),
            _range("rank", 0, 9, "aethoria_skill"),
        ]

    def __str__(self) -> str:
        return f"{self.skill} {self.rank}"


# --- Experience ------------------------------------------------------------------------------


class XpKind(models.TextChoices):
    AWARD = "award", _("gain")
    SPEND = "spend", _("dépense")
    REFUND = "refund", _("annulation")


class XpEntry(models.Model):
    """A line of a character's XP ledger; the balance is the sum of the amounts."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="xp_entries")
    kind = models.CharField(max_length=8, choices=XpKind.choices)
    amount = models.IntegerField(_("montant"))  # positive for awards and refunds
    reason = models.CharField(_("raison"), max_length=200)
    # For a spend: what was bought, enough to undo it exactly, e.g.
    # {"improvement": "characteristic", "name": "phy", "from": 6, "to": 7}.
    improvement = models.JSONField(default=dict, blank=True)
    # A refund points at the spend or award it cancels (each is cancelled at most once): it
    # gives a spend's XP back, or takes an award's away. RESTRICT: a cancelled line is never
    # deleted alone, but goes with its character.
    cancels = models.OneToOneField(
        "self", on_delete=models.RESTRICT, null=True, blank=True, related_name="cancelled_by"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ligne d'expérience")
        verbose_name_plural = _("expérience")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="award", amount__gt=0)
                | Q(kind="spend", amount__lt=0)
                | (Q(kind="refund", cancels__isnull=False) & ~Q(amount=0)),
                name="xp_amount_sign_matches_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.reason}"
