import os
import re
import subprocess
import sys

import pytest
from django.conf import settings as django_settings

MANAGE = [sys.executable, str(django_settings.BASE_DIR / "manage.py")]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    inherited = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {k: v for k, v in os.environ.items() if k not in inherited}
    environment.update(env)
    return subprocess.run(
        [*MANAGE, *args], env=environment, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 20 + "a-long-and-random-production-secret-for-the-test-9f8e7d",
    "ALLOWED_HOSTS": "tablee.example.org",
}


def test_production_mode_refuses_to_start_without_secret_key():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_malformed_database_url_stops_with_one_line():
    result = run_manage("check", DEBUG="1", DATABASE_URL="mysql://nowhere/db")
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0
    assert "DATABASE_URL must be a PostgreSQL URL" in result.stderr


def test_production_settings_pass_the_deploy_checklist():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_pages_send_a_content_security_policy_they_satisfy(client, user):
    client.force_login(user)
    for response in (client.get("/"), client.get("/compte/mot-de-passe/")):
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        html = response.text
        # Inline code would be blocked by that policy, so the pages must have none.
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
        assert "<style" not in html
        assert not re.search(r"\sstyle=", html)
        assert not re.search(r"\son[a-z]+=", html)
