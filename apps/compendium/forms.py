"""Admin forms of the compendium: the resolution grid as text, the hit-location table as a whole."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import AethoriaHitLocation, EwResolutionTable, hit_table_problems


class ResolutionGridField(forms.CharField):
    """A grid typed as text: one line per NA, scores separated by spaces."""

    widget = forms.Textarea(
        attrs={"rows": 23, "cols": 70, "spellcheck": "false", "class": "vLargeTextField"}
    )

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "\n".join(" ".join(f"{score:>2}" for score in row) for row in value)
        return value

    def to_python(self, value: Any) -> list[list[int]]:
        text = super().to_python(value)
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                row = [int(token) for token in line.split()]
            except ValueError:
                raise ValidationError(
                    gettext("Ligne %(line)s : seuls des scores entiers sont attendus."),
                    code="not_a_number",
                    params={"line": number},
                ) from None
            if row:
                rows.append(row)
        return rows


class EwResolutionTableForm(forms.ModelForm):
    grid = ResolutionGridField(
        label=_("grille"),
        help_text=_(
            "Une ligne par NA (0 à 20 au moins, de haut en bas), une colonne par ND (de gauche "
            "à droite), des scores de 1 à 20 séparés par des espaces."
        ),
    )

    class Meta:
        model = EwResolutionTable
        fields = ["name", "is_default", "grid"]


class AethoriaHitLocationForm(forms.ModelForm):
    """One row of the table; the whole table must still cover 1..20 once after the change."""

    class Meta:
        model = AethoriaHitLocation
        fields = ["location", "low", "high"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        low, high = cleaned.get("low"), cleaned.get("high")
        location = cleaned.get("location", self.instance.location)
        if low is None or high is None or not location or not 1 <= low <= high <= 20:
            return cleaned  # the row itself is wrong: its own checks say why
        others = AethoriaHitLocation.objects.exclude(pk=self.instance.pk)
        rows = [*others.values_list("low", "high", "location"), (low, high, location)]
        # A complete table must stay complete; an incomplete one (being built row by row)
        # may keep its gaps until the last row is added, but never overlap.
        was_complete = not hit_table_problems(AethoriaHitLocation.table())
        for problem in hit_table_problems(rows):
            if problem.kind == "overlap" or (was_complete and problem.kind == "gap"):
                own = problem.row == len(rows) - 1
                self.add_error(problem.field if own else None, problem.message)
        if self.errors and was_complete:
            self.add_error(
                None,
                gettext(
                    "Pour déplacer des limites, modifiez toute la table à la fois depuis la liste "
                    "des localisations."
                ),
            )
        return cleaned


class HitTableFormSet(forms.BaseModelFormSet):
    """The changelist's editable rows, checked as one table together with the rows not shown."""

    def clean(self) -> None:
        super().clean()
        if any(form.errors for form in self.forms):
            return
        edited = {form.instance.pk: form for form in self.forms}
        rows, forms_by_row = [], []
        for pk, low, high, location in AethoriaHitLocation.objects.values_list(
            "pk", "low", "high", "location"
        ):
            form = edited.get(pk)
            if form is not None:
                low, high = form.cleaned_data["low"], form.cleaned_data["high"]
            rows.append((low, high, location))
            forms_by_row.append(form)
        problems = hit_table_problems(rows)
        unplaced = []
        for problem in problems:
            form = forms_by_row[problem.row] if problem.row is not None else None
            if form is None:
                unplaced.append(problem.message)  # a row filtered out of the page, or none
            else:
                form.add_error(problem.field, problem.message)
        if problems:
            raise ValidationError(
                [
                    gettext(
                        "La table de localisation doit couvrir le d20 de 1 à 20 sans trou ni "
                        "chevauchement : rien n'a été enregistré."
                    ),
                    *unplaced,
                ]
            )
