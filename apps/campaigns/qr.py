"""The invitation link as a QR code, so that a player joins from the phone's camera: an SVG
drawn on the server (segno), put in the page as is — no script, no image request."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# Error correction M: read from across a room, off a screen's glare, at a small size.
ERROR_LEVEL = "m"


@lru_cache(maxsize=256)
def _svg(text: str, title: str) -> str:
    # Drawing one costs a few milliseconds; a page's regions ask for the same one again.
    # Never a Micro QR code (segno's choice for a short text): phone cameras do not read them.
    code = segno.make_qr(text, error=ERROR_LEVEL)
    return code.svg_inline(
        omitsize=True, svgclass="qr-code", lineclass=None, dark="#000", light="#fff", title=title
    )


def qr_svg(url: str) -> SafeString:
    """The SVG of a QR code of ``url``, sized by CSS (it has a viewBox, no width)."""
    # segno escapes the title it writes; the code itself is paths drawn from the URL's bits.
    return mark_safe(_svg(url, _("QR code du lien d'invitation")))
