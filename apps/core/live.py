"""The answer of an idle "anything new?" check (product spec §4; components/live.html).

Every screen that follows the table polls a check URL with the version it shows. The check
computes the current version in one query (None when the viewer may not see the thing) and
this answers: 404, 204 while nothing changed, else the refreshed live element (carrying the
new version) and the event the page's regions listen to, so that they fetch themselves.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.template.response import TemplateResponse

from .http import HtmxHttpRequest


def answer_check(request: HtmxHttpRequest, version, event: str) -> HttpResponse:
    """What a check answers, given the current ``version`` (None: not for this viewer)."""
    if version is None:
        return HttpResponse(status=404)
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    response = TemplateResponse(
        request,
        "components/live.html#live-element",
        {"live_url": request.path, "version": version},
    )
    response["HX-Trigger"] = event  # an event's name alone: htmx fires it on the body
    return response
