"""The stream a page's live element follows (components/live.html, apps/core/push.py)."""

from django import template
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from apps.core.push import streams_served

register = template.Library()


@register.simple_tag(takes_context=True)
def live_stream_url(context, live_url: str) -> str:
    """The stream beside a check URL: every "<app>:changes" has its "<app>:stream" (and
    "home_changes" its "home_stream"), with the same arguments. Empty under a WSGI server (no
    stream there: the page polls) or when the check has no stream."""
    request = context.get("request")
    if request is None or not streams_served(request) or not live_url:
        return ""
    try:
        match = resolve(live_url)
        stream = match.view_name.removesuffix("changes") + "stream"
        return reverse(stream, args=match.args, kwargs=match.kwargs)
    except (Resolver404, NoReverseMatch):
        return ""
