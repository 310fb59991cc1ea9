"""The client's address, for every rate limit (django-axes calls ``client_ip`` too).

Behind a reverse proxy every request comes from the proxy; the proxy appends the address it
saw to ``X-Forwarded-For``. A header is believed only when the request comes from one of
``TRUSTED_PROXIES`` (a client reaching the app directly can write any header it likes), and
it is read from the right: with ``TRUSTED_PROXY_COUNT`` proxies in a row, the client is the
count-th address from the end — what a client wrote itself sits further left, and is ignored.

python-ipware (axes' optional helper) counts proxies inside the header instead, and in the
common one-proxy setup answers nothing or the left-most, client-written address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _is_trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def _forwarded(request: HttpRequest, header: str) -> str | None:
    hops = [hop.strip() for hop in request.META.get(header, "").split(",") if hop.strip()]
    count = settings.TRUSTED_PROXY_COUNT
    if count < 1 or len(hops) < count:
        return None
    candidate = hops[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The address of the person making the request (see the module docstring)."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    if not _is_trusted(remote):
        return remote
    for header in settings.CLIENT_IP_HEADERS:
        if header == "REMOTE_ADDR":
            return remote
        found = _forwarded(request, header)
        if found:
            return found
    return remote
