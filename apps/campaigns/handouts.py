"""What the table sees of the GM's handouts: the one shown now, and its image, streamed after
the access check (never a public media URL). The GM shows and takes them down from the
table screen's page (apps/screens)."""

from __future__ import annotations

from django.http import FileResponse, Http404
from django.utils.cache import add_never_cache_headers, patch_cache_control

from .models import Campaign, Handout


def shown_handout(campaign: Campaign) -> Handout | None:
    """The document on show to the table, if any (no query when there is none)."""
    return campaign.shown_handout


def campaign_handout(campaign: Campaign, handout_id: int) -> Handout:
    """One of the campaign's handouts (the GM acts on it); 404 when not one of them."""
    handout = campaign.handouts.filter(pk=handout_id).first()
    if handout is None:
        raise Http404("No such handout.")
    return handout


def visible_handout(campaign: Campaign, handout_id: int, *, is_gm: bool) -> Handout:
    """A handout's image for a viewer of the campaign: the GM may see any of the campaign's
    (to prepare them), everyone else only the one on show; 404 otherwise, as for a handout
    that does not exist."""
    handouts = campaign.handouts.exclude(image="")
    if not is_gm:
        handouts = handouts.filter(pk=campaign.shown_handout_id)
    handout = handouts.filter(pk=handout_id).first()
    if handout is None:
        raise Http404("No such handout.")
    return handout


def image_response(handout: Handout) -> FileResponse:
    """The handout's image, streamed from the storage with the type its content was checked
    as. Kept by no cache: what a viewer may see changes when the GM takes it down."""
    try:
        stream = handout.image.open("rb")
    except FileNotFoundError:  # the storage lost it (a restore without the media folder)
        raise Http404("Handout image missing.") from None
    response = FileResponse(stream, content_type=handout.image_type)
    response["Content-Disposition"] = "inline"
    add_never_cache_headers(response)
    patch_cache_control(response, private=True, no_store=True)
    return response
