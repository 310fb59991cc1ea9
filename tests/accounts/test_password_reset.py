"""Forgotten passwords: the emailed link, and the GM's one-time link (issue 13)."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import ResetLink
from apps.campaigns.models import LogEntry
from tests.accounts.factories import PASSWORD, UserFactory
from tests.campaigns.factories import MembershipFactory

pytestmark = pytest.mark.django_db

NEW = {"new_password1": "nouvelle-phrase-2026", "new_password2": "nouvelle-phrase-2026"}


def test_the_login_page_links_the_forgotten_password(client):
    assert reverse("accounts:password_reset") in client.get(reverse("accounts:login")).text


def emailed_link(client, email):
    response = client.post(reverse("accounts:password_reset"), {"email": email})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    return re.search(r"https?://[^/]+(/\S+)", mail.outbox[0].body).group(1)


def test_the_emailed_link_sets_a_new_password_once(client):
    user = UserFactory(email="alice@example.org", first_name="Alice")
    link = emailed_link(client, "alice@example.org")
    assert "Bonjour Alice" in mail.outbox[0].body
    assert mail.outbox[0].subject == "Tablée : choisir un nouveau mot de passe"
    form_page = client.get(link, follow=True)
    assert "new_password1" in form_page.text
    done = client.post(form_page.redirect_chain[-1][0], NEW)
    assert done["Location"] == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW["new_password1"])
    # The same link a second time: a clear refusal.
    again = client.get(link, follow=True)
    assert "Ce lien ne fonctionne plus" in again.text


def test_an_unknown_email_answers_the_same_and_sends_nothing(client):
    response = client.post(reverse("accounts:password_reset"), {"email": "qui@example.org"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_a_bad_token_gets_a_clear_message(client, user):
    url = reverse("accounts:password_reset_confirm", args=["MQ", "pas-un-jeton"])
    response = client.get(url)
    assert response.status_code == 200
    assert "Ce lien ne fonctionne plus" in response.text


def test_the_console_backend_is_used_with_debug_and_no_mail_settings(monkeypatch):
    from config.settings import email_settings

    for name in ("EMAIL_URL", "EMAIL_HOST"):
        monkeypatch.delenv(name, raising=False)
    assert email_settings(True)["EMAIL_BACKEND"].endswith("console.EmailBackend")
    assert email_settings(False)["EMAIL_BACKEND"].endswith("smtp.EmailBackend")


def test_email_url_sets_the_smtp_server(monkeypatch):
    from config.settings import email_settings

    monkeypatch.setenv("EMAIL_URL", "smtp+tls://tablee%40example.org:s%3Acret@mail.example.org")
    found = email_settings(False)
    assert found["EMAIL_HOST"] == "mail.example.org"
    assert found["EMAIL_PORT"] == 587
    assert found["EMAIL_USE_TLS"] and not found["EMAIL_USE_SSL"]
    assert (found["EMAIL_HOST_USER"], found["EMAIL_HOST_PASSWORD"]) == (
        "tablee@example.org",
        "s:cret",
    )


def test_a_malformed_email_url_stops_the_start(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.settings import email_settings

    monkeypatch.setenv("EMAIL_URL", "http://mail.example.org")
    with pytest.raises(ImproperlyConfigured):
        email_settings(False)


# --- The GM's one-time link ------------------------------------------------------------------


def make_link(client, campaign, membership):
    return client.post(reverse("campaigns:member_reset_link", args=[campaign.pk, membership.pk]))


@pytest.fixture
def alice_membership(campaign, player):
    return campaign.memberships.get(user=player)


def gm_link(client, campaign, gm, membership) -> str:
    client.force_login(gm)
    response = make_link(client, campaign, membership)
    assert response.status_code == 200
    client.logout()
    return re.search(r'value="https?://[^/]+(/compte/lien/[^"]+)"', response.text).group(1)


def test_the_gm_makes_a_link_shown_once_and_logged(client, campaign, gm, player, alice_membership):
    client.force_login(gm)
    detail = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert "Lien de mot de passe" in detail.text
    response = make_link(client, campaign, alice_membership)
    assert response.status_code == 200
    assert "pendant 24 heures, une seule fois" in response.text
    assert "no-store" in response["Cache-Control"]
    link = ResetLink.objects.get()
    assert (link.user, link.made_by, link.used_at) == (player, gm, None)
    # Only the digest is stored: the page's token is not in the database.
    token = re.search(r"/compte/lien/([^/]+)/", response.text).group(1)
    assert token not in link.token_digest
    entry = LogEntry.objects.get(campaign=campaign)
    assert entry.text == "Morgane a créé un lien de nouveau mot de passe pour Alice."


def test_the_link_sets_the_password_once(client, campaign, gm, player, alice_membership):
    url = gm_link(client, campaign, gm, alice_membership)
    player_phone = client.__class__()
    player_phone.force_login(player)
    page = client.get(url)
    assert player.username in page.text
    response = client.post(url, NEW)
    assert response["Location"] == reverse("accounts:login")
    player.refresh_from_db()
    assert player.check_password(NEW["new_password1"])
    assert ResetLink.objects.get().used_at is not None
    # The sessions opened with the old password end.
    assert player_phone.get("/").status_code == 302
    # Once only.
    again = client.post(url, {"new_password1": "x-2026-encore", "new_password2": "x-2026-encore"})
    assert "Ce lien ne fonctionne plus" in again.text
    player.refresh_from_db()
    assert player.check_password(NEW["new_password1"])


def test_the_link_expires_after_24_hours(client, campaign, gm, player, alice_membership):
    url = gm_link(client, campaign, gm, alice_membership)
    ResetLink.objects.update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    assert "Ce lien ne fonctionne plus" in client.get(url).text
    client.post(url, NEW)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_a_new_link_replaces_the_older_one(client, campaign, gm, player, alice_membership):
    first = gm_link(client, campaign, gm, alice_membership)
    second = gm_link(client, campaign, gm, alice_membership)
    assert "Ce lien ne fonctionne plus" in client.get(first).text
    assert "new_password1" in client.get(second).text


def test_a_weak_password_through_the_link_is_refused(client, campaign, gm, alice_membership):
    url = gm_link(client, campaign, gm, alice_membership)
    response = client.post(url, {"new_password1": "court", "new_password2": "court"})
    assert response.status_code == 200
    assert "Ce mot de passe est trop court." in response.text
    assert ResetLink.objects.get().used_at is None


def test_a_made_up_token_gets_the_clear_page(client):
    response = client.get(reverse("accounts:reset_link", args=["invente"]))
    assert "Ce lien ne fonctionne plus" in response.text


def test_a_player_cannot_make_a_link(client, campaign, other_player, alice_membership):
    client.force_login(other_player)
    assert make_link(client, campaign, alice_membership).status_code == 403
    assert not ResetLink.objects.exists()


def test_another_campaigns_gm_cannot_make_a_link(client, campaign, alice_membership):
    from apps.campaigns.services import campaign_create

    stranger = UserFactory()
    campaign_create(name="Ailleurs", system="ew", gm=stranger)
    client.force_login(stranger)
    assert make_link(client, campaign, alice_membership).status_code == 404
    assert not ResetLink.objects.exists()


def test_a_gm_cannot_make_a_link_for_someone_outside_her_campaign(client, campaign, gm):
    elsewhere = MembershipFactory()  # a player of another campaign
    client.force_login(gm)
    assert make_link(client, campaign, elsewhere).status_code == 404
    assert not ResetLink.objects.exists()


def test_a_gm_cannot_take_over_a_staff_account(client, campaign, gm, staff):
    membership = MembershipFactory(campaign=campaign, user=staff)
    client.force_login(gm)
    response = make_link(client, campaign, membership)
    assert response.status_code == 302
    assert not ResetLink.objects.exists()
    page = client.get(response["Location"])
    assert "Le mot de passe d'un administrateur ne se change que par lui." in unescape(page.text)


def test_staff_make_a_link_from_the_admin(client, staff, player):
    client.force_login(staff)
    response = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "make_reset_link", "_selected_action": [player.pk]},
        follow=True,
    )
    assert "/compte/lien/" in response.text
    assert ResetLink.objects.get().made_by == staff


def test_reset_mails_are_limited_per_email_without_telling_whether_it_exists(client, settings):
    settings.RESET_MAIL_LIMIT_PER_EMAIL = 2
    UserFactory(email="alice@example.org")
    url = reverse("accounts:password_reset")
    for _ in range(2):
        assert client.post(url, {"email": "Alice@example.org"}).status_code == 302
    assert len(mail.outbox) == 2
    refused = client.post(url, {"email": "alice@example.org"})
    assert refused.status_code == 200
    assert "Trop de demandes de lien en peu de temps" in refused.text
    assert len(mail.outbox) == 2
    # An email no account has is counted and refused the same way.
    for _ in range(2):
        client.post(url, {"email": "qui@example.org"})
    assert "Trop de demandes" in client.post(url, {"email": "qui@example.org"}).text


def test_reset_mails_are_limited_per_address(client, settings):
    settings.RESET_MAIL_LIMIT_PER_HOUR = 3
    url = reverse("accounts:password_reset")
    for number in range(3):
        assert client.post(url, {"email": f"x{number}@example.org"}).status_code == 302
    assert "Trop de demandes" in client.post(url, {"email": "y@example.org"}).text
