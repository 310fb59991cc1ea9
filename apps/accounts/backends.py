"""The per-address login limit, beside axes' per (username, address) one (issue 12, point 4)."""

from __future__ import annotations

from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.utils import timezone

from .clientip import client_ip


def address_failures(address: str) -> int:
    """Failed logins from one address, every username together, within the cool-off."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    total = AccessAttempt.objects.filter(ip_address=address, attempt_time__gt=since).aggregate(
        total=Sum("failures_since_start")
    )["total"]
    return total or 0


class AddressLimitBackend:
    """Refuses every login from an address that failed too often, whatever the username.

    It authenticates nobody: it only stops the chain, and lets axes' middleware answer with
    the lockout page (``axes_locked_out``), as axes' own backend does. No ``get_user``: a
    session is never this backend's, and ``force_login`` must not pick it.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        if address_failures(client_ip(request)) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.axes_locked_out = True
            raise PermissionDenied
        return None
