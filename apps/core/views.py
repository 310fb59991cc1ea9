"""The error pages Django hands to the project (French, in the site's layout, with a way
back): plumbing, so they render templates and read nothing of the feature apps."""

from django.http import HttpResponse
from django.shortcuts import render

from .http import HtmxHttpRequest


def permission_denied(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    """403: what the viewer may open instead, when the refusal knows it (``Forbidden``)."""
    way_back = getattr(exception, "way_back", None)
    return render(request, "403.html", {"way_back": way_back}, status=403)


def csrf_failure(request: HtmxHttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old tab, cookies refused): say so."""
    return render(request, "403_csrf.html", status=403)
