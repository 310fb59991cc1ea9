"""Sessions end for good (issue 12, point 6): logout, a password change and "log out my other
devices" make a copied cookie useless, without a query more per request."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

HOME = reverse("home")
LOGIN = reverse("accounts:login")


def logged_in(user) -> Client:
    client = Client()
    response = client.post(LOGIN, {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def copy_of(client: Client) -> Client:
    """Another browser holding the same session cookie (a shared tablet, a stolen cookie)."""
    other = Client()
    other.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return other


def test_a_copied_cookie_works_until_logout_then_never_again():
    user = UserFactory()
    tablet = logged_in(user)
    copy = copy_of(tablet)
    assert copy.get(HOME).status_code == 200
    tablet.post(reverse("accounts:logout"))
    assert copy.get(HOME).status_code == 302
    # Logging in again does not bring the old cookie back.
    logged_in(user)
    assert copy.get(HOME).status_code == 302


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one():
    user = UserFactory()
    phone, tablet = logged_in(user), logged_in(user)
    response = phone.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "une-autre-phrase-2026",
            "new_password2": "une-autre-phrase-2026",
        },
    )
    assert response.status_code == 302
    assert phone.get(HOME).status_code == 200
    assert tablet.get(HOME).status_code == 302


def test_log_out_my_other_devices_keeps_only_this_one():
    user = UserFactory()
    phone, tablet = logged_in(user), logged_in(user)
    copy = copy_of(phone)
    response = phone.post(reverse("accounts:sessions_end_others"))
    assert response["Location"] == reverse("accounts:account")
    assert "Vos autres appareils sont déconnectés." in phone.get(response["Location"]).text
    assert tablet.get(HOME).status_code == 302
    # The copy held the old hash: it ends too; the device that asked goes on.
    assert copy.get(HOME).status_code == 302
    assert phone.get(HOME).status_code == 200


def test_log_out_my_other_devices_needs_a_post(client, user):
    client.force_login(user)
    assert client.get(reverse("accounts:sessions_end_others")).status_code == 405


def test_a_session_made_before_the_upgrade_stays_valid_until_a_first_rotation():
    # An empty salt keeps Django's own hash: deploying this logs nobody out.
    user = UserFactory()
    assert user.session_salt == ""
    client = logged_in(user)
    user.refresh_from_db()
    assert client.get(HOME).status_code == 200
    user.end_sessions()
    assert client.get(HOME).status_code == 302


def test_checking_a_session_costs_no_query_more(client, user, django_assert_num_queries):
    user.end_sessions()  # a rotated salt: the hash now includes it
    client.force_login(user)
    with django_assert_num_queries(1):  # the user row, which carries the salt
        response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 200
