"""Forms of the campaigns app; rules refusals come back next to their field (C10)."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from apps.core.refusals import rules_message
from apps.rules.errors import RulesError
from apps.systems import system_of
from apps.systems.base import GameSystem, HouseRuleKind

from . import transfer
from .models import Campaign


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "system", "description"]
        widgets = {
            "system": forms.RadioSelect,
            "description": forms.Textarea(attrs={"rows": 3}),
        }


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Fichier d'export (.json)"),
        help_text=_("Un fichier téléchargé avec « Exporter » depuis la page d'une campagne."),
    )

    def clean_file(self) -> dict:
        """The export document in the file; refused here when unreadable or of another format."""
        upload = self.cleaned_data["file"]
        try:
            if upload.size > transfer.MAX_BYTES:
                raise transfer.too_big()
            return transfer.parse_document(upload.read())
        except transfer.ImportRefused as refusal:
            raise forms.ValidationError(refusal.message) from None


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Code d'invitation"), max_length=16)

    def clean_code(self) -> str:
        code = self.cleaned_data["code"].strip().upper().replace(" ", "").replace("-", "")
        self.campaign = Campaign.objects.filter(invite_code=code).first()
        if self.campaign is None:
            raise forms.ValidationError(_("Aucune campagne n'a ce code. Vérifiez-le auprès du MJ."))
        return code


class LogEntryForm(forms.Form):
    text = forms.CharField(
        label=_("Nouvelle entrée"), widget=forms.Textarea(attrs={"rows": 2}), max_length=4000
    )


# --- House rules ------------------------------------------------------------------------------


def _house_rule_field(
    name: str, value: Any, system: GameSystem, words: dict[str, str]
) -> tuple[forms.Field, HouseRuleKind | None]:
    """The field of one house rule — a number, a yes/no, a choice, else text as the rule's
    kind writes it — and the kind that reads the text back (None: the field's value is the
    rule's)."""
    label = system.house_rule_labels()[name]
    if isinstance(value, bool):
        return forms.BooleanField(label=label, required=False, initial=value), None
    if isinstance(value, int):
        return forms.IntegerField(label=label, initial=value), None
    if name in system.house_rule_choices():
        choices = system.house_rule_choices()[name]
        return forms.ChoiceField(label=label, choices=choices, initial=value), None
    if name not in system.house_rule_kinds():
        raise ImproperlyConfigured(f"{system.code} names no house_rule_kinds() for {name}.")
    kind = system.house_rule_kinds()[name]
    return kind.form_field(label, value, words), kind


class HouseRulesForm(forms.Form):
    """Every house rule the system labels, written as the system says; the engine's
    dataclass itself validates."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        system = system_of(campaign)
        self.rules_class = system.house_rules_class
        # Keys stored in the rules shown (and typed back) as words, per house rule.
        self.words = system.house_rule_words()
        # The rules written as text, read back by their kind in ``clean``.
        self.kinds: dict[str, HouseRuleKind] = {}
        current = campaign.house()
        for field in dataclasses.fields(self.rules_class):
            name = field.name
            if name not in system.house_rule_labels():
                continue  # edited elsewhere (a resolution grid has its own page)
            words = self.words.get(name, {})
            self.fields[name], kind = _house_rule_field(name, getattr(current, name), system, words)
            if kind is not None:
                self.kinds[name] = kind

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        data = self.campaign.house().to_dict()
        for name in self.fields:
            if name not in cleaned:
                continue  # already refused by the field itself
            value = cleaned[name]
            if name in self.kinds:
                try:
                    value = self.kinds[name].from_text(value, self.words.get(name, {}))
                except forms.ValidationError as error:
                    self.add_error(name, error)
                    continue
            data[name] = value
        if self.errors:
            return cleaned
        try:
            self.house = self.rules_class.from_dict(data)
        except RulesError as error:
            self.add_error(
                error.field if error.field in self.fields else None, rules_message(error)
            )
        return cleaned
