"""What the server prints of a request (issue 29): an expected refusal is one line, printed
once; an error keeps its traceback."""

import logging

import pytest
from django.urls import reverse

from apps.encounters.models import Encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def printed(monkeypatch, settings):
    """Every line the project's console handlers print (Django's own under DEBUG included),
    as they would print it."""
    settings.DEBUG = True
    lines = []
    loggers = [
        logging.getLogger(),
        logging.getLogger("django"),
        logging.getLogger("django.request"),
    ]
    for handler in {h for logger in loggers for h in logger.handlers}:
        if type(handler) is logging.StreamHandler:  # not pytest's capture handlers

            def emit(record, handler=handler):
                if handler.filter(record):
                    lines.append(handler.format(record))

            monkeypatch.setattr(handler, "emit", emit)
    return lines


def test_a_player_refused_the_console_is_logged_once_in_one_line(client, campaign, player, printed):
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    client.force_login(player)
    url = reverse("encounters:console", args=[encounter.pk])
    assert client.get(url).status_code == 403
    refusals = [line for line in printed if "Forbidden" in line]
    assert refusals == [f"Forbidden (Permission denied): {url}"]


def test_an_outsiders_404_is_one_line(client, campaign, outsider, printed):
    client.force_login(outsider)
    url = reverse("campaigns:detail", args=[campaign.pk])
    assert client.get(url).status_code == 404
    assert [line for line in printed if "Not Found" in line] == [f"Not Found: {url}"]


def test_a_server_error_keeps_its_traceback():
    record = logging.LogRecord("django.request", logging.ERROR, "", 0, "boom", (), None)
    try:
        raise ValueError("boom")
    except ValueError as error:
        record.exc_info = (type(error), error, error.__traceback__)
    record.status_code = 500
    logging.getLogger("django.request").filters[0].filter(record)
    assert record.exc_info is not None
