"""The third system's creation wizard (one page) and its console actions."""

from __future__ import annotations

from django import forms

from apps.encounters.kit import VersionForm


class ThirdCreationForm(forms.Form):
    step_titles: list[str] = []

    name = forms.CharField(max_length=80)
    concept = forms.CharField(max_length=160, required=False)
    vigueur = forms.IntegerField(min_value=1, max_value=5)
    adresse = forms.IntegerField(min_value=1, max_value=5)
    is_template = forms.BooleanField(required=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("vigueur", 0) + cleaned.get("adresse", 0) > 7:
            raise forms.ValidationError("Sept points à répartir, pas plus.")
        return cleaned

    def options_changed(self) -> bool:
        return False

    def add_problems(self, problems) -> None:
        for problem in problems:
            self.add_error(None, str(problem))


class CoupForm(VersionForm):
    target = forms.IntegerField()
    face = forms.IntegerField(required=False)  # a physical d6; empty: the app rolls


class EpreuveForm(VersionForm):
    face = forms.IntegerField(required=False)
