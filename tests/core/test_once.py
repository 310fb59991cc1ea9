"""At most once per submission (apps/core/once.py, issue 27 point 1): a form that acts at most
once carries a one-time key; the same form sent twice acts once, a form without a readable
key is refused in words and changes nothing, an action that fails leaves its key for
"réessayer"."""

from datetime import timedelta

import pytest
from django.core import signing
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from apps.campaigns.models import Campaign, LogEntry
from apps.characters.models import Character, EwSheet
from apps.core import once as once_module
from apps.core.models import Submission
from apps.systems.ew import sheet_spend
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client):
    campaign = campaign_with_gm("ew")
    player = add_player(campaign)
    pc = ew_fighter(campaign, "Lysandre", owner=player)
    client.force_login(player)
    return {"campaign": campaign, "player": player, "pc": pc, "client": client}


def spend(table, data, **extra):
    url = reverse("characters:eclat_spend", args=[table["pc"].pk])
    return table["client"].post(url, {"note": "la porte", "confirmed": "1", **data}, **extra)


def eclat(table) -> int:
    return EwSheet.objects.get(pk=table["pc"].pk).eclat


def text(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def test_the_sheets_spend_forms_carry_a_key(table):
    page = table["client"].get(reverse("characters:detail", args=[table["pc"].pk])).text
    assert 'name="once"' in page


def test_the_same_spend_sent_twice_spends_once_and_says_so(table):
    data = once()
    assert spend(table, data, **HTMX).status_code == 200
    replay = spend(table, data, **HTMX)
    assert replay.status_code == 409
    assert "Déjà pris en compte" in text(replay)
    assert eclat(table) == 2
    # Without htmx: back to the sheet, the message on it.
    plain = spend(table, data)
    assert plain["Location"] == reverse("characters:detail", args=[table["pc"].pk])
    assert eclat(table) == 2


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(None, id="missing"),
        pytest.param("", id="empty"),
        pytest.param("abc", id="words"),
        pytest.param("0" * 32 + ":1xZ3JR:forged-signature", id="forged"),
    ],
)
def test_a_spend_without_a_readable_key_is_refused_in_words(table, key):
    data = {} if key is None else {"once": key}
    response = spend(table, data, **HTMX)
    assert response.status_code == 200
    assert "ne porte pas sa clé d'envoi" in text(response)
    assert eclat(table) == 3
    assert not Submission.objects.exists()


def test_a_form_older_than_two_days_is_refused(table, monkeypatch):
    long_ago = signing.TimestampSigner().timestamp()  # now, in the signer's base62
    monkeypatch.setattr(
        signing.TimestampSigner,
        "timestamp",
        lambda self: signing.b62_encode(int(signing.b62_decode(long_ago)) - 3 * 24 * 3600),
    )
    old = once()
    monkeypatch.undo()
    response = spend(table, old, **HTMX)
    assert "plus de deux jours" in text(response)
    assert eclat(table) == 3


def test_an_action_that_fails_leaves_its_key_for_a_retry(table, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the server fell over")

    data = once()
    monkeypatch.setattr(sheet_spend, "eclat_spend", broken)
    with pytest.raises(RuntimeError):
        spend(table, data, **HTMX)
    monkeypatch.undo()
    assert eclat(table) == 3 and not Submission.objects.exists()
    assert spend(table, data, **HTMX).status_code == 200  # "Réessayer": the same form
    assert eclat(table) == 2


def test_keys_too_old_to_be_accepted_are_forgotten(table):
    Submission.objects.create(key="a" * 32, used_at=timezone.now() - timedelta(days=3))
    Submission.objects.create(key="b" * 32, used_at=timezone.now() - timedelta(hours=1))
    spend(table, once(), **HTMX)
    keys = set(Submission.objects.values_list("key", flat=True))
    assert "a" * 32 not in keys and "b" * 32 in keys and len(keys) == 2


@pytest.mark.django_db(transaction=True)
def test_claiming_a_key_outside_the_actions_transaction_is_a_mistake(rf):
    assert not connection.in_atomic_block
    with pytest.raises(RuntimeError):
        once_module.claim_submission(rf.post("/", once()))


def test_a_campaign_created_twice_by_the_same_form_is_created_once(client, user):
    client.force_login(user)
    data = once(name="Les Ombres", system="ew")
    first = client.post(reverse("campaigns:create"), data)
    again = client.post(reverse("campaigns:create"), data)
    assert Campaign.objects.count() == 1
    assert again["Location"] == reverse("home")
    assert first["Location"] != again["Location"]
    assert "Déjà pris en compte" in text(client.get(again["Location"]))


def test_a_deletion_sent_twice_lands_on_the_home_page_not_a_404(client, table):
    campaign = table["campaign"]
    gm = campaign.memberships.get(role="gm").user
    npc = ew_fighter(campaign, "Sbire")
    client.force_login(gm)
    data = once()
    url = reverse("characters:delete", args=[npc.pk])
    assert client.post(url, data)["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    again = client.post(url, data)
    assert again["Location"] == reverse("home")
    assert not Character.objects.filter(pk=npc.pk).exists()


def test_a_log_line_sent_twice_is_written_once(client, table):
    campaign = table["campaign"]
    client.force_login(campaign.memberships.get(role="gm").user)
    url = reverse("campaigns:log_add", args=[campaign.pk])
    data = once(text="Arrivée au port.")
    client.post(url, data, **HTMX)
    replay = client.post(url, data, **HTMX)
    assert replay.status_code == 409 and "Déjà pris en compte" in text(replay)
    assert '<section id="log"' in replay.text
    assert LogEntry.objects.filter(text="Arrivée au port.").count() == 1


def test_an_outsider_replaying_a_key_still_gets_404(client, table, outsider):
    data = once()
    spend(table, data, **HTMX)
    client.force_login(outsider)
    assert spend({**table, "client": client}, data, **HTMX).status_code == 404
