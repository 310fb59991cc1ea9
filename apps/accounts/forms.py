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
    """Forgotten passwords (by email or by username), per address and per account asked."""
    per_key = {
        "ip": settings.RESET_MAIL_LIMIT_PER_HOUR,
        "email": settings.RESET_MAIL_LIMIT_PER_EMAIL,
    }
    return throttle.Limit("reset", per_key, RESET_WINDOW)


def address_mail_limit() -> throttle.Limit:
    """Confirmation mails of an email address (the account form, sign-up), as many as the
    reset mails: per address and per email."""
    per_key = {
        "ip": settings.RESET_MAIL_LIMIT_PER_HOUR,
        "email": settings.RESET_MAIL_LIMIT_PER_EMAIL,
    }
    return throttle.Limit("address", per_key, RESET_WINDOW)


def _digest(text: str) -> str:
    # Hashed: the key column is short, and it need not hold addresses in clear.
    return hashlib.sha256(text.strip().lower().encode()).hexdigest()[:32] if text else ""


def too_many_requests() -> str:
    return _("Trop de demandes en peu de temps. Réessayez dans une heure.")


class AddressMailMixin:
    """A form with an optional email that, when given, is mailed a confirmation link:
    counted and limited whether or not an account has that address."""

    address = ""

    def _address_keys(self, email: str) -> dict[str, str]:
        return {"ip": self.address, "email": _digest(email)}

    def check_address_limit(self, email: str) -> None:
        if email and throttle.exceeded(address_mail_limit(), self._address_keys(email)):
            raise forms.ValidationError(too_many_requests())

    def record_address_mail(self, email: str) -> None:
        throttle.record(address_mail_limit(), self._address_keys(email))


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Langue"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


def focus_first_error(form: forms.Form) -> None:
    """A refused form opens on its first field in error, not on its first field: on a phone,
    the message under the password would otherwise be below the fold."""
    if not form.errors:
        return
    wrong = next((form.fields[name] for name in form.fields if name in form.errors), None)
    if wrong is None:  # a refusal of the whole form, said above its first field
        return
    for field in form.fields.values():
        field.widget.attrs.pop("autofocus", None)
    wrong.widget.attrs["autofocus"] = True


class SignupForm(AddressMailMixin, UserCreationForm):
    """A new account: display name, username, optional email, password twice. Django's
    form refuses a username taken in any case and checks the password validators. The email
    is not stored here: its owner confirms it from a mail (``email_to_confirm``), so that
    this form never tells whether an address has an account."""

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
        fields = ("first_name", "username")
        field_order = ("first_name", "username", "email")

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
        self.check_address_limit(email)
        return email

    @property
    def email_to_confirm(self) -> str:
        """The address to mail a confirmation link once the account exists ("" for none)."""
        return self.cleaned_data.get("email", "")

    def validate_password_for_user(self, user, **kwargs) -> None:
        """A password too short or too common is said under the password itself (Django
        says it under the confirmation); a mismatch stays under the confirmation."""
        super().validate_password_for_user(user, password_field_name="password1")

    def full_clean(self) -> None:
        super().full_clean()
        focus_first_error(self)

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
            if self.email_to_confirm:
                self.record_address_mail(self.email_to_confirm)
        return user


class ResetRequestForm(PasswordResetForm):
    """Django's "forgotten password" form, limited per address and per email so that it
    cannot flood a mailbox or the mail server. Requests are counted whether or not an
    account has the email, so the limit tells nothing about which emails exist."""

    def __init__(self, *args, address: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address

    def _keys(self) -> dict[str, str]:
        return {"ip": self.address, "email": _digest(self.cleaned_data.get("email", ""))}

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


class ResetAskForm(forms.Form):
    """ "Forgotten password" without an email: the username, for a request the player's GM
    answers with a link. Limited as the mails are, per address and per username, whether or
    not the account exists."""

    username = forms.CharField(label=_("Nom d’utilisateur"), max_length=150)

    def __init__(self, *args, address: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address

    def _keys(self) -> dict[str, str]:
        username = self.cleaned_data.get("username", "")
        return {"ip": self.address, "email": _digest(f"user:{username}" if username else "")}

    def clean(self):
        cleaned = super().clean()
        if throttle.exceeded(reset_mail_limit(), self._keys()):
            raise forms.ValidationError(
                _("Trop de demandes de lien en peu de temps. Réessayez dans une heure.")
            )
        return cleaned

    def record(self) -> None:
        throttle.record(reset_mail_limit(), self._keys())


class AccountForm(AddressMailMixin, forms.ModelForm):
    """What a person may change of their own account (the password has its own page). A new
    email is not stored here but mailed a confirmation link (``email_to_confirm``): the
    answer is the same whether or not another account has it."""

    email = forms.EmailField(
        label=_("Adresse e-mail"),
        required=False,
        help_text=_("Facultative : pour retrouver un mot de passe oublié."),
    )

    class Meta:
        model = User
        fields = ("first_name", "language")
        field_order = ("first_name", "email", "language")
        labels = {"first_name": _("Nom affiché")}

    def __init__(self, *args, address: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.address = address
        self.fields["first_name"].required = True
        self.fields["email"].initial = self.instance.email
        self.order_fields(self.Meta.field_order)

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email.lower() != self.instance.email.lower():
            self.check_address_limit(email)
        return email

    @property
    def email_to_confirm(self) -> str:
        """A new address to mail a confirmation link to ("" when unchanged or removed)."""
        email = self.cleaned_data["email"]
        return email if email.lower() != self.instance.email.lower() else ""

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        fields = ["first_name", "language"]
        if not self.cleaned_data["email"]:  # removing an address needs no confirmation
            user.email, user.email_pending = "", ""
            fields += ["email", "email_pending"]
        if commit:
            user.save(update_fields=fields)
            if self.email_to_confirm:
                self.record_address_mail(self.email_to_confirm)
        return user
