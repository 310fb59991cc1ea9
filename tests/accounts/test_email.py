"""An email address is stored once its owner confirms it, and neither the account form nor
the invitation's sign-up tells whether an address has an account (issue 28, point 4): the
same answer either way, a mail to the address (a link to confirm it, or "this address is
another account's" to its owner), and the same limits as the reset mails."""

import re
import time
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("accounts:account")


def _account_post(client, email: str, **extra):
    return client.post(ACCOUNT, {"first_name": "Maëlle", "email": email, "language": "fr"}, **extra)


def _link(message) -> str:
    return re.search(r"https?://[^/\s]+(/compte/adresse/\S+/)", message.body).group(1)


def _answer(client, response) -> tuple:
    """What the person sees: the status, where it goes, and the page's messages."""
    page = unescape(client.get(response["Location"]).text)
    told = re.findall(r'<p class="message [^"]*">(.*?)</p>', page)
    return response.status_code, response["Location"], told


def test_a_taken_address_gets_the_same_answer_as_a_free_one(client, user):
    owner = UserFactory(email="pris@example.org", first_name="Odile")
    client.force_login(user)
    taken = _answer(client, _account_post(client, "PRIS@example.org"))
    user.refresh_from_db()
    assert user.email == ""
    free = _answer(client, _account_post(client, "libre@example.org"))
    assert taken[:2] == free[:2]
    assert [line.replace("PRIS", "libre").replace("pris", "libre") for line in taken[2]] == free[2]
    assert "Un e-mail de confirmation est parti à libre@example.org" in free[2][-1]
    # The owner of the taken address is told, with no link; the free one gets its link.
    to_owner, to_free = mail.outbox
    assert to_owner.to == ["PRIS@example.org"] and "/compte/adresse/" not in to_owner.body
    assert "Bonjour Odile" in to_owner.body and owner.username in to_owner.body
    assert to_free.to == ["libre@example.org"] and _link(to_free)
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("", "libre@example.org")


def test_the_mailed_link_stores_the_address_with_one_press(client, user):
    client.force_login(user)
    _account_post(client, "maelle@example.org")
    link = _link(mail.outbox[0])
    page = client.get(link)
    assert page.status_code == 200 and "maelle@example.org" in page.text
    user.refresh_from_db()
    assert user.email == ""  # a GET changes nothing (a mail scanner opening the link)
    assert client.post(link)["Location"] == ACCOUNT
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("maelle@example.org", "")
    assert "Adresse e-mail confirmée." in client.get(ACCOUNT).text
    again = client.post(link)
    assert again.status_code == 200 and "Ce lien ne fonctionne plus" in unescape(again.text)


def test_the_link_works_from_a_browser_not_logged_in(user):
    browser = Client()
    browser.force_login(user)
    _account_post(browser, "maelle@example.org")
    phone = Client()
    assert phone.post(_link(mail.outbox[0])).status_code == 302
    user.refresh_from_db()
    assert user.email == "maelle@example.org"


def test_a_newer_address_makes_the_older_link_stop_working(client, user):
    client.force_login(user)
    _account_post(client, "premiere@example.org")
    _account_post(client, "seconde@example.org")
    first, second = (_link(message) for message in mail.outbox)
    assert "Ce lien ne fonctionne plus" in unescape(client.post(first).text)
    client.post(second)
    user.refresh_from_db()
    assert user.email == "seconde@example.org"


def test_an_address_taken_meanwhile_is_refused_at_the_link(client, user):
    client.force_login(user)
    _account_post(client, "maelle@example.org")
    UserFactory(email="Maelle@example.org")
    response = client.post(_link(mail.outbox[0]))
    assert "Cette adresse est déjà celle d'un autre compte." in unescape(response.text)
    user.refresh_from_db()
    assert user.email == ""


def test_the_link_lasts_a_day(client, user, monkeypatch):
    client.force_login(user)
    day_ago = time.time() - 24 * 3600 - 60
    monkeypatch.setattr("django.core.signing.time.time", lambda: day_ago)
    _account_post(client, "maelle@example.org")
    monkeypatch.undo()
    assert "Ce lien ne fonctionne plus" in unescape(client.post(_link(mail.outbox[0])).text)


@pytest.mark.parametrize("token", ["invente", "a:b:c", "x" * 300])
def test_a_made_up_link_gets_the_clear_page(client, token):
    response = client.post(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 200 and "Ce lien ne fonctionne plus" in unescape(response.text)


def test_removing_the_address_needs_no_confirmation(client):
    user = UserFactory(email="moi@example.org")
    client.force_login(user)
    assert _account_post(client, "")["Location"] == ACCOUNT
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("", "")
    assert mail.outbox == []


def test_keeping_my_address_mails_nothing(client):
    user = UserFactory(email="moi@example.org")
    client.force_login(user)
    assert _account_post(client, "Moi@example.org").status_code == 302
    assert mail.outbox == []


def test_the_account_page_shows_the_address_waiting(client, user):
    client.force_login(user)
    _account_post(client, "maelle@example.org")
    assert "En attente de confirmation : maelle@example.org" in client.get(ACCOUNT).text


def test_the_account_form_is_limited_like_the_reset_mails(client, user, settings):
    settings.RESET_MAIL_LIMIT_PER_EMAIL = 2
    UserFactory(email="pris@example.org")
    client.force_login(user)
    for address in ("pris@example.org", "libre@example.org"):
        for _ in range(2):
            assert _account_post(client, address).status_code == 302
        refused = _account_post(client, address)
        assert refused.status_code == 200
        assert "Trop de demandes en peu de temps" in unescape(refused.text)
        assert 'id="id_email_error"' in refused.text
    assert len(mail.outbox) == 4


def test_the_account_form_is_limited_per_address(client, user, settings):
    settings.RESET_MAIL_LIMIT_PER_HOUR = 3
    client.force_login(user)
    for number in range(3):
        response = _account_post(client, f"x{number}@example.org", REMOTE_ADDR="10.2.2.2")
        assert response.status_code == 302
    refused = _account_post(client, "y@example.org", REMOTE_ADDR="10.2.2.2")
    assert "Trop de demandes" in unescape(refused.text)


# --- Sign-up from an invitation ---------------------------------------------------------------

SIGN_UP = {
    "first_name": "Chloé",
    "password1": "une-phrase-de-passe-2026",
    "password2": "une-phrase-de-passe-2026",
}


def _sign_up(campaign, username: str, email: str):
    browser = Client()
    url = reverse("campaigns:join_signup", args=[campaign.invite_code])
    response = browser.post(url, {**SIGN_UP, "username": username, "email": email})
    return browser, response


def test_sign_up_answers_the_same_whether_the_address_is_taken(campaign):
    UserFactory(email="pris@example.org")
    taken_browser, taken = _sign_up(campaign, "chloe", "pris@example.org")
    free_browser, free = _sign_up(campaign, "chloe2", "libre@example.org")
    taken_answer, free_answer = _answer(taken_browser, taken), _answer(free_browser, free)
    assert taken_answer[:2] == free_answer[:2]
    assert [m.replace("pris", "libre") for m in taken_answer[2]] == free_answer[2]
    assert User.objects.get(username="chloe").email == ""
    to_owner, to_free = mail.outbox
    assert "/compte/adresse/" not in to_owner.body and _link(to_free)
    free_browser.post(_link(to_free))
    assert User.objects.get(username="chloe2").email == "libre@example.org"


def test_sign_up_is_limited_like_the_reset_mails(campaign, settings):
    settings.RESET_MAIL_LIMIT_PER_EMAIL = 2
    for number in range(2):
        assert _sign_up(campaign, f"chloe{number}", "pris@example.org")[1].status_code == 302
    _browser, refused = _sign_up(campaign, "chloe9", "pris@example.org")
    assert refused.status_code == 200
    assert "Trop de demandes en peu de temps" in unescape(refused.text)
    assert not User.objects.filter(username="chloe9").exists()
