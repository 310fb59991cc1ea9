"""While the database is down or stuck: a French 503 page at once, never a 500 or a hang.

The pool lends a connection only after checking it (``CONN_HEALTH_CHECKS``) and waits at
most ``POOL_TIMEOUT_SECONDS`` for one (config/settings.py); statements and lock waits have
time-outs. Whatever of those fails, the person sees "the database does not answer, try again
in a few seconds" in their language, with ``Retry-After``, and the page's script (static/js/
failures.js) says it beside the button that was pressed.

The connection is taken first, before any middleware reads the session's user: a database
that cannot be reached is then known before anything ran, and the answer says that nothing
was applied (``Tablee-Nothing-Applied``). A failure later in the request (a lock waited for
too long, the server gone mid-step) rolls the step's transaction back: the answer is the
same page, without that promise — a step that committed before the failure stays committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

logger = logging.getLogger(__name__)

# What a browser or a proxy is told to wait before trying again.
RETRY_AFTER_SECONDS = 5
TEMPLATE = "503.html"


def database_unavailable(request: HttpRequest, *, nothing_applied: bool) -> HttpResponse:
    """The 503 page, rendered without the request's context (its user and messages live in
    the database), in the language of the viewer's cookie when they chose one."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    language = chosen if chosen in dict(settings.LANGUAGES) else translation.get_language()
    with translation.override(language or settings.LANGUAGE_CODE):
        html = render_to_string(TEMPLATE, {"nothing_applied": nothing_applied})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    if nothing_applied:
        response["Tablee-Nothing-Applied"] = "1"
    return response


class DatabaseUnavailableMiddleware:
    """Before the session and the user are read: a connection, or the 503 page. Views that
    fail on the database later (a lock time-out, the server restarting) get it too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            connection.ensure_connection()
        except OperationalError as error:
            logger.warning("The database cannot be reached: %s", error)
            return database_unavailable(request, nothing_applied=True)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, OperationalError):
            return None
        logger.warning("A request failed on the database: %s", exception)
        return database_unavailable(request, nothing_applied=False)
