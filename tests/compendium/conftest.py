import pytest
from django.test import Client


@pytest.fixture
def staff_client(client: Client, staff) -> Client:
    client.force_login(staff)
    return client
