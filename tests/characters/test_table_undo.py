"""The GM undoes table actions made outside a fight, from the session log: a point d'éclat,
fatigue spent from a sheet, a rest; and takes back an XP award from the ledger. Nothing
later is ever overwritten: an action whose values changed since is refused, with why."""

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.campaigns import transfer
from apps.campaigns.models import Campaign, LogEntry
from apps.characters import services
from apps.characters.models import AethoriaSheet, EwSheet, XpEntry
from apps.systems.aethoria.sheet_spend import fatigue_spend
from apps.systems.ew.sheet_spend import eclat_spend
from apps.systems.ew.xp import Improvement
from tests.characters.factories import CharacterFactory, XpEntryFactory
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pc(campaign, player):
    return CharacterFactory(campaign=campaign, owner=player, name="Lysandre")


def _action(campaign) -> LogEntry:
    """The latest table action of the log (a line with recorded changes)."""
    return campaign.log_entries.exclude(changes=[]).first()


def _undo(client, entry):
    url = reverse("campaigns:log_undo", args=[entry.campaign_id, entry.pk])
    return client.post(url, once(), **HTMX)


def test_the_gm_gives_back_a_point_d_eclat_from_the_log(client, campaign, pc, gm, player):
    eclat_spend(character=pc, by=player, note="Un coup de chance")
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2
    entry = _action(campaign)
    assert entry.changes == [
        {"model": "characters.ewsheet", "pk": pc.pk, "field": "eclat", "before": 3, "after": 2}
    ]
    client.force_login(gm)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert reverse("campaigns:log_undo", args=[campaign.pk, entry.pk]) in page
    version = Campaign.objects.get(pk=campaign.pk).version

    response = _undo(client, entry)

    assert response.status_code == 200 and response["HX-Trigger"] == "campaign-changed"
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3
    assert LogEntry.objects.get(pk=entry.pk).undone
    newest = campaign.log_entries.first()
    assert (
        newest.text
        == f"Annulé par {gm.display_name} : Lysandre dépense un point d'éclat : Un coup de chance."
    )
    assert newest.changes == []  # the undo itself is not undone from the log
    assert Campaign.objects.get(pk=campaign.pk).version > version
    assert "annulé" in response.text


def test_an_undone_action_is_refused_next_to_its_line_and_changes_nothing(
    client, campaign, pc, gm, player
):
    eclat_spend(character=pc, by=player)
    entry = _action(campaign)
    client.force_login(gm)
    _undo(client, entry)
    lines = campaign.log_entries.count()
    response = _undo(client, entry)
    assert '<p class="field-error" role="alert">Cette action est déjà annulée.</p>' in response.text
    assert "HX-Trigger" not in response
    assert campaign.log_entries.count() == lines
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3


def test_an_action_whose_values_changed_since_waits_for_the_later_one(
    client, campaign, pc, gm, player
):
    eclat_spend(character=pc, by=player, note="premier")
    first = _action(campaign)
    eclat_spend(character=pc, by=player, note="second")
    second = _action(campaign)
    client.force_login(gm)
    response = _undo(client, first)
    assert "La fiche a changé depuis" in response.text
    assert EwSheet.objects.get(pk=pc.pk).eclat == 1
    assert not LogEntry.objects.get(pk=first.pk).undone
    _undo(client, second)
    _undo(client, first)
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3


def test_a_rest_is_undone_back_to_the_wounds(client, campaign, pc, gm):
    EwSheet.objects.filter(pk=pc.pk).update(superficial_left=5, lethal_left=20, eclat=1)
    services.character_rest(character=pc, by=gm)
    rested = EwSheet.objects.get(pk=pc.pk)
    assert (rested.superficial_left, rested.lethal_left, rested.eclat) == (21, 21, 3)  # PHY 7
    client.force_login(gm)
    _undo(client, _action(campaign))
    sheet = EwSheet.objects.get(pk=pc.pk)
    assert (sheet.superficial_left, sheet.lethal_left, sheet.eclat) == (5, 20, 1)


def test_aethoria_fatigue_spent_from_the_sheet_is_given_back(client, aethoria_campaign, player, gm):
    pc = CharacterFactory(campaign=aethoria_campaign, owner=player)
    before = AethoriaSheet.objects.get(pk=pc.pk).fatigue_mental
    fatigue_spend(character=pc, kind="mental", count=2, by=player)
    assert AethoriaSheet.objects.get(pk=pc.pk).fatigue_mental == before - 2
    client.force_login(gm)
    _undo(client, _action(aethoria_campaign))
    assert AethoriaSheet.objects.get(pk=pc.pk).fatigue_mental == before


def test_notes_have_no_undo_and_players_see_no_undo_button(client, campaign, pc, gm, player):
    eclat_spend(character=pc, by=player)
    note = LogEntry.objects.create(campaign=campaign, text="Arrivée au port.", author=gm)
    client.force_login(gm)
    response = _undo(client, note)
    assert "pas une action à annuler" in response.text
    client.force_login(player)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert "/annuler/" not in page
    assert _undo(client, _action(campaign)).status_code == 403
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2


def test_an_undo_without_htmx_goes_back_to_the_campaign_page(client, campaign, pc, gm, player):
    eclat_spend(character=pc, by=player)
    entry = _action(campaign)
    client.force_login(gm)
    url = reverse("campaigns:log_undo", args=[campaign.pk, entry.pk])
    assert client.post(url, once())["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3


# --- XP awards ---------------------------------------------------------------------------------


def _cancel(client, pc, entry):
    return client.post(reverse("characters:xp_undo", args=[pc.pk, entry.pk]), once(), **HTMX)


def test_the_gm_takes_back_an_award_from_the_ledger(client, campaign, pc, gm):
    [award] = services.xp_award(
        campaign=campaign, characters=[pc], amount=5, reason="Mauvais joueur", by=gm
    )
    client.force_login(gm)
    response = _cancel(client, pc, award)
    assert pc.xp_balance() == 0
    cancel = XpEntry.objects.get(cancels=award)
    assert (cancel.kind, cancel.amount) == ("refund", -5)
    assert "Gain de 5 XP de Lysandre annulé : Mauvais joueur" in campaign.log_entries.first().text
    assert "Gain annulé, XP repris." in response.text
    again = _cancel(client, pc, award)
    assert "Ce gain est déjà annulé." in again.text
    assert pc.xp_balance() == 0


def test_an_award_already_spent_cannot_be_taken_back(client, campaign, pc, gm, player):
    [award] = services.xp_award(
        campaign=campaign, characters=[pc], amount=10, reason="Acte I", by=gm
    )
    services.xp_spend(
        character=pc, improvement=Improvement("characteristic", name="men"), by=player
    )
    balance = pc.xp_balance()
    client.force_login(gm)
    response = _cancel(client, pc, award)
    assert "Lysandre a déjà dépensé ces XP : annulez d&#x27;abord ses dépenses." in response.text
    assert pc.xp_balance() == balance
    assert not XpEntry.objects.filter(cancels=award).exists()


def test_a_refund_line_cannot_itself_be_cancelled(client, campaign, pc, gm):
    award = XpEntryFactory(character=pc, amount=3)
    client.force_login(gm)
    _cancel(client, pc, award)
    refund = XpEntry.objects.get(cancels=award)
    assert _cancel(client, pc, refund).status_code == 404


# --- Export and import -------------------------------------------------------------------------


def test_a_table_action_survives_export_and_can_be_undone_in_the_copy(campaign, pc, gm, player):
    eclat_spend(character=pc, by=player)
    document = json.loads(json.dumps(transfer.campaign_export(campaign)))
    [line] = [row for row in document["log"] if row["changes"]]
    assert line["changes"][0]["pk"] == "c1" and line["undone"] is False
    copy = transfer.campaign_import(document=document, by=gm).campaign
    services.table_action_undo(entry=_action(copy), by=gm)
    twin = copy.characters.get(name="Lysandre")
    assert EwSheet.objects.get(pk=twin.pk).eclat == 3
    assert EwSheet.objects.get(pk=pc.pk).eclat == 2  # the original is untouched


def test_a_file_from_before_table_undo_still_imports(campaign, pc, gm):
    LogEntry.objects.create(campaign=campaign, text="Une note.", author=gm)
    document = json.loads(json.dumps(transfer.campaign_export(campaign)))
    for row in document["log"]:
        del row["changes"], row["undone"]
    copy = transfer.campaign_import(document=document, by=gm).campaign
    assert copy.log_entries.get().changes == []


def test_a_crafted_log_change_outside_the_characters_refuses_the_import(campaign, pc, gm, player):
    eclat_spend(character=pc, by=player)
    document = json.loads(json.dumps(transfer.campaign_export(campaign)))
    [line] = [row for row in document["log"] if row["changes"]]
    line["changes"][0]["field"] = "campaign"
    with pytest.raises(transfer.ImportRefused):
        transfer.campaign_import(document=document, by=gm)
    assert Campaign.objects.count() == 1


# --- Its author takes a mis-tap back from the sheet ---------------------------------------------


def _own_undo(client, pc):
    return client.post(reverse("characters:own_undo", args=[pc.pk]), once(), **HTMX)


def test_a_player_takes_back_their_own_mis_tap_from_the_sheet(client, campaign, pc, player):
    client.force_login(player)
    page = client.post(
        reverse("characters:eclat_spend", args=[pc.pk]),
        once({"note": "oups", "confirmed": "1"}),
        **HTMX,
    ).text
    assert "Lysandre dépense un point d&#x27;éclat : oups." in page
    assert reverse("characters:own_undo", args=[pc.pk]) in page
    response = _own_undo(client, pc)
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3
    assert campaign.log_entries.first().text.startswith(f"Annulé par {player.display_name} : ")
    # Taken back once: nothing more to offer.
    assert reverse("characters:own_undo", args=[pc.pk]) not in response.text
    assert "Plus rien à annuler ici" in _own_undo(client, pc).text
    assert EwSheet.objects.get(pk=pc.pk).eclat == 3


def test_only_the_latest_action_and_only_its_author_and_only_for_a_while(
    client, campaign, pc, gm, player
):
    eclat_spend(character=pc, by=player)
    own = reverse("characters:own_undo", args=[pc.pk])
    client.force_login(gm)
    assert own not in client.get(reverse("characters:detail", args=[pc.pk])).text
    services.character_rest(character=pc, by=gm)  # now the GM's rest is the latest
    client.force_login(player)
    assert own not in client.get(reverse("characters:detail", args=[pc.pk])).text
    assert "Plus rien à annuler ici" in _own_undo(client, pc).text
    assert not campaign.log_entries.filter(undone=True).exists()  # neither spend nor rest
    client.force_login(gm)
    assert own in client.get(reverse("characters:detail", args=[pc.pk])).text  # the GM's rest
    LogEntry.objects.filter(campaign=campaign).update(
        created_at=timezone.now() - services.OWN_UNDO_WINDOW - datetime.timedelta(seconds=1)
    )
    assert own not in client.get(reverse("characters:detail", args=[pc.pk])).text


def test_no_undo_is_offered_for_a_character_deleted_since(client, campaign, pc, gm, player):
    eclat_spend(character=pc, by=player)
    entry = _action(campaign)
    undo_url = reverse("campaigns:log_undo", args=[campaign.pk, entry.pk])
    client.force_login(gm)
    assert undo_url in client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    pc.delete()
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    # The line stays in the log, without an "Annuler" that could only be refused.
    assert "Lysandre dépense un point" in page and undo_url not in page
