"""A handout's image, checked by its content before anything is kept: PNG, JPEG or WebP
(whatever its name says), at most 5 MB, whole, and of a size a screen can show; and kept
without the metadata a camera writes into it (a phone photo tells where it was taken)."""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _
from PIL import Image, ImageOps

MAX_BYTES = 5 * 1024 * 1024
# Far above any screen, far below what would take the server's memory to decode.
MAX_PIXELS = 50_000_000
# Pillow's format names, and the type the image is served as.
FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
# A JPEG is decoded at an eighth of its size to find it whole (its data read to the end).
JPEG_DRAFT_SCALE = 8


# What a camera or an editor writes besides the picture: EXIF (the GPS position among it), XMP,
# comments, PNG text chunks. The colour profile is kept: it is part of the picture.
METADATA = {"exif", "xmp", "XML:com.adobe.xmp", "comment", "photoshop", "iptc"}
# Re-encoding quality when a JPEG or a WebP must be written again without its metadata.
REENCODE_QUALITY = 90


@dataclass(frozen=True)
class CheckedImage:
    file: File
    content_type: str
    width: int
    height: int


def checked_image(upload: UploadedFile) -> CheckedImage:
    """The upload as a checked image; ``ValidationError`` in French when it is not one."""
    if upload.size > MAX_BYTES:
        size = f"{upload.size / (1024 * 1024):.1f}".replace(".", ",")
        raise ValidationError(
            _("Ce fichier pèse %(size)s Mo : une image de 5 Mo au plus, s'il vous plaît.")
            % {"size": size},
            code="too_heavy",
        )
    try:
        checked = _without_metadata(_read(upload))
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError, Warning):
        # Pillow says "not an image of these formats", "truncated", "broken" this way.
        raise ValidationError(
            _("Ce fichier n'est pas une image PNG, JPEG ou WebP lisible."), code="not_an_image"
        ) from None
    finally:
        upload.seek(0)
    return checked


def _read(upload: UploadedFile) -> CheckedImage:
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        upload.seek(0)
        image = Image.open(upload, formats=list(FORMATS))  # reads the header only
        width, height = image.size
        if width * height > MAX_PIXELS:
            raise ValidationError(
                _("Cette image fait %(width)s × %(height)s pixels : 50 millions de pixels au plus.")
                % {"width": width, "height": height},
                code="too_large",
            )
        content_type = FORMATS[image.format]
        image.verify()  # PNG: every chunk's checksum
        upload.seek(0)
        image = Image.open(upload, formats=list(FORMATS))
        if image.format == "JPEG":
            image.draft("RGB", (width // JPEG_DRAFT_SCALE, height // JPEG_DRAFT_SCALE))
        image.load()  # decoded to the end: a truncated file fails here
    return CheckedImage(upload, content_type, width, height)


def _without_metadata(checked: CheckedImage) -> CheckedImage:
    """The image as it is when it carries no metadata; else written again without it, turned
    first as its EXIF orientation says (the tag that turned it goes with the rest)."""
    upload = checked.file
    upload.seek(0)
    with Image.open(upload, formats=list(FORMATS)) as image:
        carried = METADATA & set(image.info) or getattr(image, "text", None)
        if not carried:
            return checked
        image_format = image.format
        upright = ImageOps.exif_transpose(image)
        options = {"icc_profile": image.info.get("icc_profile")}
        if image_format in ("JPEG", "WEBP"):
            options["quality"] = REENCODE_QUALITY
        if image_format == "JPEG" and upright.mode not in ("RGB", "L", "CMYK"):
            upright = upright.convert("RGB")
        data = io.BytesIO()
        upright.save(data, image_format, **{k: v for k, v in options.items() if v})
    width, height = upright.size
    cleaned = ContentFile(data.getvalue(), name=upload.name)
    return CheckedImage(cleaned, checked.content_type, width, height)
