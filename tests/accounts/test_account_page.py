"""The account page: name, email, language, password, other devices, my campaigns."""

import pytest
from django.urls import reverse

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("accounts:account")


def test_the_account_page_lists_my_campaigns_with_my_role(client, campaign, player, gm):
    from apps.campaigns.services import campaign_create

    mine = campaign_create(name="Ma table", system="aethoria", gm=player)
    client.force_login(player)
    response = client.get(ACCOUNT)
    assert response.status_code == 200
    rows = {c.name: c.role_label for c in response.context["campaigns"]}
    assert rows == {campaign.name: "joueur", mine.name: "MJ"}
    assert reverse("accounts:password_change") in response.text
    assert reverse("accounts:sessions_end_others") in response.text


def test_the_account_page_is_in_the_menu(client, user):
    client.force_login(user)
    assert f'href="{ACCOUNT}"' in client.get(reverse("home")).text


def test_saving_the_account_changes_name_and_language_and_mails_the_new_email(client, user):
    client.force_login(user)
    response = client.post(
        ACCOUNT, {"first_name": "Maëlle", "email": "maelle@example.org", "language": "en"}
    )
    assert response["Location"] == ACCOUNT
    user.refresh_from_db()
    assert (user.first_name, user.email, user.language) == ("Maëlle", "", "en")
    assert user.email_pending == "maelle@example.org"  # stored once confirmed (test_email.py)
    assert response.cookies["tablee_language"].value == "en"
    assert "Account saved." in client.get(ACCOUNT).text


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"first_name": "", "email": "", "language": "fr"}, "first_name"),
        ({"first_name": "M", "email": "pas-un-email", "language": "fr"}, "email"),
        ({"first_name": "M", "email": "", "language": "de"}, "language"),
    ],
)
def test_bad_input_is_told_next_to_its_field_and_changes_nothing(client, user, data, field):
    UserFactory(email="pris@example.org")
    client.force_login(user)
    before = (user.first_name, user.email, user.language)
    response = client.post(ACCOUNT, data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert f'id="id_{field}_error"' in response.text
    user.refresh_from_db()
    assert (user.first_name, user.email, user.language) == before


def test_keeping_my_own_email_is_not_a_duplicate(client):
    user = UserFactory(email="moi@example.org")
    client.force_login(user)
    data = {"first_name": "Moi", "email": "moi@example.org", "language": "fr"}
    assert client.post(ACCOUNT, data).status_code == 302
