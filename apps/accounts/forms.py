from __future__ import annotations

import hashlib
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import throttle
from .models import User

SIGNUP_WINDOW = timedelta(hours=1)
RESET_WINDOW = timedelta(hours=1)


def signup_limit() -> throttle.Limit:
    return throttle.Limit("signup", {"ip": settings.SIGNUP_LIMIT_PER_HOUR}, SIGNUP_WINDOW)


def reset_mail_limit() -> throttle.Limit:
    per_key = {
        "ip": settings.RESET_MAIL_LIMIT_PER_HOUR,
        "email": settings.RESET_MAIL_LIMIT_PER_EMAIL,
    }
    return throttle.Limit("reset", per_key, RESET_WINDOW)


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Langue"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


def _email_taken(email: str, user: User | None = None) -> bool:
    others = User.objects.filter(email__iexact=email)
    if user is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()


class SignupForm(UserCreationForm):
    """A new account: display name, username, optional email, password twice. Django's
    form refuses a username taken in any case and checks the password validators."""

    first_name = forms.CharField(
        label=_("Nom affiché"),
        max_length=150,
        help_text=_("Le nom que la table verra, par exemple votre prénom."),
    )
    email = forms.EmailField(
        label=_("Adresse e-mail (facultative)"),
        required=False,
        help_text=_("Seulement pour retrouver un mot de passe oublié."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("first_name", "username", "email")

    def __init__(self, *args, address: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address
        # The form starts with the name the table sees, not Django's username.
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["first_name"].widget.attrs["autofocus"] = True
        self.fields["username"].help_text = _("Pour se connecter : lettres, chiffres, @ . + - _")
        self.fields["password1"].help_text = _("Au moins 8 caractères, pas que des chiffres.")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email and _email_taken(email):
            raise forms.ValidationError(_("Un compte utilise déjà cette adresse e-mail."))
        return email

    def clean(self):
        if throttle.exceeded(signup_limit(), {"ip": self.address}):
            raise forms.ValidationError(
                _("Trop de comptes créés depuis cette adresse. Réessayez dans une heure.")
            )
        return super().clean()

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=commit)
        if commit:
            throttle.record(signup_limit(), {"ip": self.address})
        return user


class ResetRequestForm(PasswordResetForm):
    """Django's "forgotten password" form, limited per address and per email so that it
    cannot flood a mailbox or the mail server. Requests are counted whether or not an
    account has the email, so the limit tells nothing about which emails exist."""

    def __init__(self, *args, address: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address

    def _keys(self) -> dict[str, str]:
        email = self.cleaned_data.get("email", "").strip().lower()
        # Hashed: the key column is short, and it need not hold addresses in clear.
        digest = hashlib.sha256(email.encode()).hexdigest()[:32] if email else ""
        return {"ip": self.address, "email": digest}

    def clean(self):
        cleaned = super().clean()
        if throttle.exceeded(reset_mail_limit(), self._keys()):
            raise forms.ValidationError(
                _("Trop de demandes de lien en peu de temps. Réessayez dans une heure.")
            )
        return cleaned

    def save(self, *args, **kwargs) -> None:
        throttle.record(reset_mail_limit(), self._keys())
        super().save(*args, **kwargs)


class AccountForm(forms.ModelForm):
    """What a person may change of their own account (the password has its own page)."""

    class Meta:
        model = User
        fields = ("first_name", "email", "language")
        labels = {"first_name": _("Nom affiché"), "email": _("Adresse e-mail")}
        help_texts = {"email": _("Facultative : pour retrouver un mot de passe oublié.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first_name"].required = True

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email and _email_taken(email, self.instance):
            raise forms.ValidationError(_("Un compte utilise déjà cette adresse e-mail."))
        return email
