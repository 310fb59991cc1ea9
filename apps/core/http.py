from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from apps.accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """The request our views receive: htmx details and a logged-in user (typing only)."""

    htmx: HtmxDetails
    user: User | AnonymousUser
