from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """The request our views receive: htmx details and a logged-in user (typing only).

    The user is typed by Django's base class, not the project's model: apps/core is plumbing
    under every app and imports none of them (tests/core/test_plumbing_only.py).
    """

    htmx: HtmxDetails
    user: AbstractBaseUser | AnonymousUser


class Forbidden(PermissionDenied):
    """A 403 that offers the viewer a way to what they may see (``way_back``: url, label)."""

    def __init__(self, message: str = "", *, way_back: tuple[str, str] | None = None):
        super().__init__(message)
        self.way_back = way_back


def too_many_requests(request: HttpRequest, minutes: int) -> HttpResponse:
    """The 429 page of a rate limit, saying when to try again."""
    return render(request, "429.html", {"minutes": minutes}, status=429)


def replaces_messages(response: HttpResponse) -> HttpResponse:
    """Mark an htmx answer that makes the messages bar stale — a region refreshed to a newer
    state than the one its words were about ("Quelqu'un a agi avant vous" once the console
    shows what they did): the bar is replaced with it, emptied when no new message waits
    (``HtmxMessagesMiddleware``)."""
    response.replaces_messages = True
    return response
