"""The Aethoria reference data: skills, weapons, shields, armour and its coverage, the hit
location table, gods and magic domains."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.rules import aethoria as aethoria_rules

from .shared import (
    D20,
    CompendiumModel,
    Errors,
    NamedModel,
    add_error,
    choice_constraint,
    range_constraints,
)


class AethoriaCharacteristic(models.TextChoices):
    FORCE = "force", _("Force")
    ADRESSE = "adresse", _("Adresse")
    VITALITE = "vitalite", _("Vitalité")
    CONCENTRATION = "concentration", _("Concentration")
    INTELLIGENCE = "intelligence", _("Intelligence")
    ESPRIT = "esprit", _("Esprit")
    POUVOIR = "pouvoir", _("Pouvoir")


class AethoriaSkillKind(models.TextChoices):
    GENERAL = "general", _("Générale")
    WEAPON = "weapon", _("Arme")
    DODGE = "dodge", _("Esquive")
    PARRY = "parry", _("Parade")
    MAGIC = "magic", _("Magie")


# The rules look these skills up by kind: one skill each.
AETHORIA_SINGLE_KINDS = (AethoriaSkillKind.DODGE, AethoriaSkillKind.PARRY, AethoriaSkillKind.MAGIC)


class AethoriaSkill(NamedModel):
    """A skill and its linked characteristic (the GM may swap it for one roll)."""

    characteristic = models.CharField(
        _("caractéristique liée"), max_length=16, choices=AethoriaCharacteristic.choices
    )
    kind = models.CharField(
        _("type"),
        max_length=8,
        choices=AethoriaSkillKind.choices,
        default=AethoriaSkillKind.GENERAL,
        help_text=_("Esquive, parade et magie : une seule compétence de chaque."),
    )
    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("compétence (Aethoria)")
        verbose_name_plural = _("Aethoria · compétences")
        constraints = [
            *NamedModel.Meta.constraints,
            choice_constraint("characteristic", AethoriaCharacteristic),
            choice_constraint("kind", AethoriaSkillKind),
            models.UniqueConstraint(
                fields=["kind"],
                condition=Q(kind__in=AETHORIA_SINGLE_KINDS),
                name="%(app_label)s_%(class)s_one_per_rules_kind",
                violation_error_message=_(
                    "Il existe déjà une compétence de ce type (esquive, parade et magie sont "
                    "uniques)."
                ),
            ),
        ]


DAMAGE_FIXED = (0, 20)
DAMAGE_DICE = (0, 10)
PARRY = (1, 10)
RANGE_BAND_METRES = (1, 2000)
RANGE_BANDS = ("short", "medium", "long", "extreme")  # the names of the rules' range maluses
RANGE_FIELDS = tuple(f"range_{band}" for band in RANGE_BANDS)
AETHORIA_WEAPON_RANGES = {
    "damage_fixed": DAMAGE_FIXED,
    "damage_dice": DAMAGE_DICE,
    "parry_value": PARRY,
    "hands": (1, 2),
    **dict.fromkeys(RANGE_FIELDS, RANGE_BAND_METRES),
}


def damage_notation(fixed: int, dice: int) -> str:
    """Damage written as in the source: "4+4d", or "4d" / "3" when a part is zero."""
    if not fixed:
        return f"{dice}d"
    return f"{fixed}+{dice}d" if dice else str(fixed)


class AethoriaWeapon(NamedModel):
    """A weapon: damage "X+Nd" (fixed part + d10 rolled under Force), parry, hands, range."""

    RANGES = AETHORIA_WEAPON_RANGES

    # PROTECT: characters' weapons must keep the skill their attacks roll.
    skill = models.ForeignKey(
        AethoriaSkill,
        on_delete=models.PROTECT,
        related_name="weapons",
        limit_choices_to={"kind": AethoriaSkillKind.WEAPON},
        verbose_name=_("compétence"),
    )
    damage_fixed = models.SmallIntegerField(
        _("dégâts fixes (X)"), default=0, help_text=_("Réussites automatiques : le X de « X+Nd ».")
    )
    damage_dice = models.SmallIntegerField(
        _("dés de dégâts (N)"), default=1, help_text=_("Nombre de d10 : le N de « X+Nd ».")
    )
    parry_value = models.SmallIntegerField(
        _("valeur de parade"),
        null=True,
        blank=True,
        help_text=_("Seuil du jet de parade (1 à 10) ; vide si l'arme ne pare pas."),
    )
    hands = models.SmallIntegerField(
        _("mains"), choices=[(1, _("une main")), (2, _("deux mains"))], default=1
    )
    is_ranged = models.BooleanField(_("à distance"), default=False)
    range_short = models.SmallIntegerField(_("portée courte (m)"), null=True, blank=True)
    range_medium = models.SmallIntegerField(_("portée moyenne (m)"), null=True, blank=True)
    range_long = models.SmallIntegerField(_("portée longue (m)"), null=True, blank=True)
    range_extreme = models.SmallIntegerField(_("portée extrême (m)"), null=True, blank=True)
    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("arme (Aethoria)")
        verbose_name_plural = _("Aethoria · armes")
        constraints = [
            *NamedModel.Meta.constraints,
            *range_constraints(AETHORIA_WEAPON_RANGES),
            models.CheckConstraint(
                condition=Q(damage_fixed__gt=0) | Q(damage_dice__gt=0),
                name="%(app_label)s_%(class)s_deals_damage",
            ),
            models.CheckConstraint(
                condition=Q(is_ranged=False, **{f"{f}__isnull": True for f in RANGE_FIELDS})
                | Q(
                    is_ranged=True,
                    **{f"{f}__isnull": False for f in RANGE_FIELDS},
                    range_medium__gt=F("range_short"),
                    range_long__gt=F("range_medium"),
                    range_extreme__gt=F("range_long"),
                ),
                name="%(app_label)s_%(class)s_range_bands",
            ),
        ]

    @property
    def damage(self) -> str:
        return damage_notation(self.damage_fixed, self.damage_dice)

    def check_rules(self, errors: Errors) -> None:
        if self.damage_fixed == 0 and self.damage_dice == 0:
            add_error(
                errors, "damage_dice", gettext("Une arme fait des dégâts : X ou N doit dépasser 0.")
            )
        bands = [getattr(self, name) for name in RANGE_FIELDS]
        if not self.is_ranged:
            for name, metres in zip(RANGE_FIELDS, bands, strict=True):
                if metres is not None:
                    add_error(
                        errors, name, gettext("Une arme de mêlée n'a pas de portée : laissez vide.")
                    )
            return
        for name, metres in zip(RANGE_FIELDS, bands, strict=True):
            if metres is None:
                add_error(errors, name, gettext("Une arme à distance a ses quatre portées."))
        for name, shorter, metres in zip(RANGE_FIELDS[1:], bands[:-1], bands[1:], strict=True):
            if isinstance(shorter, int) and isinstance(metres, int) and metres <= shorter:
                add_error(
                    errors,
                    name,
                    gettext("Chaque portée doit dépasser la précédente (%(shorter)s m)."),
                    shorter=shorter,
                )

    def range_bands(self) -> dict[str, int]:
        """Upper distance (m) of each range band, short to extreme; empty for a melee weapon."""
        if not self.is_ranged:
            return {}
        return {band: getattr(self, f"range_{band}") for band in RANGE_BANDS}

    def range_band(self, distance_m: int) -> str | None:
        """The band a target at ``distance_m`` falls in, or None when out of reach."""
        for band, metres in self.range_bands().items():
            if distance_m <= metres:
                return band
        return None

    def rules_snapshot(self) -> dict[str, Any]:
        """The values a fight uses, as a plain dict a log can keep whatever happens to the row."""
        return {
            "name": self.name,
            "damage": self.damage,
            "damage_fixed": self.damage_fixed,
            "damage_dice": self.damage_dice,
            "parry_value": self.parry_value,
            "hands": self.hands,
            "is_ranged": self.is_ranged,
            "range_bands": self.range_bands(),
        }

    def as_rules_weapon(self) -> aethoria_rules.AethoriaWeapon:
        """This weapon as the rules engine's input."""
        return aethoria_rules.AethoriaWeapon(
            name=self.name,
            dice=self.damage_dice,
            fixed=self.damage_fixed,
            parry=self.parry_value,
            hands=self.hands,
            ranged=self.is_ranged,
        )


class AethoriaShield(NamedModel):
    """A shield: its parry value is the threshold of the parry roll."""

    RANGES = {"parry_value": PARRY}

    parry_value = models.SmallIntegerField(_("valeur de parade"), default=5)
    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("bouclier (Aethoria)")
        verbose_name_plural = _("Aethoria · boucliers")
        constraints = [*NamedModel.Meta.constraints, *range_constraints({"parry_value": PARRY})]

    def rules_snapshot(self) -> dict[str, Any]:
        """The values a fight uses, as a plain dict a log can keep whatever happens to the row."""
        return {"name": self.name, "parry_value": self.parry_value}

    def as_rules_weapon(self) -> aethoria_rules.AethoriaWeapon:
        """This shield as the rules engine's input (a parry-only weapon)."""
        return aethoria_rules.AethoriaWeapon(name=self.name, parry=self.parry_value, shield=True)


class AethoriaLocation(models.TextChoices):
    # The keys are the rules engine's (apps.rules.aethoria.DEFAULT_HIT_LOCATIONS), so a
    # campaign can copy the table into its house rules as it is.
    HEAD = "head", _("Tête")
    TORSO = "torso", _("Torse")
    RIGHT_ARM = "right_arm", _("Bras droit")
    LEFT_ARM = "left_arm", _("Bras gauche")
    RIGHT_LEG = "right_leg", _("Jambe droite")
    LEFT_LEG = "left_leg", _("Jambe gauche")


LOCATION_ORDER = {location: index for index, location in enumerate(AethoriaLocation.values)}
RD = (0, 10)


class AethoriaArmourPiece(NamedModel):
    """A piece of armour and the RD it gives on each location it covers."""

    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("pièce d'armure (Aethoria)")
        verbose_name_plural = _("Aethoria · pièces d'armure")

    def rd_by_location(self) -> dict[str, int]:
        """RD per covered location, in body order (uses prefetched coverages when there are)."""
        coverages = sorted(self.coverages.all(), key=lambda c: LOCATION_ORDER[c.location])
        return {coverage.location: coverage.rd for coverage in coverages}

    def rules_snapshot(self) -> dict[str, Any]:
        """The values a fight uses, as a plain dict a log can keep whatever happens to the row."""
        return {"name": self.name, "rd": self.rd_by_location()}

    def as_rules_pieces(self) -> tuple[aethoria_rules.ArmourPiece, ...]:
        """This piece as the rules engine's input: one rules piece per distinct RD."""
        return rules_pieces(self.name, self.rd_by_location())


def rules_pieces(
    name: str, rd_by_location: dict[str, int]
) -> tuple[aethoria_rules.ArmourPiece, ...]:
    """A piece of armour as the rules engine's input: one rules piece per distinct RD, its
    locations in body order."""
    by_rd: dict[int, list[str]] = {}
    for location in sorted(rd_by_location, key=LOCATION_ORDER.__getitem__):
        by_rd.setdefault(rd_by_location[location], []).append(location)
    return tuple(
        aethoria_rules.ArmourPiece(name=name, rd=rd, locations=tuple(locations))
        for rd, locations in sorted(by_rd.items())
    )


class AethoriaArmourCoverageManager(models.Manager):
    def get_by_natural_key(self, piece: str, location: str) -> AethoriaArmourCoverage:
        return self.get(piece__name=piece, location=location)


class AethoriaArmourCoverage(CompendiumModel):
    """The RD a piece of armour gives on one location."""

    RANGES = {"rd": RD}

    piece = models.ForeignKey(
        AethoriaArmourPiece,
        on_delete=models.CASCADE,
        related_name="coverages",
        verbose_name=_("pièce d'armure"),
    )
    location = models.CharField(_("localisation"), max_length=12, choices=AethoriaLocation.choices)
    rd = models.SmallIntegerField(_("RD"), default=1, help_text=_("Réduction des dégâts (0 à 10)."))

    objects = AethoriaArmourCoverageManager()

    class Meta:
        verbose_name = _("protection par localisation (Aethoria)")
        verbose_name_plural = _("Aethoria · protections par localisation")
        ordering = ["piece_id", "location"]
        constraints = [
            models.UniqueConstraint(
                fields=["piece", "location"], name="%(app_label)s_%(class)s_unique_location"
            ),
            choice_constraint("location", AethoriaLocation),
            *range_constraints({"rd": RD}),
        ]

    def __str__(self) -> str:
        return f"{self.get_location_display()} : RD {self.rd}"

    def natural_key(self) -> tuple[str, str]:
        return (*self.piece.natural_key(), self.location)

    natural_key.dependencies = ["compendium.aethoriaarmourpiece"]


@dataclass(frozen=True)
class HitTableProblem:
    """What is wrong with a hit-location table, and which row and field it concerns."""

    kind: str  # "gap" or "overlap" or "empty"
    message: str
    row: int | None = None  # index in the rows given
    field: str | None = None


def _faces(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def hit_table_problems(rows: Sequence[tuple[int, int, str]]) -> list[HitTableProblem]:
    """Gaps and overlaps of (low, high, location) rows on the d20 faces 1..20."""
    if not rows:
        return [HitTableProblem("empty", gettext("La table de localisation est vide."))]
    labels = dict(AethoriaLocation.choices)
    order = sorted(range(len(rows)), key=lambda index: (rows[index][0], rows[index][1]))
    problems, expected, previous = [], 1, None
    for index in order:
        low, high, location = rows[index]
        label = labels.get(location, location)
        if low > expected:
            problems.append(
                HitTableProblem(
                    "gap",
                    gettext(
                        "Aucune localisation pour le d20 %(faces)s : « %(label)s » devrait "
                        "commencer à %(expected)s."
                    )
                    % {"faces": _faces(expected, low - 1), "label": label, "expected": expected},
                    index,
                    "low",
                )
            )
        elif low < expected and previous is not None:
            problems.append(
                HitTableProblem(
                    "overlap",
                    gettext("« %(label)s » chevauche « %(other)s » sur le d20 %(faces)s.")
                    % {
                        "label": label,
                        "other": labels.get(previous, previous),
                        "faces": _faces(low, min(high, expected - 1)),
                    },
                    index,
                    "low",
                )
            )
        if high + 1 > expected:
            expected, previous = high + 1, location
    if expected <= D20[1]:
        problems.append(
            HitTableProblem(
                "gap",
                gettext("Aucune localisation pour le d20 %(faces)s.")
                % {"faces": _faces(expected, D20[1])},
                order[-1],
                "high",
            )
        )
    return problems


class AethoriaHitLocationManager(models.Manager):
    def get_by_natural_key(self, location: str) -> AethoriaHitLocation:
        return self.get(location=location)


class AethoriaHitLocation(CompendiumModel):
    """A row of the hit-location table: the d20 faces low..high hit this location."""

    RANGES = {"low": D20, "high": D20}

    location = models.CharField(_("localisation"), max_length=12, choices=AethoriaLocation.choices)
    low = models.SmallIntegerField(_("du d20"))
    high = models.SmallIntegerField(_("au d20"))

    objects = AethoriaHitLocationManager()

    class Meta:
        verbose_name = _("localisation (Aethoria)")
        verbose_name_plural = _("Aethoria · table de localisation")
        ordering = ["low"]
        # Gaps and overlaps span several rows: the admin checks the whole table
        # (hit_table_problems); the database holds what one row can.
        constraints = [
            models.UniqueConstraint(fields=["location"], name="%(app_label)s_%(class)s_unique"),
            choice_constraint("location", AethoriaLocation),
            *range_constraints({"low": D20, "high": D20}),
            models.CheckConstraint(
                condition=Q(low__lte=F("high")), name="%(app_label)s_%(class)s_low_le_high"
            ),
        ]

    def __str__(self) -> str:
        return f"{_faces(self.low, self.high)} : {self.get_location_display()}"

    def natural_key(self) -> tuple[str]:
        return (self.location,)

    def check_rules(self, errors: Errors) -> None:
        if isinstance(self.low, int) and isinstance(self.high, int) and self.low > self.high:
            add_error(
                errors,
                "high",
                gettext("La plage finit avant de commencer (%(low)s > %(high)s)."),
                low=self.low,
                high=self.high,
            )

    @classmethod
    def table(cls) -> list[tuple[int, int, str]]:
        """The table as (low, high, location) rows in d20 order (the rules' house-rule form)."""
        return list(cls.objects.order_by("low").values_list("low", "high", "location"))

    @classmethod
    def validate_hit_table(cls, rows: Iterable[tuple[int, int, str]] | None = None) -> None:
        """Raise ValidationError unless the rows (default: the saved table) cover 1..20 once."""
        problems = hit_table_problems(list(cls.table() if rows is None else rows))
        if problems:
            raise ValidationError([problem.message for problem in problems])


AETHORIA_POUVOIR = (aethoria_rules.CHARACTERISTIC_MIN, aethoria_rules.CHARACTERISTIC_MAX)


class AethoriaGod(NamedModel):
    """One of the twelve gods: a marqué's Pouvoir and way of life come from its god."""

    RANGES = {"pouvoir": AETHORIA_POUVOIR}

    domain = models.CharField(_("domaine d'influence"), max_length=200)
    way_of_life = models.TextField(
        _("mode de vie"), help_text=_("Ce que le dieu exige de ses marqués pour garder sa faveur.")
    )
    pouvoir = models.SmallIntegerField(
        _("pouvoir accordé"), default=5, help_text=_("La valeur de Pouvoir de ses marqués.")
    )
    magic_restrictions = models.TextField(
        _("restrictions de magie"),
        blank=True,
        help_text=_("Les usages du pouvoir que ce dieu interdit ou limite, s'il y en a."),
    )

    class Meta(NamedModel.Meta):
        verbose_name = _("dieu (Aethoria)")
        verbose_name_plural = _("Aethoria · dieux")
        constraints = [
            *NamedModel.Meta.constraints,
            *range_constraints({"pouvoir": AETHORIA_POUVOIR}),
        ]


class AethoriaMagicDomain(NamedModel):
    """The one domain a doué's innate gift works in (lévitation, télépathie…)."""

    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("domaine de magie (Aethoria)")
        verbose_name_plural = _("Aethoria · domaines des doués")
