from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """The request our views receive: htmx details and a logged-in user (typing only).

    The user is typed by Django's base class, not the project's model: apps/core is plumbing
    under every app and imports none of them (tests/core/test_plumbing_only.py).
    """

    htmx: HtmxDetails
    user: AbstractBaseUser | AnonymousUser
