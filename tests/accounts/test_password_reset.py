"""Forgotten passwords: the emailed link, and the GM's one-time link (issue 13)."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import ResetLink
from apps.campaigns.models import LogEntry
from tests.accounts.factories import PASSWORD, UserFactory
from tests.campaigns.factories import MembershipFactory
from tests.submissions import once

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


# --- Without an email: a request, and the GM's one-time link (issue 28, point 1) --------------


def make_link(client, campaign, membership):
    return client.post(
        reverse("campaigns:member_reset_link", args=[campaign.pk, membership.pk]), once()
    )


@pytest.fixture
def alice_membership(campaign, player):
    return campaign.memberships.get(user=player)


def ask(browser, username: str):
    """ "Forgotten password" without an email, from the login page of ``browser``."""
    response = browser.post(reverse("accounts:reset_ask"), {"username": username})
    assert response["Location"] == reverse("accounts:reset_ask_done")
    return response


def gm_link(campaign, gm, membership) -> str:
    gm_browser = Client()
    gm_browser.force_login(gm)
    response = make_link(gm_browser, campaign, membership)
    assert response.status_code == 200
    return re.search(r'value="https?://[^/]+(/compte/lien/[^"]+)"', response.text).group(1)


@pytest.fixture
def asked(client, campaign, gm, player, alice_membership):
    """Alice asked from her phone (``client``); the link the GM then hands over."""
    ask(client, player.username)
    return gm_link(campaign, gm, alice_membership)


def test_the_forgotten_password_page_offers_asking_the_gm(client):
    page = client.get(reverse("accounts:password_reset"))
    assert reverse("accounts:reset_ask") in page.text
    assert "Demander un lien à mon MJ" in page.text


def test_a_request_shows_on_the_gms_campaign_page(client, campaign, gm, player):
    version = campaign.version
    response = ask(client, player.username.upper())  # a username in any case
    cookie = response.cookies["tablee_reset"]
    assert cookie.value and cookie["httponly"] and cookie["path"] == "/compte/lien/"
    request = ResetLink.objects.get()
    assert (request.user, request.made_at, request.token_digest) == (player, None, "")
    campaign.refresh_from_db()
    assert campaign.version > version  # the GM's open page refreshes itself
    gm_browser = Client()
    gm_browser.force_login(gm)
    page = gm_browser.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert "Alice" in page.text and "a demandé un nouveau mot de passe" in page.text
    assert "Donner un lien" in page.text
    done = client.get(reverse("accounts:reset_ask_done"))
    assert "ne fonctionne que sur cet appareil, dans ce navigateur" in unescape(done.text)


def test_the_gm_cannot_make_a_link_unasked(client, campaign, gm, alice_membership):
    client.force_login(gm)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert "Donner un lien" not in page.text
    response = make_link(client, campaign, alice_membership)
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    told = unescape(client.get(response["Location"]).text)
    assert "Alice n'a pas demandé de nouveau mot de passe" in told
    assert not ResetLink.objects.exists()
    assert not LogEntry.objects.filter(campaign=campaign).exists()


def test_the_gm_hands_over_the_link_shown_once_and_logged(
    client, campaign, gm, player, alice_membership
):
    ask(client, player.username)
    gm_browser = Client()
    gm_browser.force_login(gm)
    response = make_link(gm_browser, campaign, alice_membership)
    assert response.status_code == 200
    assert "pendant une heure, une seule fois" in unescape(response.text)
    assert "no-store" in response["Cache-Control"]
    link = ResetLink.objects.get()
    assert (link.user, link.made_by, link.used_at) == (player, gm, None)
    # Only the digest is stored: the page's token is not in the database.
    token = re.search(r"/compte/lien/([^/]+)/", response.text).group(1)
    assert token not in link.token_digest
    entry = LogEntry.objects.get(campaign=campaign)
    assert entry.text == "Morgane a donné un lien de nouveau mot de passe à Alice, à sa demande."


def test_the_link_opens_only_in_the_browser_that_asked(client, campaign, gm, asked):
    gms_browser, anyone = Client(), Client()
    gms_browser.force_login(gm)
    for elsewhere in (gms_browser, anyone):
        refused = elsewhere.get(asked)
        assert "Ce lien ne fonctionne pas ici" in unescape(refused.text)
        elsewhere.post(asked, NEW)
    assert ResetLink.objects.get().used_at is None
    assert "new_password1" in client.get(asked).text  # Alice's phone


def test_the_link_sets_the_password_once_and_ends_the_other_sessions(client, player, asked):
    other_phone = Client()
    other_phone.force_login(player)
    page = client.get(asked)
    assert player.username in page.text
    response = client.post(asked, NEW)
    assert response["Location"] == reverse("accounts:login")
    assert response.cookies["tablee_reset"].value == ""  # the browser forgets its request
    player.refresh_from_db()
    assert player.check_password(NEW["new_password1"])
    assert ResetLink.objects.get().used_at is not None
    assert other_phone.get("/").status_code == 302
    again = client.post(asked, {"new_password1": "x-2026-encore", "new_password2": "x-2026-encore"})
    assert "Ce lien ne fonctionne pas ici" in unescape(again.text)
    player.refresh_from_db()
    assert player.check_password(NEW["new_password1"])


def test_the_player_is_told_at_the_next_log_in(client, player, asked):
    client.post(asked, NEW)
    login = {"username": player.username, "password": NEW["new_password1"]}
    page = client.post(reverse("accounts:login"), login, follow=True)
    assert "Votre mot de passe a été changé le" in unescape(page.text)
    client.logout()
    again = client.post(reverse("accounts:login"), login, follow=True)
    assert "Votre mot de passe a été changé" not in unescape(again.text)


def test_the_link_works_one_hour(client, player, asked):
    ResetLink.objects.update(made_at=timezone.now() - timedelta(minutes=61))
    assert "Ce lien ne fonctionne pas ici" in unescape(client.get(asked).text)
    client.post(asked, NEW)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_a_request_waits_a_day(client, campaign, gm, player, alice_membership):
    ask(client, player.username)
    ResetLink.objects.update(requested_at=timezone.now() - timedelta(hours=24, minutes=1))
    gm_browser = Client()
    gm_browser.force_login(gm)
    assert make_link(gm_browser, campaign, alice_membership).status_code == 302
    assert ResetLink.objects.get().token_digest == ""


def test_a_new_request_replaces_the_older_one_and_its_link(
    client, campaign, gm, player, alice_membership, asked
):
    ask(client, player.username)
    assert "Ce lien ne fonctionne pas ici" in unescape(client.get(asked).text)
    second = gm_link(campaign, gm, alice_membership)
    assert "new_password1" in client.get(second).text


def test_a_weak_password_through_the_link_is_refused(client, asked):
    response = client.post(asked, {"new_password1": "court", "new_password2": "court"})
    assert response.status_code == 200
    assert "Ce mot de passe est trop court." in response.text
    assert ResetLink.objects.get().used_at is None


def test_a_made_up_token_gets_the_clear_page(client):
    response = client.get(reverse("accounts:reset_link", args=["invente"]))
    assert "Ce lien ne fonctionne pas ici" in unescape(response.text)


def test_asking_answers_the_same_whoever_the_username(client, campaign, staff, player):
    """An unknown username, a staff account, an account with an email: the same page and a
    cookie each time; a mail for the account with an email (reset by email alone), and a
    request only for the player without one."""
    with_email = UserFactory(email="chloe@example.org", first_name="Chloé")
    MembershipFactory(campaign=campaign, user=with_email)
    answers = [ask(Client(), name) for name in ("personne", staff.username, with_email.username)]
    assert all(a.cookies["tablee_reset"].value for a in answers)
    assert not ResetLink.objects.exists()
    assert [m.to for m in mail.outbox] == [["chloe@example.org"]]
    assert "Bonjour Chloé" in mail.outbox[0].body


def test_a_player_with_an_email_resets_by_email_alone(client, campaign, gm):
    membership = MembershipFactory(campaign=campaign, user=UserFactory(email="c@example.org"))
    # Even with a request made while she had none, once she has one no GM link is made.
    ResetLink.objects.create(user=membership.user, browser_digest="x" * 64)
    client.force_login(gm)
    assert make_link(client, campaign, membership).status_code == 302
    assert ResetLink.objects.get().token_digest == ""


def test_asking_is_limited_like_the_mails(client, settings, player):
    settings.RESET_MAIL_LIMIT_PER_EMAIL = 2
    for _ in range(2):
        ask(client, player.username)
    refused = client.post(reverse("accounts:reset_ask"), {"username": player.username})
    assert refused.status_code == 200
    assert "Trop de demandes de lien en peu de temps" in unescape(refused.text)
    # An unknown username is counted and refused alike.
    for _ in range(2):
        ask(client, "personne")
    refused = client.post(reverse("accounts:reset_ask"), {"username": "personne"})
    assert "Trop de demandes" in refused.text


def test_a_player_cannot_make_a_link(client, campaign, other_player, player, alice_membership):
    ask(Client(), player.username)
    client.force_login(other_player)
    assert make_link(client, campaign, alice_membership).status_code == 403
    assert ResetLink.objects.get().token_digest == ""


def test_another_campaigns_gm_cannot_make_a_link(client, campaign, player, alice_membership):
    from apps.campaigns.services import campaign_create

    ask(Client(), player.username)
    stranger = UserFactory()
    campaign_create(name="Ailleurs", system="ew", gm=stranger)
    client.force_login(stranger)
    assert make_link(client, campaign, alice_membership).status_code == 404
    assert ResetLink.objects.get().token_digest == ""


def test_a_gm_cannot_make_a_link_for_someone_outside_her_campaign(client, campaign, gm):
    elsewhere = MembershipFactory()  # a player of another campaign
    ask(Client(), elsewhere.user.username)
    client.force_login(gm)
    assert make_link(client, campaign, elsewhere).status_code == 404
    assert ResetLink.objects.get().token_digest == ""


def test_a_gm_cannot_take_over_a_staff_account(client, campaign, gm, staff):
    membership = MembershipFactory(campaign=campaign, user=staff)
    ask(Client(), staff.username)  # staff make no request: nothing to answer
    ResetLink.objects.create(user=staff, browser_digest="x" * 64)  # nor even a forged one
    client.force_login(gm)
    response = make_link(client, campaign, membership)
    assert response.status_code == 302
    assert ResetLink.objects.get().token_digest == ""
    page = client.get(response["Location"])
    assert "Le mot de passe d'un administrateur ne se change que par lui." in unescape(page.text)


def test_staff_answer_a_request_from_the_admin_and_only_a_request(client, staff, player):
    client.force_login(staff)
    action = {"action": "make_reset_link", "_selected_action": [player.pk]}
    unasked = client.post(reverse("admin:accounts_user_changelist"), action, follow=True)
    assert "n&#x27;a pas demandé de nouveau mot de passe" in unasked.text
    assert not ResetLink.objects.exists()
    ask(Client(), player.username)
    response = client.post(reverse("admin:accounts_user_changelist"), action, follow=True)
    assert "/compte/lien/" in response.text
    assert ResetLink.objects.get().made_by == staff


# --- Told of a new password (issue 28, point 1) -----------------------------------------------


def test_an_emailed_reset_is_told_by_mail_and_at_the_next_log_in(client):
    user = UserFactory(email="alice@example.org", first_name="Alice")
    link = emailed_link(client, "alice@example.org")
    form_page = client.get(link, follow=True)
    client.post(form_page.redirect_chain[-1][0], NEW)
    told = mail.outbox[-1]
    assert told.to == ["alice@example.org"]
    assert told.subject == "Tablée : votre mot de passe a changé"
    assert "a été changé le" in told.body
    login = {"username": user.username, "password": NEW["new_password1"]}
    page = client.post(reverse("accounts:login"), login, follow=True)
    assert "Votre mot de passe a été changé le" in unescape(page.text)


def test_a_password_change_is_told_by_mail(client):
    user = UserFactory(email="alice@example.org")
    client.force_login(user)
    data = {"old_password": PASSWORD, **NEW}
    assert client.post(reverse("accounts:password_change"), data).status_code == 302
    assert [m.subject for m in mail.outbox] == ["Tablée : votre mot de passe a changé"]


def test_a_password_set_from_the_admin_is_told(client, staff):
    user = UserFactory(email="alice@example.org")
    client.force_login(staff)
    url = reverse("admin:auth_user_password_change", args=[user.pk])
    data = {"password1": NEW["new_password1"], "password2": NEW["new_password2"]}
    assert client.post(url, data).status_code == 302
    user.refresh_from_db()
    assert user.password_reset_at is not None
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]


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
