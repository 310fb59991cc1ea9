"""Writes of the accounts app that must be all-or-nothing (C5), and the mails they send."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.campaigns.models import Campaign, Role

from .models import ResetLink, User

logger = logging.getLogger(__name__)

# Django's own reset mail, as the "forgotten password" page sends it.
RESET_MAIL_TEMPLATES = {
    "email_template_name": "accounts/password_reset_email.txt",
    "subject_template_name": "accounts/password_reset_subject.txt",
}
EMAIL_CONFIRM_SALT = "apps.accounts.email_confirm"
EMAIL_CONFIRM_AGE = timedelta(hours=24)


class ResetLinkUsed(Exception):
    """Someone used the link between the page and the form."""


class EmailConfirmRefused(Exception):
    """The confirmation link cannot set the address; ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _mail(user: User, to: str, template: str, context: dict) -> None:
    """A mail in ``user``'s language from ``accounts/<template>_subject.txt`` and
    ``_email.txt``. A mail server that fails is logged: the page's answer does not change."""
    with translation.override(user.language):
        context = {"user": user, **context}
        subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
        body = render_to_string(f"accounts/{template}_email.txt", context)
    try:
        send_mail(subject, body, None, [to])
    except (OSError, smtplib.SMTPException) as error:
        logger.warning("Mail %s to user %s not sent: %s", template, user.pk, error)


# --- A forgotten password --------------------------------------------------------------------


def reset_ask(*, username: str, request: HttpRequest) -> str:
    """ "Forgotten password" for a username: a mailed link when the account has an email
    (alone: no GM can help then), else a request its GMs see on their campaign page; nothing
    for an unknown, inactive or staff account. Whatever the case, the secret this browser
    keeps to open the link a GM hands over: the answer is the same."""
    secret, digest = ResetLink.new_secret()
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        return secret
    if user.email:
        form = PasswordResetForm({"email": user.email})
        if form.is_valid():
            form.save(request=request, use_https=request.is_secure(), **RESET_MAIL_TEMPLATES)
        return secret
    if not (user.is_staff or user.is_superuser):
        _reset_request_create(user, digest)
    return secret


@transaction.atomic
def _reset_request_create(user: User, browser_digest: str) -> None:
    """The request replaces any other unused one of the user (and its link); the campaigns
    they play in move, so that their GMs' open pages show it."""
    ResetLink.objects.filter(user=user, used_at=None).delete()
    ResetLink.objects.create(user=user, browser_digest=browser_digest)
    Campaign.objects.filter(memberships__user=user, memberships__role=Role.PLAYER).update(
        version=F("version") + 1
    )
    logger.info("Password request by user %s", user.pk)


@transaction.atomic
def reset_link_make(*, link: ResetLink, by: User) -> str:
    """The one-time link for a pending request (a newer one replaces it); the raw token."""
    token, digest = ResetLink.new_secret()
    link.token_digest, link.made_by, link.made_at = digest, by, timezone.now()
    link.save(update_fields=["token_digest", "made_by", "made_at"])
    logger.info("Reset link for user %s made by user %s", link.user_id, by.pk)
    return token


@transaction.atomic
def reset_link_use(*, link: ResetLink, password: str) -> User:
    """Set the new password through the link, which then stops working; every session of
    the user ends (the password is part of their hash), and they are told."""
    link = ResetLink.objects.select_for_update().select_related("user").get(pk=link.pk)
    if link.used_at is not None:
        raise ResetLinkUsed
    link.used_at = timezone.now()
    link.save(update_fields=["used_at"])
    user = link.user
    user.set_password(password)
    user.save(update_fields=["password"])
    password_reset_told(user=user)
    logger.info("Reset link %s used by user %s", link.pk, user.pk)
    return user


def password_reset_told(*, user: User) -> None:
    """After a reset (by mail, a GM's link, the admin): the person is told at their next
    log-in, and by mail where they have an address."""
    user.password_reset_at = timezone.now()
    user.save(update_fields=["password_reset_at"])
    password_changed_mail(user=user)


def password_changed_mail(*, user: User) -> None:
    """Tell the person by mail that their password changed, if they have an address."""
    if user.email:
        when = date_format(timezone.localtime(), "DATETIME_FORMAT")
        _mail(user, user.email, "password_changed", {"when": when})


def password_reset_notice(request: HttpRequest, user: User) -> None:
    """At log-in, tell the person their password was reset since they last logged in."""
    if user.password_reset_at is None:
        return
    when = date_format(timezone.localtime(user.password_reset_at), "DATETIME_FORMAT")
    with translation.override(user.language):
        messages.warning(
            request,
            _(
                "Votre mot de passe a été changé le %(when)s. Si ce n'était pas vous, "
                "changez-le et prévenez votre MJ."
            )
            % {"when": when},
        )
    User.objects.filter(pk=user.pk).update(password_reset_at=None)


# --- An email address, confirmed by its owner -------------------------------------------------


def email_confirm_ask(*, user: User, email: str, request: HttpRequest) -> None:
    """Keep ``email`` aside for ``user`` and mail it a link that stores it. An address that
    is already another account's gets a mail saying so instead, and the page the user sees
    is the same: whether an address has an account is told only to its owner."""
    user.email_pending = email
    user.save(update_fields=["email_pending"])
    owner = User.objects.filter(email__iexact=email).exclude(pk=user.pk).first()
    if owner is not None:
        _mail(owner, email, "email_taken", {"asked_by": user})
        return
    token = signing.dumps({"user": user.pk, "email": email}, salt=EMAIL_CONFIRM_SALT)
    url = request.build_absolute_uri(reverse("accounts:email_confirm", args=[token]))
    _mail(user, email, "email_confirm", {"url": url, "email": email})


def email_confirm_read(token: str) -> tuple[User, str]:
    """The account and the address a confirmation link names, or EmailConfirmRefused."""
    refused = EmailConfirmRefused(
        _(
            "Ce lien ne fonctionne plus : il a plus de 24 heures, il a déjà servi, ou une "
            "autre adresse a été demandée depuis. Redonnez l'adresse sur « Mon compte »."
        )
    )
    try:
        found = signing.loads(
            token, salt=EMAIL_CONFIRM_SALT, max_age=EMAIL_CONFIRM_AGE.total_seconds()
        )
        user_pk, email = found["user"], found["email"]
    except (signing.BadSignature, KeyError, TypeError):
        raise refused from None
    user = User.objects.filter(pk=user_pk, is_active=True).first()
    if user is None or not email or user.email_pending.lower() != str(email).lower():
        raise refused
    return user, email


@transaction.atomic
def email_confirm(*, token: str) -> User:
    """Store the address the link names on its account, unless another account took it
    meanwhile; the link then stops working."""
    user, email = email_confirm_read(token)
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.email_pending.lower() != email.lower():
        raise EmailConfirmRefused(_("Cette adresse vient d'être confirmée."))
    if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise EmailConfirmRefused(_("Cette adresse est déjà celle d'un autre compte."))
    user.email, user.email_pending = email, ""
    user.save(update_fields=["email", "email_pending"])
    logger.info("Email confirmed by user %s", user.pk)
    return user
