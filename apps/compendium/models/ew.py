"""The EW-System reference data: specialties, archetypes, aptitudes, traits, powers, weapons,
armour and the resolution table."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.rules import ew as ew_rules

from .shared import (
    NAME_LENGTH,
    CompendiumModel,
    Errors,
    NamedModel,
    add_error,
    choice_constraint,
    range_constraints,
)


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
