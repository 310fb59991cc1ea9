"""Handouts and screen links for the table screen's tests: real images, made by Pillow."""

from __future__ import annotations

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from apps.campaigns.models import Campaign, Handout
from apps.screens import services
from apps.screens.images import checked_image

TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}


def image_bytes(kind: str = "PNG", size: tuple[int, int] = (64, 48)) -> bytes:
    """A small picture in this format: a red field with a blue square."""
    image = Image.new("RGB", size, (200, 40, 40))
    image.paste((40, 40, 200), (size[0] // 4, size[1] // 4, size[0] // 2, size[1] // 2))
    data = io.BytesIO()
    image.save(data, kind)
    return data.getvalue()


def upload(data: bytes, name: str = "plan.png", content_type: str = "image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def make_handout(
    campaign: Campaign,
    *,
    title: str = "Plan des docks",
    text: str = "",
    kind: str | None = "PNG",
    shown: bool = False,
) -> Handout:
    """A handout of the campaign made as the GM's form makes it (its image checked)."""
    gm = campaign.memberships.get(role="gm").user
    image = None
    if kind is not None:
        image = checked_image(upload(image_bytes(kind), f"plan.{kind.lower()}", TYPES[kind]))
    return services.handout_create(
        campaign=campaign, title=title, text=text, image=image, by=gm, show=shown
    )


def make_link(campaign: Campaign, label: str = "Télé du salon") -> str:
    """A screen link of the campaign: its token."""
    gm = campaign.memberships.get(role="gm").user
    _link, token = services.screen_link_create(campaign=campaign, label=label, by=gm)
    return token
