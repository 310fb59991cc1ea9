import pytest
from django.core.management import call_command

from apps.accounts.models import User
from apps.core.demo import DEMO_ACCOUNTS


@pytest.mark.django_db
def test_demo_accounts_are_created_once_and_can_log_in(client, capsys):
    call_command("demo")
    call_command("demo")
    assert User.objects.count() == len(DEMO_ACCOUNTS)
    gm = DEMO_ACCOUNTS[0]
    assert "mj / tablee-mj" in capsys.readouterr().out
    response = client.post("/compte/connexion/", {"username": gm.username, "password": gm.password})
    assert response.status_code == 302


@pytest.mark.django_db
def test_demo_leaves_a_changed_password_alone():
    call_command("demo")
    gm = User.objects.get(username="mj")
    gm.set_password("changed-on-purpose")
    gm.save()
    call_command("demo")
    gm.refresh_from_db()
    assert gm.check_password("changed-on-purpose")
