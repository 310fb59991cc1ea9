"""The error pages Django hands to the project (French, in the site's layout, with a way
back): plumbing, so they render templates and read nothing of the feature apps."""

import sys

from django.db import OperationalError
from django.http import HttpResponse
from django.shortcuts import render
from django.views import defaults

from .http import HtmxHttpRequest
from .unavailable import database_unavailable


def permission_denied(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    """403: what the viewer may open instead, when the refusal knows it (``Forbidden``)."""
    way_back = getattr(exception, "way_back", None)
    return render(request, "403.html", {"way_back": way_back}, status=403)


def csrf_failure(request: HtmxHttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old tab, cookies refused): say so."""
    return render(request, "403_csrf.html", status=403)


def server_error(request: HtmxHttpRequest) -> HttpResponse:
    """500, unless the error is the database's (it went away between the connection taken
    by DatabaseUnavailableMiddleware and a middleware reading the user): then the 503 page
    that says to try again in a few seconds."""
    if isinstance(sys.exc_info()[1], OperationalError):
        return database_unavailable(request, nothing_applied=False)
    return defaults.server_error(request)
