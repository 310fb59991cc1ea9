import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import translation

from tests.accounts.factories import PASSWORD, UserFactory

LOGIN = reverse("accounts:login")


def login(client, username, password, ip="10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/compte/mot-de-passe/"])
def test_anonymous_is_sent_to_login(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{LOGIN}?next={url}"


@pytest.mark.django_db
def test_login_page_answers_in_french_even_to_an_english_browser(client):
    response = client.get(LOGIN, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.status_code == 200
    assert '<html lang="fr">' in response.text
    assert "Se connecter" in response.text
    assert response["Content-Language"] == "fr"


@pytest.mark.django_db
def test_good_credentials_log_in_and_land_home(client):
    user = UserFactory(first_name="Morgane")
    response = login(client, user.username, PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "Bonjour, Morgane" in client.get("/").text


@pytest.mark.django_db
def test_wrong_password_and_unknown_account_get_the_same_message(client):
    user = UserFactory()
    wrong_password = login(client, user.username, "not-the-password")
    unknown_user = login(client, "nobody-by-that-name", "not-the-password")
    assert wrong_password.status_code == unknown_user.status_code == 200
    assert wrong_password.context["form"].non_field_errors() == (
        unknown_user.context["form"].non_field_errors()
    )
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in wrong_password.text
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_logins_are_refused_after_five_failures_for_that_user_and_address(client, settings):
    user = UserFactory()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, user.username, "nope").status_code == 200
    assert login(client, user.username, "nope").status_code == 429
    # Even the right password is refused now, with the same words.
    locked = login(client, user.username, PASSWORD)
    assert locked.status_code == 429
    assert "Trop de tentatives de connexion" in locked.text
    assert "_auth_user_id" not in client.session
    # Another address is not punished for this one's guesses.
    assert login(client, user.username, PASSWORD, ip="10.0.0.2").status_code == 302


@pytest.mark.django_db
def test_a_successful_login_forgets_earlier_failures(client):
    user = UserFactory()
    login(client, user.username, "nope")
    assert AccessAttempt.objects.filter(username=user.username).exists()
    login(client, user.username, PASSWORD)
    assert not AccessAttempt.objects.filter(username=user.username).exists()


@pytest.mark.django_db
def test_logout_needs_a_post_and_ends_the_session(client, user):
    client.force_login(user)
    assert client.get(reverse("accounts:logout")).status_code == 405
    response = client.post(reverse("accounts:logout"))
    assert response["Location"] == LOGIN
    assert client.get("/").status_code == 302


@pytest.mark.django_db
def test_password_change_keeps_the_user_logged_in(client, user):
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "une-autre-phrase-2026",
            "new_password2": "une-autre-phrase-2026",
        },
    )
    assert response["Location"] == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password("une-autre-phrase-2026")
    assert client.get("/").status_code == 200


@pytest.mark.django_db
def test_password_change_refuses_a_wrong_old_password_next_to_the_field(client, user):
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": "wrong",
            "new_password1": "une-autre-phrase-2026",
            "new_password2": "une-autre-phrase-2026",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    assert 'id="id_old_password_error"' in response.text
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@pytest.mark.django_db
def test_switching_to_english_is_remembered_on_the_account(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:language_set"), {"language": "en", "next": "/"})
    assert response["Location"] == "/"
    user.refresh_from_db()
    assert user.language == "en"
    page = client.get("/")
    assert '<html lang="en">' in page.text
    assert "Log out" in page.text


@pytest.mark.django_db
def test_an_english_request_leaves_the_thread_in_french(client, user):
    # The English viewer's language must not outlive the request: whatever runs next in the
    # same thread (here the test itself) speaks the default language again.
    user.language = "en"
    user.save()
    client.force_login(user)
    assert "Log out" in client.get("/").text
    assert translation.get_language() == "fr"


@pytest.mark.django_db
def test_anonymous_visitor_can_switch_the_login_page_to_english(client):
    response = client.post(reverse("accounts:language_set"), {"language": "en", "next": LOGIN})
    assert response["Location"] == LOGIN
    assert "Log in" in client.get(LOGIN).text


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", ""])
def test_unknown_language_changes_nothing(client, user, language):
    client.force_login(user)
    client.post(reverse("accounts:language_set"), {"language": language, "next": "/"})
    user.refresh_from_db()
    assert user.language == "fr"


@pytest.mark.django_db
def test_language_switch_never_redirects_off_site(client, user):
    client.force_login(user)
    response = client.post(
        reverse("accounts:language_set"), {"language": "en", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
