"""`manage.py start ADDR:PORT` serves under uvicorn: the address it is given is understood,
and it says what Ctrl-C stops."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.demo.management.commands import start
from apps.demo.management.commands.start import split_addrport
from config import embedded_db


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("8000", ("127.0.0.1", 8000)),
        ("127.0.0.1:8101", ("127.0.0.1", 8101)),
        ("0.0.0.0:9000", ("0.0.0.0", 9000)),
    ],
)
def test_the_address_and_port(given, expected):
    assert split_addrport(given) == expected


def test_a_malformed_address_is_refused_in_one_line():
    with pytest.raises(CommandError):
        split_addrport("localhost:http")


@pytest.fixture
def served(monkeypatch, settings):
    """``manage.py start`` up to serving: the database steps and the server itself stubbed."""
    settings.DEBUG = True
    monkeypatch.setattr(start, "call_command", lambda *args, **kwargs: None)
    monkeypatch.setattr(start.uvicorn, "run", lambda *args, **kwargs: None)

    def run() -> str:
        out = io.StringIO()
        call_command("start", "127.0.0.1:8129", "--noreload", stdout=out)
        return out.getvalue()

    return run


def test_with_an_external_database_ctrl_c_stops_only_the_app(served, monkeypatch):
    monkeypatch.setattr(embedded_db, "_embedded", False)
    out = served()
    assert "http://127.0.0.1:8129/" in out
    assert "its database" not in out and "embedded" not in out
    assert "the database of DATABASE_URL keeps running" in out


def test_with_the_embedded_database_ctrl_c_stops_both(served, monkeypatch):
    monkeypatch.setattr(embedded_db, "_embedded", True)
    assert "Ctrl-C stops the app and its embedded database" in served()
