import pytest
from django.core.management import CommandError, call_command

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.demo.models import DemoRecord
from apps.demo.services import DEMO_ACCOUNTS, create_demo_accounts


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
    with pytest.raises(CommandError, match=r"DEBUG is off.*--allow-published-passwords"):
        call_command(command, noreload=True) if command == "start" else call_command(command)
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_flag_creates_the_demo_accounts_with_debug_off(settings):
    settings.DEBUG = False
    call_command("demo", allow_published_passwords=True)
    assert User.objects.filter(username="mj", is_superuser=True).exists()


@pytest.mark.django_db
def test_a_deleted_or_renamed_demo_account_is_not_made_again():
    create_demo_accounts()
    User.objects.filter(username="bruno").delete()
    User.objects.filter(username="alice").update(username="alice-renamed")
    call_command("demo")
    assert sorted(User.objects.values_list("username", flat=True)) == ["alice-renamed", "mj"]
    assert not Campaign.objects.exists()  # a demo player is gone: no demo table without her


@pytest.mark.django_db
def test_accounts_made_before_the_demo_kept_records_are_adopted():
    User.objects.create_user("mj", password="set-by-hand")
    call_command("demo")
    assert User.objects.filter(username="mj").count() == 1
    assert User.objects.get(username="mj").check_password("set-by-hand")
    assert DemoRecord.objects.filter(key="account:mj").exists()
