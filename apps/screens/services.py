"""Writes of the table screen (C5): screen links, and the handouts the GM shows the table."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, Handout
from apps.encounters.models import Encounter

from .images import CheckedImage
from .models import ScreenLink, new_token, token_digest

# More would be links forgotten on old devices: the GM revokes one first.
MAX_LINKS = 10


class ScreenRefusal(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@transaction.atomic
def screen_link_create(*, campaign: Campaign, label: str, by: User) -> tuple[ScreenLink, str]:
    """A new link to the campaign's screen, and its token (shown once: only its digest is
    kept). The campaign is locked: two presses at once cannot pass the limit together."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    if campaign.screen_links.count() >= MAX_LINKS:
        raise ScreenRefusal(
            _("Cette campagne a déjà %(count)s liens d'écran : retirez-en un d'abord.")
            % {"count": MAX_LINKS}
        )
    token = new_token()
    link = ScreenLink.objects.create(
        campaign=campaign, label=label.strip(), token_digest=token_digest(token), created_by=by
    )
    return link, token


@transaction.atomic
def screen_link_revoke(*, link: ScreenLink) -> None:
    """The link opens nothing any more. The campaign's version moves: the link's open stream
    is told, checks again and ends (apps/core/push.py), and its page's next check reloads it
    onto the "link revoked" page."""
    link.delete()
    link.campaign.touch()


def handout_create(
    *,
    campaign: Campaign,
    title: str,
    text: str,
    image: CheckedImage | None,
    by: User,
    show: bool = False,
) -> Handout:
    """A new handout of the campaign (shown to the table at once with ``show``), its image
    written to the storage first and deleted again if the rows cannot be saved: nothing is
    kept of a refused upload."""
    handout = Handout(campaign=campaign, title=title, text=text, created_by=by)
    if image is not None:
        handout.image_type = image.content_type
        handout.width, handout.height = image.width, image.height
        handout.image.save(image.file.name, image.file, save=False)
    try:
        with transaction.atomic():
            handout.save()
            if show:
                handout_show(campaign=campaign, handout=handout)
    except Exception:
        if handout.image:
            handout.image.storage.delete(handout.image.name)
        raise
    return handout


@transaction.atomic
def handout_show(*, campaign: Campaign, handout: Handout) -> None:
    """Show this handout to the table (instead of the one shown, if any)."""
    if handout.campaign_id != campaign.pk:
        raise ValueError("A campaign shows only its own handouts.")
    Campaign.objects.filter(pk=campaign.pk).update(shown_handout=handout)
    _tell_the_table(campaign)


@transaction.atomic
def handout_take_down(*, campaign: Campaign) -> None:
    """The table no longer sees a handout (it stays among the campaign's documents)."""
    if (
        Campaign.objects.filter(pk=campaign.pk)
        .exclude(shown_handout=None)
        .update(shown_handout=None)
    ):
        _tell_the_table(campaign)


@transaction.atomic
def handout_delete(*, handout: Handout) -> None:
    """Delete a handout, taken down first if shown; its image leaves the storage once the
    deletion is committed."""
    campaign = handout.campaign
    if Campaign.objects.filter(pk=campaign.pk, shown_handout=handout).exists():
        handout_take_down(campaign=campaign)
    name, storage = handout.image.name, handout.image.storage
    handout.delete()
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def _tell_the_table(campaign: Campaign) -> None:
    """Every screen that shows the handout learns of it: the campaign's version moves (the
    table screen, the campaign page), a trigger tells the sheets (the column changed,
    apps/core/migrations/0003), and the fights under way move (their table view shows it),
    as they do when a sheet changes under them."""
    campaign.touch()
    Encounter.objects.filter(campaign=campaign).live().update(version=F("version") + 1)
