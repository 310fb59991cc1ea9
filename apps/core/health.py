"""The health check a load balancer or a proxy calls: ``GET /sante/``.

It answers before every other middleware, so over plain HTTP (no redirect to HTTPS) and
whatever the Host header (the proxy calls an address, not the site's name): 200 when every
check passes, 503 otherwise, with one line per check: the database, and the process's
live-update listener (apps/core/push.py) — failing once it has been reconnecting for a while,
as a restart of the database makes it do for a few seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse

from .push import hub

PATH = "/sante/"
logger = logging.getLogger(__name__)


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("Health check: the database does not answer")
        return False
    return True


# The listener may reconnect this long (a database restart) before the check fails.
PUSH_GRACE_SECONDS = 30.0


def push_listens() -> tuple[bool, str]:
    """Whether this process's LISTEN connection is up, with what it is doing. A process
    that has served no stream yet (or a WSGI server, which serves none) has none: fine."""
    state, lost_for = hub.state()
    if state == "reconnecting":
        return lost_for < PUSH_GRACE_SECONDS, f"reconnecting for {round(lost_for)} s"
    return True, state


def database_check() -> tuple[bool, str]:
    return database_answers(), ""


# Each check: (passed, what it is doing, or "" when there is nothing to add).
CHECKS: dict[str, Callable[[], tuple[bool, str]]] = {
    "database": database_check,
    "push": push_listens,
}


def health_response() -> HttpResponse:
    """``ok`` and 200 when every check passes, else ``unavailable`` and 503; a line each."""
    results = {name: check() for name, check in CHECKS.items()}
    healthy = all(passed for passed, _detail in results.values())
    lines = ["ok" if healthy else "unavailable"]
    for name, (passed, detail) in results.items():
        lines.append(f"{name}: {'ok' if passed else 'failing'}{f' ({detail})' if detail else ''}")
    response = HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
    response.status_code = 200 if healthy else 503
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """First in MIDDLEWARE: answers the health check before HTTPS redirects and Host checks."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == PATH and request.method in {"GET", "HEAD"}:
            return health_response()
        return self.get_response(request)
