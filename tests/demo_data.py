"""The demo of `make run` (seeds, accounts, a campaign per system) loaded into a test's
database, as tests that need a whole, real campaign use it."""

from django.conf import global_settings
from django.core.management import call_command

from apps.accounts.models import User


def load_demo(settings) -> User:
    """Load the seeds and the demo; returns its GM (``mj``)."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS[:1]  # fast demo passwords
    call_command("seed", verbosity=0)
    settings.DEBUG = True  # the demo accounts are for development only
    call_command("demo", verbosity=0)
    return User.objects.get(username="mj")
