"""`manage.py start ADDR:PORT` serves under uvicorn: the address it is given is understood."""

import pytest
from django.core.management.base import CommandError

from apps.demo.management.commands.start import split_addrport


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
