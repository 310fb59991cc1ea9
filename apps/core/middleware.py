"""htmx plumbing, written once (C9): every view stays plain Django."""

from django.contrib.messages import get_messages
from django.middleware.gzip import GZipMiddleware
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers, patch_cache_control, patch_vary_headers
from django_htmx.http import HttpResponseLocation

# What goes out as it is: a compressor would hold a stream's events until it had enough to
# write, and the images the app streams (handouts) are compressed already.
NOT_COMPRESSED = ("text/event-stream", "image/png", "image/jpeg", "image/webp")


class CompressedPagesMiddleware(GZipMiddleware):
    """Pages and htmx fragments go out gzipped to a browser that accepts it (a console of
    300 KB is 13 KB on the wire; Django's compressor pads each answer with random bytes
    against BREACH). Pushed event streams and images go out as they are (NOT_COMPRESSED)."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith(NOT_COMPRESSED):
            return response
        return super().process_response(request, response)


class HtmxVaryMiddleware:
    """A URL answers a full page or a fragment depending on HX-Request: caches must know."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


class PrivateCacheMiddleware:
    """What a logged-in person sees is theirs alone and must not outlive their session: no
    shared cache keeps it, and no browser keeps it either (the back button of a shared tablet
    after logout would show the GM's console). Pages, fragments, idle checks and the export
    alike, so no view can forget it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # The user was loaded by the authentication of this request: no query more. Logout
        # answers with the user already gone: its redirect holds nothing of theirs.
        if request.user.is_authenticated:
            add_never_cache_headers(response)
            patch_cache_control(response, private=True, no_store=True)
        return response


class HtmxRedirectMiddleware:
    """Turn a redirect answering an htmx request into HX-Location (client-side navigation).

    A plain 302 would be followed by the browser's XHR and its target swapped into the
    element that made the request; HX-Location loads the target page as a navigation.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.htmx and not request.htmx.boosted and response.status_code in (301, 302):
            location = HttpResponseLocation(response["Location"])
            for name, value in response.cookies.items():
                location.cookies[name] = value
            return location
        return response


class HtmxMessagesMiddleware:
    """Deliver pending messages with any htmx fragment, as an out-of-band swap of #messages.
    An action (POST) always replaces them: a message speaks of the last action, and one left
    from an earlier action ("Combat terminé" over a reopened fight) would mislead; so does a
    region refreshed to a newer state (``apps.core.http.replaces_messages``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not request.htmx
            or response.status_code in (204, 301, 302)
            or "HX-Location" in response.headers
            or "HX-Redirect" in response.headers
            or not response.get("Content-Type", "").startswith("text/html")
            or getattr(response, "streaming", False)
        ):
            return response
        messages = list(get_messages(request))
        if messages or request.method == "POST" or getattr(response, "replaces_messages", False):
            response.content += render_to_string(
                "components/messages.html",
                {"messages": messages, "oob": True},
                request=request,
            ).encode()
        return response
