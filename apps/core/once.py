"""At most once per submission: the one-time key a form carries (sheet spends and rests, XP,
the campaign's actions, every form that makes something).

The console's steps carry the encounter's version instead (a step made on another version is
refused). Elsewhere a version would refuse too much — a sheet moves with every blow of the
fight — so each rendered form carries a key of its own (``{% once_key %}``), signed with the
time it was made. The view claims it in the same transaction as the action: a second
submission of the same form (a double tap, htmx replaying a queued request, a retry after an
answer lost on the way) finds it used and is refused in words, nothing redone; an action
that fails leaves its key unused, so "réessayer" works. A missing, forged or malformed key is
refused the same way, never taken as "no check".
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import wraps

from django.core import signing
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from .models import Submission

FIELD = "once"
# A form left open longer than this (a tab forgotten over a weekend) is refused, as stale.
MAX_AGE = timedelta(days=2)
SALT = "tablee.once"


class SubmissionRefused(Exception):
    """A submission not to act on, with what to tell the person; ``replayed``: the same
    form was already sent (409, like a step someone else made first)."""

    def __init__(self, message: str, *, replayed: bool = False):
        super().__init__(message)
        self.message = message
        self.replayed = replayed

    @property
    def status(self) -> int:
        return 409 if self.replayed else 200


def new_key() -> str:
    """A fresh key for one rendered form: a random part, signed with its time."""
    return signing.TimestampSigner(salt=SALT).sign(secrets.token_hex(16))


def _random_part(value: str) -> str:
    try:
        return signing.TimestampSigner(salt=SALT).unsign(value, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise SubmissionRefused(
            _("Ce formulaire a plus de deux jours : la page a été actualisée, recommencez.")
        ) from None
    except signing.BadSignature:
        raise SubmissionRefused(
            _(
                "Ce formulaire ne porte pas sa clé d'envoi (ou une clé illisible) : rien n'a "
                "été fait, la page a été actualisée, recommencez."
            )
        ) from None


def claim_submission(request: HttpRequest) -> None:
    """Use the key the posted form carries, until the surrounding transaction ends: raises
    ``SubmissionRefused`` when it is missing, malformed, too old or already used. One
    statement, which also forgets the keys too old to be accepted any more."""
    if not connection.in_atomic_block:
        raise RuntimeError("claim_submission() belongs in the action's transaction.")
    key = _random_part(request.POST.get(FIELD, ""))
    table = connection.ops.quote_name(Submission._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH expired AS (DELETE FROM {table} WHERE used_at < now() - %s) "
            f"INSERT INTO {table} (key, used_at) VALUES (%s, now()) "
            "ON CONFLICT DO NOTHING RETURNING key",
            [MAX_AGE, key],
        )
        if cursor.fetchone() is None:
            raise SubmissionRefused(
                _(
                    "Déjà pris en compte : ce formulaire avait déjà été envoyé (un double "
                    "appui ?). Rien n'a été refait."
                ),
                replayed=True,
            )


Refused = Callable[..., HttpResponse]


def once_per_submission(refused: Refused, *, unless: Callable[[HttpRequest], bool] | None = None):
    """A view whose POST acts at most once per rendered form: the key is claimed in the
    transaction the view runs in (an exception rolls both back). A refused submission is
    answered by ``refused(request, error, **view_kwargs)``, which checks access as the view
    would (an outsider still gets 404). GET, and POSTs that ``unless`` exempts (a form's live
    check as the user types), go straight to the view."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != "POST" or (unless is not None and unless(request)):
                return view(request, *args, **kwargs)
            try:
                with transaction.atomic():
                    claim_submission(request)
                    return view(request, *args, **kwargs)
            except SubmissionRefused as error:
                return refused(request, error, *args, **kwargs)

        return wrapper

    return decorate
