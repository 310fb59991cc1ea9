"""Writes of the accounts app that must be all-or-nothing (C5)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from .models import ResetLink, User

logger = logging.getLogger(__name__)


class ResetLinkUsed(Exception):
    """Someone used the link between the page and the form."""


@transaction.atomic
def reset_link_create(*, user: User, by: User) -> str:
    """A new one-time link for ``user`` (older unused ones stop working); the raw token."""
    ResetLink.objects.filter(user=user, used_at=None).delete()
    token, digest = ResetLink.new_token()
    ResetLink.objects.create(user=user, made_by=by, token_digest=digest)
    logger.info("Reset link for user %s made by user %s", user.pk, by.pk)
    return token


@transaction.atomic
def reset_link_use(*, link: ResetLink, password: str) -> User:
    """Set the new password through the link, which then stops working; every session of
    the user ends (the password is part of their hash)."""
    link = ResetLink.objects.select_for_update().select_related("user").get(pk=link.pk)
    if link.used_at is not None:
        raise ResetLinkUsed
    link.used_at = timezone.now()
    link.save(update_fields=["used_at"])
    user = link.user
    user.set_password(password)
    user.save(update_fields=["password"])
    logger.info("Reset link %s used by user %s", link.pk, user.pk)
    return user
