"""The GM's forms of the table screen: a screen link, a handout (C10: every refusal in French,
next to its field)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.campaigns.models import HANDOUT_TEXT_LENGTH

from .images import FORMATS, checked_image
from .models import ScreenLink


class ScreenLinkForm(forms.ModelForm):
    class Meta:
        model = ScreenLink
        fields = ["label"]
        help_texts = {"label": _("Pour le reconnaître dans la liste, par ex. « Télé du salon ».")}


class HandoutForm(forms.Form):
    title = forms.CharField(label=_("Titre"), max_length=120, required=False)
    text = forms.CharField(
        label=_("Texte"),
        max_length=HANDOUT_TEXT_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Une lettre, une inscription, un indice : lu à la table sur l'écran."),
    )
    image = forms.FileField(
        label=_("Image"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ",".join(FORMATS.values())}),
        help_text=_("PNG, JPEG ou WebP, 5 Mo au plus : une carte, un portrait, un lieu."),
    )
    show = forms.BooleanField(
        label=_("Le montrer à la table tout de suite"), required=False, initial=True
    )

    def clean_title(self) -> str:
        return self.cleaned_data["title"].strip()

    def clean_text(self) -> str:
        return self.cleaned_data["text"].strip()

    def clean_image(self):
        upload = self.cleaned_data.get("image")
        return checked_image(upload) if upload else None

    def clean(self):
        cleaned = super().clean()
        if not self.errors and not cleaned.get("text") and not cleaned.get("image"):
            raise forms.ValidationError(
                _("Donnez une image, un texte, ou les deux : le document serait vide.")
            )
        return cleaned
