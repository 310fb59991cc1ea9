"""What every compendium model shares: range and choice constraints, the base models, and
the seeding record."""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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
