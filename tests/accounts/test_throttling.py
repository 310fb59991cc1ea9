"""Login limits per address and behind a proxy (issue 12, points 4 and 5)."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from apps.accounts.clientip import client_ip
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")
PROXY = "127.0.0.1"


def login(client, username, password, **meta):
    return client.post(LOGIN, {"username": username, "password": password}, **meta)


def test_one_address_trying_many_usernames_is_stopped(client, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    users = UserFactory.create_batch(13)
    # Two failures per username never reaches the per-user limit (5)…
    statuses = [
        login(client, user.username, "nope", REMOTE_ADDR="10.0.0.9").status_code
        for user in users[:6]
        for _ in range(2)
    ]
    assert statuses == [200] * 12
    # …but the address has now failed 12 times: the next one is refused, right password or not.
    locked = login(client, users[12].username, PASSWORD, REMOTE_ADDR="10.0.0.9")
    assert locked.status_code == 429
    assert "Trop de tentatives de connexion" in locked.text
    assert "_auth_user_id" not in client.session
    # Another address logs in as usual.
    assert login(client, users[12].username, PASSWORD, REMOTE_ADDR="10.0.0.10").status_code == 302


def test_the_per_address_limit_is_higher_than_the_per_user_one(settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT > settings.AXES_FAILURE_LIMIT


def test_the_lockout_page_says_when_to_try_again(client, settings):
    user = UserFactory()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = login(client, user.username, "nope")
    assert response.status_code == 429
    assert "Réessayez dans 15 minutes" in response.text
    assert "Vous pourrez vous reconnecter vers" in response.text
    assert 'href="/compte/mot-de-passe/oublie/"' in response.text


@pytest.fixture
def behind_proxy(settings):
    settings.CLIENT_IP_HEADERS = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    settings.TRUSTED_PROXY_COUNT = 1


def test_two_clients_behind_one_proxy_are_counted_apart(client, settings, behind_proxy):
    user = UserFactory()
    alice_home = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = login(client, user.username, "nope", **alice_home)
    assert response.status_code == 429
    # The same account from another client of the same proxy is not locked out.
    other = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert login(client, user.username, PASSWORD, **other).status_code == 302


def test_without_a_proxy_setting_the_header_is_ignored(client, settings):
    user = UserFactory()
    for n in range(settings.AXES_FAILURE_LIMIT):
        # A different made-up address each time does not escape the limit.
        meta = {"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": f"1.2.3.{n}"}
        response = login(client, user.username, "nope", **meta)
    assert response.status_code == 429


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        # Through the proxy: the address it appended, whatever the client wrote before it.
        ({"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, "203.0.113.5"),
        ({"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.5"}, "203.0.113.5"),
        # A direct client (not the proxy) writing the header: its own address.
        ({"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, "198.51.100.9"),
        # The proxy without the header, or with garbage in it: the proxy's address.
        ({"REMOTE_ADDR": PROXY}, PROXY),
        ({"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "not-an-ip"}, PROXY),
    ],
)
def test_client_ip_believes_the_header_only_from_the_proxy(behind_proxy, meta, expected):
    request = RequestFactory().get("/", **meta)
    assert client_ip(request) == expected


def test_client_ip_reads_the_count_th_address_from_the_right(settings, behind_proxy):
    settings.TRUSTED_PROXY_COUNT = 2  # a CDN, then our proxy
    request = RequestFactory().get(
        "/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5, 192.0.2.1"
    )
    assert client_ip(request) == "203.0.113.5"
