"""The health check a load balancer or a proxy calls: ``GET /sante/``.

It answers before every other middleware, so over plain HTTP (no redirect to HTTPS) and
whatever the Host header (the proxy calls an address, not the site's name): 200 when every
check passes, 503 otherwise, with one line per check. Only the database today; the live-update
listener joins ``CHECKS`` once it exists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse

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


CHECKS: dict[str, Callable[[], bool]] = {"database": database_answers}


def health_response() -> HttpResponse:
    """``ok`` and 200 when every check passes, else ``unavailable`` and 503; a line each."""
    results = {name: check() for name, check in CHECKS.items()}
    healthy = all(results.values())
    lines = ["ok" if healthy else "unavailable"]
    lines += [f"{name}: {'ok' if passed else 'failing'}" for name, passed in results.items()]
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
