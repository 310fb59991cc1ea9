"""Handouts (issue 32, point 4): the GM shows the table an image or a short text; it reaches
the screen and every phone (the campaign page, the sheets, the table view of the fight under
way), and goes when taken down. A file is checked by its content; a refused one is said in
French next to its field, and nothing is kept."""

import html
import io
import os

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from PIL import Image, PngImagePlugin

from apps.campaigns.models import Campaign, Handout
from apps.characters.live import sheet_fingerprint
from apps.encounters.models import Encounter
from apps.screens.images import MAX_BYTES
from tests.accounts.factories import UserFactory
from tests.encounters.factories import campaign_with_gm
from tests.screens.factories import image_bytes, make_handout, upload

pytestmark = pytest.mark.django_db


def _stored(campaign: Campaign) -> list[str]:
    """The files kept in the storage for this campaign's handouts."""
    folder = os.path.join(settings.MEDIA_ROOT, "handouts", str(campaign.pk))
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def _post(client, campaign, **fields):
    return client.post(reverse("screens:handout_create", args=[campaign.pk]), fields)


@pytest.fixture
def gm_client(table) -> Client:
    client = Client()
    client.force_login(table.gm)
    return client


@pytest.mark.parametrize(
    ("kind", "content_type", "extension"),
    [("PNG", "image/png", "png"), ("JPEG", "image/jpeg", "jpg"), ("WEBP", "image/webp", "webp")],
)
def test_the_gm_shows_an_image_to_the_table(gm_client, table, kind, content_type, extension):
    # Its name says PDF: the content decides.
    image = upload(image_bytes(kind, (320, 200)), "carte.pdf", "application/pdf")
    response = _post(gm_client, table.campaign, title="Carte", image=image, show="on")
    assert response.status_code == 302
    handout = Handout.objects.get(campaign=table.campaign)
    assert (handout.image_type, handout.width, handout.height) == (content_type, 320, 200)
    assert handout.image.name.endswith(f".{extension}") and "carte" not in handout.image.name
    assert _stored(table.campaign) == [os.path.basename(handout.image.name)]
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout == handout
    url = reverse("campaigns:handout_image", args=[table.campaign.pk, handout.pk])
    served = gm_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert served["Content-Type"] == content_type
    assert not served.has_header("Content-Encoding")  # compressed already: sent as it is
    assert "no-store" in served["Cache-Control"]
    assert b"".join(served.streaming_content) == image_bytes(kind, (320, 200))


def _photo_with_gps(kind: str) -> bytes:
    """A phone photo: where it was taken in its EXIF (GPS), and turned by its orientation tag
    (6: the camera was held upright; the picture is stored lying, 320 × 200)."""
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    exif[0x010F] = "PhoneMaker"  # Make
    exif.get_ifd(0x8825)[2] = (43.0, 17.0, 47.0)  # GPSLatitude: the Vieux-Port
    picture = Image.open(io.BytesIO(image_bytes(kind, (320, 200))))
    data = io.BytesIO()
    picture.save(data, kind, exif=exif)
    return data.getvalue()


@pytest.mark.parametrize("kind", ["JPEG", "WEBP", "PNG"])
def test_a_photo_is_kept_without_what_its_camera_wrote_turned_upright(gm_client, table, kind):
    """Players may see a handout; where the GM's phone took it is not theirs to see."""
    photo = _photo_with_gps(kind)
    assert b"PhoneMaker" in photo
    _post(gm_client, table.campaign, image=upload(photo, "photo.jpg", "image/jpeg"))
    handout = Handout.objects.get(campaign=table.campaign)
    with handout.image.open("rb") as stored:
        kept = stored.read()
    assert b"PhoneMaker" not in kept
    image = Image.open(io.BytesIO(kept))
    assert "exif" not in image.info and not image.getexif()
    assert image.size == (200, 320) == (handout.width, handout.height)


def test_a_png_loses_its_text_chunks(gm_client, table):
    picture = Image.open(io.BytesIO(image_bytes("PNG")))
    data, chunks = io.BytesIO(), PngImagePlugin.PngInfo()
    chunks.add_text("Author", "Le MJ, 12 rue des Docks")
    picture.save(data, "PNG", pnginfo=chunks)
    _post(gm_client, table.campaign, image=upload(data.getvalue()))
    handout = Handout.objects.get(campaign=table.campaign)
    with handout.image.open("rb") as stored:
        assert b"rue des Docks" not in stored.read()


def test_a_short_text_alone_is_a_handout(gm_client, table):
    response = _post(gm_client, table.campaign, text="« Rendez-vous au phare à minuit. »")
    assert response.status_code == 302
    handout = Handout.objects.get(campaign=table.campaign)
    assert handout.image == "" and table.campaign.shown_handout is None  # not asked to show


def _truncated_jpeg() -> bytes:
    data = image_bytes("JPEG", (400, 300))
    return data[: len(data) // 2]


def _huge_png() -> bytes:
    """A light file of far too many pixels (a "decompression bomb")."""
    data = io.BytesIO()
    Image.new("1", (10_000, 8_000)).save(data, "PNG")
    return data.getvalue()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (
            {"image": lambda: upload(image_bytes("GIF"), "anim.gif", "image/gif")},
            "image",
            "Ce fichier n'est pas une image PNG, JPEG ou WebP lisible.",
        ),
        (
            {"image": lambda: upload(b"#!/bin/sh\necho hello\n", "plan.png")},
            "image",
            "Ce fichier n'est pas une image PNG, JPEG ou WebP lisible.",
        ),
        (
            {"image": lambda: upload(_truncated_jpeg(), "plan.jpg", "image/jpeg")},
            "image",
            "Ce fichier n'est pas une image PNG, JPEG ou WebP lisible.",
        ),
        (
            {"image": lambda: upload(image_bytes() + b"\0" * MAX_BYTES, "lourd.png")},
            "image",
            "pèse 5,0 Mo : une image de 5 Mo au plus",
        ),
        (
            {"image": lambda: upload(_huge_png(), "bombe.png")},
            "image",
            "fait 10000 × 8000 pixels : 50 millions de pixels au plus.",
        ),
        (
            {"text": lambda: "x" * 2001},
            "text",
            "Assurez-vous que cette valeur comporte au plus 2000 caractères",
        ),
        ({"title": lambda: "Sans rien"}, None, "Donnez une image, un texte, ou les deux"),
    ],
    ids=["gif", "not-an-image", "truncated", "too-heavy", "too-many-pixels", "long-text", "empty"],
)
def test_a_bad_handout_is_refused_in_french_next_to_its_field_and_nothing_is_kept(
    gm_client, table, fields, field, message
):
    response = _post(gm_client, table.campaign, show="on", **{k: v() for k, v in fields.items()})
    assert response.status_code == 200
    form = response.context["handout_form"]
    errors = form.errors.get(field or "__all__", [])
    assert any(message in error for error in errors), form.errors
    assert message.split(" :")[0] in html.unescape(response.text)
    assert not Handout.objects.filter(campaign=table.campaign).exists()
    assert _stored(table.campaign) == []
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout is None


def test_players_and_outsiders_cannot_add_show_or_delete_handouts(table):
    handout = make_handout(table.campaign)
    for user, status in ((table.player, 403), (UserFactory(), 404)):
        client = Client()
        client.force_login(user)
        image = upload(image_bytes())
        assert _post(client, table.campaign, image=image).status_code == status
        for name in ("screens:handout_show", "screens:handout_delete"):
            url = reverse(name, args=[table.campaign.pk, handout.pk])
            assert client.post(url).status_code == status
        take_down = reverse("screens:handout_take_down", args=[table.campaign.pk])
        assert client.post(take_down).status_code == status
    assert list(Handout.objects.filter(campaign=table.campaign)) == [handout]
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout is None


def test_a_handout_of_another_campaign_cannot_be_shown(gm_client, table):
    other = make_handout(table.outsider_campaign)
    url = reverse("screens:handout_show", args=[table.campaign.pk, other.pk])
    assert gm_client.post(url).status_code == 404
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout is None


def test_showing_a_handout_reaches_every_screen_of_the_table(gm_client, table):
    handout = make_handout(table.campaign, title="Plan des docks")
    pc = table.encounter.combatants.get(character__name="Brandon").character
    fingerprint = sheet_fingerprint(pc.pk, table.player.pk)
    campaign_version = table.campaign.version
    fight_version = Encounter.objects.get(pk=table.encounter.pk).version
    gm_client.post(reverse("screens:handout_show", args=[table.campaign.pk, handout.pk]))

    table.campaign.refresh_from_db()
    assert table.campaign.version > campaign_version  # the screen, the campaign page
    assert Encounter.objects.get(pk=table.encounter.pk).version > fight_version  # table view
    assert sheet_fingerprint(pc.pk, table.player.pk) != fingerprint  # the sheets
    player = Client()
    player.force_login(table.player)
    for url in (
        reverse("campaigns:detail", args=[table.campaign.pk]),
        reverse("characters:detail", args=[pc.pk]),
        reverse("encounters:table", args=[table.encounter.pk]),
        reverse("encounters:table", args=[table.encounter.pk]) + "?shown=0",
        reverse("screens:screen", args=[table.campaign.pk]),
    ):
        headers = {"HTTP_HX_REQUEST": "true"} if "shown" in url else {}
        page = player.get(url, **headers).text
        assert f'id="handout-{handout.pk}"' in page and "Plan des docks" in page, url

    gm_client.post(reverse("screens:handout_take_down", args=[table.campaign.pk]))
    detail = player.get(reverse("campaigns:detail", args=[table.campaign.pk])).text
    assert "Plan des docks" not in detail
    assert sheet_fingerprint(pc.pk, table.player.pk) == fingerprint
    image = reverse("campaigns:handout_image", args=[table.campaign.pk, handout.pk])
    assert player.get(image).status_code == 404  # no longer on show
    assert gm_client.get(image).status_code == 200  # the GM keeps it


def test_showing_another_handout_replaces_the_first(gm_client, table):
    first = make_handout(table.campaign, title="Premier", shown=True)
    second = make_handout(table.campaign, title="Second")
    gm_client.post(reverse("screens:handout_show", args=[table.campaign.pk, second.pk]))
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout == second
    page = Client().get(reverse("screens:link", args=[table.token])).text
    assert "Second" in page and f"handout-{first.pk}" not in page


def test_deleting_a_handout_takes_it_down_and_deletes_its_image(
    gm_client, table, django_capture_on_commit_callbacks
):
    handout = make_handout(table.campaign, shown=True)
    assert len(_stored(table.campaign)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        response = gm_client.post(
            reverse("screens:handout_delete", args=[table.campaign.pk, handout.pk])
        )
    assert response.status_code == 302
    table.campaign.refresh_from_db()
    assert table.campaign.shown_handout is None
    assert not Handout.objects.filter(pk=handout.pk).exists()
    assert _stored(table.campaign) == []


def test_an_image_lost_by_the_storage_answers_404_not_500(gm_client, table):
    handout = make_handout(table.campaign, shown=True)
    handout.image.storage.delete(handout.image.name)
    url = reverse("campaigns:handout_image", args=[table.campaign.pk, handout.pk])
    assert gm_client.get(url).status_code == 404


def test_the_gms_page_lists_the_handouts_and_the_links(gm_client, table):
    make_handout(table.campaign, title="Plan des docks", shown=True)
    make_handout(table.campaign, title="Lettre", kind=None, text="Rendez-vous au phare.")
    page = gm_client.get(reverse("screens:manage", args=[table.campaign.pk])).text
    assert "Plan des docks" in page and "montré à la table" in page
    assert "Lettre" in page and "Télé du salon" in page


def test_the_console_opens_the_page_where_the_gm_shows_a_handout(gm_client, table):
    """Mid-fight, the handouts are one tap away (in another tab: the console stays)."""
    console = gm_client.get(reverse("encounters:console", args=[table.encounter.pk])).text
    manage = reverse("screens:manage", args=[table.campaign.pk])
    assert f'href="{manage}" target="_blank"' in console


@pytest.mark.parametrize("way", ["one", "several"])
def test_a_campaign_deleted_in_the_admin_takes_its_handouts_images_with_it(
    admin_client, django_capture_on_commit_callbacks, way
):
    campaign = campaign_with_gm("ew")
    make_handout(campaign, shown=True)
    make_handout(campaign)
    assert len(_stored(campaign)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        if way == "one":
            url = reverse("admin:campaigns_campaign_delete", args=[campaign.pk])
            response = admin_client.post(url, {"post": "yes"})
        else:
            url = reverse("admin:campaigns_campaign_changelist")
            chosen = {"action": "delete_selected", "_selected_action": [campaign.pk]}
            response = admin_client.post(url, {**chosen, "post": "yes"})
    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Handout.objects.filter(campaign_id=campaign.pk).exists()
    assert _stored(campaign) == []
