import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.core.demo import DEMO_ACCOUNTS


@pytest.fixture(autouse=True)
def _development(settings):
    settings.DEBUG = True  # the demo is for development (see the tests at the end)


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


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["demo", "start"])
def test_with_debug_off_demo_and_start_refuse_and_create_nothing(settings, command):
    settings.DEBUG = False
    with pytest.raises(CommandError) as refusal:
        call_command(command)
    message = str(refusal.value)
    assert "DEBUG is off" in message and "'mj'" in message and "--force-demo" in message
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_flag_forces_the_demo_with_debug_off(settings, capsys):
    settings.DEBUG = False
    call_command("demo", "--force-demo")
    assert User.objects.filter(username="mj", is_superuser=True).exists()
    assert "mj / tablee-mj" in capsys.readouterr().out


def test_the_flag_says_what_it_does(capsys):
    with pytest.raises(SystemExit):
        call_command("demo", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--force-demo" in help_text and "even though DEBUG is off" in help_text
    assert "superuser" in help_text and "README" in help_text
