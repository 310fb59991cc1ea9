import pytest
from django.db import OperationalError

from apps.core import health


@pytest.fixture(autouse=True)
def push_idle(monkeypatch):
    """This process's listener as a server that has opened no stream yet (the default of each
    test; those about the listener say otherwise)."""
    monkeypatch.setattr(health.hub, "state", lambda: ("idle", 0.0))


@pytest.mark.django_db
def test_health_answers_without_login(client):
    response = client.get("/sante/")
    assert response.status_code == 200
    assert response.text == "ok\ndatabase: ok\npush: ok (idle)\n"
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_health_answers_a_load_balancer_over_plain_http_whatever_the_host(client, settings):
    settings.SECURE_SSL_REDIRECT = True  # production values
    settings.ALLOWED_HOSTS = ["tablee.example.org"]
    response = client.get("/sante/", HTTP_HOST="10.0.3.7:8000")
    assert response.status_code == 200
    # Every other page still redirects to HTTPS and refuses an unknown Host.
    assert client.get("/compte/connexion/", HTTP_HOST="tablee.example.org").status_code == 301
    assert client.get("/compte/connexion/", HTTP_HOST="10.0.3.7:8000").status_code == 400


@pytest.mark.django_db
def test_health_says_503_when_the_database_does_not_answer(client, monkeypatch):
    def unreachable():
        raise OperationalError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", unreachable)
    response = client.get("/sante/")
    assert response.status_code == 503
    assert response.text == "unavailable\ndatabase: failing\npush: ok (idle)\n"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("state", "status", "line"),
    [
        (("listening", 0.0), 200, "push: ok (listening)"),
        # A database restart: the listener reconnects for a few seconds, the check holds.
        (("reconnecting", 4.2), 200, "push: ok (reconnecting for 4 s)"),
        (("reconnecting", 41.0), 503, "push: failing (reconnecting for 41 s)"),
    ],
)
def test_health_reports_the_push_listener(client, monkeypatch, state, status, line):
    monkeypatch.setattr(health.hub, "state", lambda: state)
    response = client.get("/sante/")
    assert response.status_code == status
    assert response.text.splitlines()[1:] == ["database: ok", line]
