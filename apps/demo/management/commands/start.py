import os
from pathlib import Path

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from config.embedded_db import embedded_database_started

from .demo import FORCE_FLAG, FORCE_HELP, refuse_without_debug

# What the reloader watches (Python files): the project's code, not the virtualenv or .pgdata.
# Templates and static files need no restart in development.
WATCHED = ("apps", "config")


def split_addrport(addrport: str) -> tuple[str, int]:
    """ "127.0.0.1:8000", "8000" or "0.0.0.0:8101" as (host, port)."""
    host, _, port = addrport.rpartition(":")
    if not port.isdigit():
        raise CommandError(f"{addrport!r} is not ADDR:PORT or PORT.")
    return host or "127.0.0.1", int(port)


def stop_words() -> str:
    """What Ctrl-C stops: the embedded database goes with the app; a server given by
    DATABASE_URL is someone else's and keeps running."""
    if embedded_database_started():
        return "Ctrl-C stops the app and its embedded database"
    return "Ctrl-C stops the app; the database of DATABASE_URL keeps running"


class Command(BaseCommand):
    help = "Prepare the database (migrate, seeds, demo) and serve the app for development."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--noreload", action="store_true")
        parser.add_argument(FORCE_FLAG, action="store_true", help=FORCE_HELP)

    def handle(self, *args, addrport: str, noreload: bool, allow_published_passwords: bool, **opts):
        refuse_without_debug("start", allow_published_passwords)
        host, port = split_addrport(addrport)
        call_command("migrate", interactive=False, verbosity=1)
        # Seeds never overwrite an admin's edit; rows still as seeded follow the files.
        call_command("seed")
        call_command("demo", allow_published_passwords=allow_published_passwords)
        self.stdout.write(f"\nTablée: http://{host}:{port}/  ({stop_words()})\n")
        # An ASGI server, so that the pushed streams (apps/core/push.py) are served beside the
        # pages; its reloader restarts only the server process, and this one (which owns the
        # embedded database) stays.
        base = Path(settings.BASE_DIR)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            reload=not noreload,
            reload_dirs=[str(base / name) for name in WATCHED],
            log_level="info",
            lifespan="off",  # Django has no lifespan events
            # Open streams never end by themselves: a reload or Ctrl-C must not wait for them
            # (the browsers reconnect).
            timeout_graceful_shutdown=2,
        )
