"""The compendium: reference data of both systems that the rules look up, edited in the admin.

Every numeric range is declared once (the ``*_RANGES`` dicts): the database enforces it with a
check constraint and ``clean()`` refuses it with a message naming the field. Rows are found by
natural key (their name, or a tuple) so that ``seeds/`` can refer to them.

History: a fight logs ``rules_snapshot()`` copies of the weapons and armour used, so editing a
row here never changes a fight already logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.rules import aethoria as aethoria_rules
from apps.rules import ew as ew_rules

NAME_LENGTH = 80
D20 = (1, 20)


def range_constraints(ranges: dict[str, tuple[int, int]]) -> list[models.CheckConstraint]:
    """One check constraint per ranged field (NULL passes a CHECK: "not given" stays allowed)."""
    return [
        models.CheckConstraint(
            condition=Q(**{f"{name}__gte": low, f"{name}__lte": high}),
            name=f"%(app_label)s_%(class)s_{name}_range",
        )
        for name, (low, high) in ranges.items()
    ]


def choice_constraint(name: str, choices: type[models.TextChoices]) -> models.CheckConstraint:
    """Keep a choice field to its choices even when code bypasses forms."""
    return models.CheckConstraint(
        condition=Q(**{f"{name}__in": choices.values}),
        name=f"%(app_label)s_%(class)s_{name}_choice",
    )


def unique_name() -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=["name"], name="%(app_label)s_%(class)s_unique_name")


Errors = dict[str, list[ValidationError]]


def add_error(errors: Errors, field: str, message: str, **params: Any) -> None:
    """Collect one message for ``field`` (``params`` fill its %(name)s placeholders)."""
    errors.setdefault(field, []).append(ValidationError(message, params=params or None))


class CompendiumModel(models.Model):
    """Base of every compendium row: range checks with messages naming the field."""

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {}

    class Meta:
        abstract = True

    def clean(self) -> None:
        errors: Errors = {}
        for name, (low, high) in self.RANGES.items():
            value = getattr(self, name)
            # A non-integer was already refused by the field itself.
            if isinstance(value, int) and not low <= value <= high:
                add_error(
                    errors,
                    name,
                    gettext(
                        "« %(label)s » doit être compris entre %(low)s et %(high)s "
                        "(reçu : %(value)s)."
                    ),
                    label=capfirst(self._meta.get_field(name).verbose_name),
                    low=low,
                    high=high,
                    value=value,
                )
        self.check_rules(errors)
        if errors:
            raise ValidationError(errors)

    def check_rules(self, errors: Errors) -> None:
        """Add the errors of rules spanning several fields (models that have some override it)."""


class NameManager(models.Manager):
    def get_by_natural_key(self, name: str) -> models.Model:
        return self.get(name=name)


class NamedModel(CompendiumModel):
    """A row identified by its unique name."""

    name = models.CharField(_("nom"), max_length=NAME_LENGTH)

    objects = NameManager()

    class Meta:
        abstract = True
        ordering = ["name"]
        constraints = [unique_name()]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.name,)


# --- EW-System --------------------------------------------------------------------------------


class EwField(models.TextChoices):
    CON = "con", _("Connaissance (con)")
    COM = "com", _("Combat (com)")
    HAB = "hab", _("Habileté (hab)")
    SOC = "soc", _("Social (soc)")


class EwSpecialty(NamedModel):
    """A specialty (arme de poing, langue étrangère…), tied to one field."""

    field = models.CharField(_("champ"), max_length=3, choices=EwField.choices)
    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("spécialité (EW)")
        verbose_name_plural = _("EW · spécialités")
        constraints = [*NamedModel.Meta.constraints, choice_constraint("field", EwField)]


FACTOR = (1, 5)
SPECIALTY_LEVEL = (ew_rules.SPECIALTY_MIN, ew_rules.SPECIALTY_MAX)
EW_ARCHETYPE_RANGES = {
    "con_factor": FACTOR,
    "com_factor": FACTOR,
    "hab_factor": FACTOR,
    "soc_factor": FACTOR,
    "starting_specialty_level": SPECIALTY_LEVEL,
}


class EwArchetype(NamedModel):
    """A trade: its specialty cost factor per field, its aptitudes and starting equipment."""

    RANGES = EW_ARCHETYPE_RANGES

    description = models.TextField(_("description"), blank=True)
    con_factor = models.SmallIntegerField(
        _("facteur con"), default=2, help_text=_("Coût d'un niveau de spécialité de connaissance.")
    )
    com_factor = models.SmallIntegerField(
        _("facteur com"), default=2, help_text=_("Coût d'un niveau de spécialité de combat.")
    )
    hab_factor = models.SmallIntegerField(
        _("facteur hab"), default=2, help_text=_("Coût d'un niveau de spécialité d'habileté.")
    )
    soc_factor = models.SmallIntegerField(
        _("facteur soc"), default=2, help_text=_("Coût d'un niveau de spécialité sociale.")
    )
    # PROTECT: a specialty an archetype starts with cannot vanish from under it.
    starting_specialty = models.ForeignKey(
        EwSpecialty,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("spécialité de départ"),
    )
    starting_specialty_level = models.SmallIntegerField(
        _("niveau de la spécialité de départ"),
        default=1,
        help_text=_("Niveau proposé à la création (0 néophyte … 6 expert mondial)."),
    )
    starting_weapons = models.ManyToManyField(
        "EwWeapon", blank=True, related_name="+", verbose_name=_("armes de départ")
    )
    starting_armours = models.ManyToManyField(
        "EwArmour", blank=True, related_name="+", verbose_name=_("armures de départ")
    )
    starting_gear = models.TextField(
        _("autre équipement de départ"), blank=True, help_text=_("Texte libre.")
    )

    class Meta(NamedModel.Meta):
        verbose_name = _("archétype (EW)")
        verbose_name_plural = _("EW · archétypes")
        constraints = [*NamedModel.Meta.constraints, *range_constraints(EW_ARCHETYPE_RANGES)]

    def factor(self, field: str) -> int:
        """Cost of one specialty level in ``field`` (con, com, hab or soc)."""
        return getattr(self, f"{EwField(field).value}_factor")

    def field_factors(self) -> ew_rules.FieldFactors:
        """The cost factors as the rules engine's input."""
        return ew_rules.FieldFactors(
            con=self.con_factor, com=self.com_factor, hab=self.hab_factor, soc=self.soc_factor
        )


class EwAptitudeManager(models.Manager):
    def get_by_natural_key(self, archetype: str, name: str) -> EwAptitude:
        return self.get(archetype__name=archetype, name=name)


APTITUDE_COST = (1, 20)


class EwAptitude(CompendiumModel):
    """A general ability of one archetype, bought with generation points."""

    RANGES = {"cost": APTITUDE_COST}

    # An aptitude belongs to its archetype (the source: they "depend on the archetype"); the
    # same name may exist in two archetypes at different costs.
    archetype = models.ForeignKey(
        EwArchetype,
        on_delete=models.CASCADE,
        related_name="aptitudes",
        verbose_name=_("archétype"),
    )
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    cost = models.SmallIntegerField(_("coût"), default=2, help_text=_("En points de génération."))
    effect = models.TextField(_("effet"), blank=True)

    objects = EwAptitudeManager()

    class Meta:
        verbose_name = _("aptitude (EW)")
        verbose_name_plural = _("EW · aptitudes")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["archetype", "name"], name="%(app_label)s_%(class)s_unique_name"
            ),
            *range_constraints({"cost": APTITUDE_COST}),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str, str]:
        return (*self.archetype.natural_key(), self.name)

    natural_key.dependencies = ["compendium.ewarchetype"]

    def as_rules_choice(self) -> ew_rules.AptitudeChoice:
        """This aptitude as the rules engine's creation input."""
        return ew_rules.AptitudeChoice(name=self.name, cost=self.cost)


class EwTraitKind(models.TextChoices):
    ADVANTAGE = "advantage", _("Avantage")
    RESTRICTION = "restriction", _("Restriction")


TRAIT_POINTS = 20


class EwTrait(NamedModel):
    """An advantage (costs points) or a restriction (negative cost: gives points back)."""

    kind = models.CharField(_("type"), max_length=12, choices=EwTraitKind.choices)
    cost = models.SmallIntegerField(
        _("coût"),
        help_text=_(
            "En points de génération : positif pour un avantage, négatif pour une restriction "
            "(les points rendus)."
        ),
    )
    effect = models.TextField(_("effet"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("trait (EW)")
        verbose_name_plural = _("EW · traits")
        constraints = [
            *NamedModel.Meta.constraints,
            choice_constraint("kind", EwTraitKind),
            models.CheckConstraint(
                condition=Q(kind=EwTraitKind.ADVANTAGE, cost__gte=1, cost__lte=TRAIT_POINTS)
                | Q(kind=EwTraitKind.RESTRICTION, cost__gte=-TRAIT_POINTS, cost__lte=-1),
                name="%(app_label)s_%(class)s_cost_sign_matches_kind",
            ),
        ]

    def check_rules(self, errors: Errors) -> None:
        if self.cost is None:
            return
        if self.kind == EwTraitKind.ADVANTAGE and not 1 <= self.cost <= TRAIT_POINTS:
            add_error(
                errors,
                "cost",
                gettext("Le coût d'un avantage doit être compris entre 1 et %(high)s."),
                high=TRAIT_POINTS,
            )
        if self.kind == EwTraitKind.RESTRICTION and not -TRAIT_POINTS <= self.cost <= -1:
            add_error(
                errors,
                "cost",
                gettext(
                    "Une restriction rend des points : son coût doit être négatif, "
                    "entre -%(high)s et -1."
                ),
                high=TRAIT_POINTS,
            )

    def as_rules_choice(self) -> ew_rules.TraitChoice:
        """This trait as the rules engine's creation input."""
        return ew_rules.TraitChoice(name=self.name, cost=self.cost)


POWER_COST = (1, 10)


class EwPower(NamedModel):
    """An extraordinary or supernatural ability, bought by level."""

    RANGES = {"cost_per_level": POWER_COST}

    cost_per_level = models.SmallIntegerField(
        _("coût par niveau"), default=3, help_text=_("En points de génération.")
    )
    effect = models.TextField(_("effet"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("pouvoir (EW)")
        verbose_name_plural = _("EW · pouvoirs")
        constraints = [
            *NamedModel.Meta.constraints,
            *range_constraints({"cost_per_level": POWER_COST}),
        ]

    def as_rules_choice(self, level: int) -> ew_rules.PowerChoice:
        """This power bought at ``level``, as the rules engine's creation input."""
        return ew_rules.PowerChoice(name=self.name, level=level, cost_per_level=self.cost_per_level)


class EwWeaponKind(models.TextChoices):
    FISTS = "fists", _("Poings")
    BLUNT = "blunt", _("Arme contondante")
    BLADED = "bladed", _("Arme blanche")
    THROWN = "thrown", _("Arme de jet")
    BOW = "bow", _("Arc ou arbalète")
    FIREARM = "firearm", _("Arme à feu")


EW_MELEE_KINDS = (EwWeaponKind.BLUNT, EwWeaponKind.BLADED)
EW_RANGED_KINDS = (EwWeaponKind.THROWN, EwWeaponKind.BOW, EwWeaponKind.FIREARM)
EW_RANGED_ONLY_FIELDS = ("range_m", "reload_rounds", "magazine")
NO_RANGED_VALUES = Q(**{f"{name}__isnull": True for name in EW_RANGED_ONLY_FIELDS})
EW_WEAPON_RANGES = {
    "damage_bonus": (0, 10),
    "impact": (0, 20),
    "range_m": (1, 5000),
    "reload_rounds": (0, 10),
    "magazine": (1, 200),
}


class EwWeapon(NamedModel):
    """A weapon: melee ones add a damage bonus to PHY/4, ranged ones have their own impact."""

    RANGES = EW_WEAPON_RANGES

    kind = models.CharField(_("type"), max_length=8, choices=EwWeaponKind.choices)
    # PROTECT: weapons of existing characters keep the specialty their attacks roll.
    specialty = models.ForeignKey(
        EwSpecialty,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="weapons",
        verbose_name=_("spécialité"),
        help_text=_("La spécialité utilisée pour attaquer et parer avec cette arme."),
    )
    damage_bonus = models.SmallIntegerField(
        _("bonus aux dégâts"),
        default=0,
        help_text=_("Armes de contact : ajouté à PHY/4 pour l'impact."),
    )
    impact = models.SmallIntegerField(
        _("impact"), default=0, help_text=_("Armes à distance : l'impact de l'arme, seul.")
    )
    range_m = models.SmallIntegerField(_("portée (m)"), null=True, blank=True)
    reload_rounds = models.SmallIntegerField(
        _("rechargement (rounds)"),
        null=True,
        blank=True,
        help_text=_("Rounds pour recharger ; 0 si recharger ne coûte pas de round."),
    )
    magazine = models.SmallIntegerField(
        _("chargeur (coups)"), null=True, blank=True, help_text=_("Coups avant de recharger.")
    )
    notes = models.TextField(_("notes"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("arme (EW)")
        verbose_name_plural = _("EW · armes")
        constraints = [
            *NamedModel.Meta.constraints,
            choice_constraint("kind", EwWeaponKind),
            *range_constraints(EW_WEAPON_RANGES),
            models.CheckConstraint(
                condition=Q(kind=EwWeaponKind.FISTS, damage_bonus=0, impact=0) & NO_RANGED_VALUES
                | Q(kind__in=EW_MELEE_KINDS, impact=0) & NO_RANGED_VALUES
                | Q(kind__in=EW_RANGED_KINDS, damage_bonus=0, impact__gte=1, range_m__isnull=False),
                name="%(app_label)s_%(class)s_values_match_kind",
            ),
        ]

    @property
    def is_ranged(self) -> bool:
        return self.kind in EW_RANGED_KINDS

    @property
    def rules_kind(self) -> str:
        """The rules engine's kind: fists, melee (blunt or bladed) or ranged."""
        if self.kind == EwWeaponKind.FISTS:
            return ew_rules.FISTS
        return ew_rules.RANGED if self.is_ranged else ew_rules.MELEE

    def check_rules(self, errors: Errors) -> None:
        if self.kind not in EwWeaponKind.values:
            return
        if self.is_ranged:
            if self.damage_bonus:
                add_error(
                    errors,
                    "damage_bonus",
                    gettext("Une arme à distance n'a pas de bonus aux dégâts : son impact suffit."),
                )
            if isinstance(self.impact, int) and self.impact < 1:
                add_error(
                    errors, "impact", gettext("Une arme à distance a un impact d'au moins 1.")
                )
            if self.range_m is None:
                add_error(errors, "range_m", gettext("Une arme à distance a une portée."))
            return
        if self.impact:
            add_error(
                errors,
                "impact",
                gettext(
                    "Seules les armes à distance ont un impact ; une arme de contact a un bonus "
                    "aux dégâts (ajouté à PHY/4)."
                ),
            )
        if self.kind == EwWeaponKind.FISTS and self.damage_bonus:
            add_error(
                errors,
                "damage_bonus",
                gettext("Les poings n'ont pas de bonus aux dégâts (impact = PHY/4)."),
            )
        for name in EW_RANGED_ONLY_FIELDS:
            if getattr(self, name) is not None:
                add_error(errors, name, gettext("Seules les armes à distance ont cette valeur."))

    def rules_snapshot(self) -> dict[str, Any]:
        """The values a fight uses, as a plain dict a log can keep whatever happens to the row."""
        return {
            "name": self.name,
            "kind": self.kind,
            "rules_kind": self.rules_kind,
            "damage_bonus": self.damage_bonus,
            "impact": self.impact,
            "range_m": self.range_m,
            "reload_rounds": self.reload_rounds,
            "magazine": self.magazine,
        }

    def as_rules_weapon(self) -> ew_rules.EwWeapon:
        """This weapon as the rules engine's input."""
        return ew_rules.EwWeapon(
            kind=self.rules_kind,
            damage_bonus=self.damage_bonus,
            impact=self.impact,
            name=self.name,
        )


EW_PROTECTION = (1, 10)


class EwArmour(NamedModel):
    """An armour: its protection is taken off the impact of every blow that lands."""

    RANGES = {"protection": EW_PROTECTION}

    protection = models.SmallIntegerField(_("protection"), default=1)
    description = models.TextField(_("description"), blank=True)

    class Meta(NamedModel.Meta):
        verbose_name = _("armure (EW)")
        verbose_name_plural = _("EW · armures")
        constraints = [
            *NamedModel.Meta.constraints,
            *range_constraints({"protection": EW_PROTECTION}),
        ]

    def rules_snapshot(self) -> dict[str, Any]:
        """The values a fight uses, as a plain dict a log can keep whatever happens to the row."""
        return {"name": self.name, "protection": self.protection}


def formula_grid(size: int = ew_rules.TABLE_MIN_SIZE) -> list[list[int]]:
    """The grid of the default formula clamp(10 + NA − ND, 1, 19), indexed [na][nd]."""
    return ew_rules.ResolutionTable.default(size).to_rows()


def grid_errors(grid: object) -> list[str]:
    """Why ``grid`` is not a resolution grid (at least 21 × 21 scores 1..20), or nothing."""
    size, low, high = ew_rules.TABLE_MIN_SIZE, ew_rules.SCORE_MIN, ew_rules.SCORE_MAX
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        return [gettext("La table doit être une liste de lignes de scores.")]
    if len(grid) < size:
        return [
            gettext("La table doit avoir au moins %(size)s lignes (NA 0 à 20).") % {"size": size}
        ]
    width = len(grid[0])
    if width < size:
        return [
            gettext("La table doit avoir au moins %(size)s colonnes (ND 0 à 20).") % {"size": size}
        ]
    problems = []
    for na, row in enumerate(grid):
        if len(row) != width:
            problems.append(
                gettext("La ligne NA %(na)s a %(count)s cases au lieu de %(width)s.")
                % {"na": na, "count": len(row), "width": width}
            )
            continue
        for nd, score in enumerate(row):
            if isinstance(score, bool) or not isinstance(score, int) or not low <= score <= high:
                problems.append(
                    gettext(
                        "La case NA %(na)s / ND %(nd)s doit être un score entre %(low)s et "
                        "%(high)s (reçu : %(value)s)."
                    )
                    % {"na": na, "nd": nd, "low": low, "high": high, "value": score}
                )
    return problems[:5]  # enough to find the mistake without a wall of text


GRID_JSON_PATH = (
    f'strict $.type() == "array" && $.size() >= {ew_rules.TABLE_MIN_SIZE} '
    '&& !exists($[*] ? (@.type() != "array" || @.size() != $[0].size() '
    f"|| @.size() < {ew_rules.TABLE_MIN_SIZE} "
    '|| exists(@[*] ? (@.type() != "number" || @.floor() != @ '
    f"|| @ < {ew_rules.SCORE_MIN} || @ > {ew_rules.SCORE_MAX}))))"
)


class EwResolutionTable(NamedModel):
    """A resolution grid NA × ND → score; the default one is what a new campaign copies."""

    grid = models.JSONField(
        _("grille"),
        default=formula_grid,
        help_text=_("Une ligne par NA (0 à 20 au moins), une colonne par ND ; scores de 1 à 20."),
    )
    is_default = models.BooleanField(
        _("table par défaut"),
        default=False,
        help_text=_("La table que copie une nouvelle campagne EW (une seule à la fois)."),
    )

    class Meta(NamedModel.Meta):
        verbose_name = _("table de résolution (EW)")
        verbose_name_plural = _("EW · tables de résolution")
        constraints = [
            *NamedModel.Meta.constraints,
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="%(app_label)s_%(class)s_one_default",
                violation_error_message=_("Une autre table est déjà la table par défaut."),
            ),
            # The grid's shape and scores, checked by PostgreSQL's JSON path language: at least
            # 21 rows of one width (≥ 21), every cell an integer score. Strict mode, with each
            # term that could fail guarded by a type test, so the answer is never "unknown".
            models.CheckConstraint(
                condition=Exact(
                    Coalesce(
                        Func(
                            F("grid"),
                            Value(GRID_JSON_PATH),
                            function="jsonb_path_match",
                            output_field=models.BooleanField(),
                        ),
                        False,
                    ),
                    True,
                ),
                name="%(app_label)s_%(class)s_grid_is_scores",
            ),
        ]

    def check_rules(self, errors: Errors) -> None:
        for message in grid_errors(self.grid):
            add_error(errors, "grid", message)

    @classmethod
    def default_grid(cls) -> list[list[int]]:
        """The grid a new campaign copies: the default table's, else the formula's."""
        table = cls.objects.filter(is_default=True).only("grid").first()
        return [list(row) for row in table.grid] if table else formula_grid()


# --- Aethoria ---------------------------------------------------------------------------------


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
        by_rd: dict[int, list[str]] = {}
        for location, rd in self.rd_by_location().items():
            by_rd.setdefault(rd, []).append(location)
        return tuple(
            aethoria_rules.ArmourPiece(name=self.name, rd=rd, locations=tuple(locations))
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


class SeededRow(models.Model):
    """What ``manage.py seed`` last wrote into a row, so that re-seeding can tell a row still as
    seeded (it follows the files) from one an admin edited since (it is kept)."""

    model = models.CharField(_("modèle"), max_length=100)
    object_id = models.BigIntegerField(_("identifiant"))
    values = models.JSONField(_("valeurs chargées"))

    class Meta:
        verbose_name = _("ligne chargée des graines")
        verbose_name_plural = _("lignes chargées des graines")
        constraints = [
            models.UniqueConstraint(fields=["model", "object_id"], name="seeded_row_unique")
        ]

    def __str__(self) -> str:
        return f"{self.model} #{self.object_id}"
