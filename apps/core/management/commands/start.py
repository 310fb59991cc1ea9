import os

from django.core.management import call_command
from django.core.management.base import BaseCommand

from .demo import FORCE, FORCE_HELP, refuse_without_debug


class Command(BaseCommand):
    help = "Prepare the database (migrate, seeds, demo) and serve the app for development."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--noreload", action="store_true")
        parser.add_argument(FORCE, action="store_true", dest="force_demo", help=FORCE_HELP)

    def handle(self, *args, addrport: str, noreload: bool, force_demo: bool = False, **options):
        if not force_demo:
            refuse_without_debug("start")  # before anything is migrated or served
        # runserver's autoreloader re-runs this command in a child process (RUN_MAIN set)
        # after every code change; the database is ready by then, so only serve.
        if not os.environ.get("RUN_MAIN"):
            call_command("migrate", interactive=False, verbosity=1)
            # Only what is missing: the admin's edits of reference data survive restarts.
            call_command("seed", missing_only=True)
            call_command("demo", force_demo=force_demo)
            self.stdout.write(
                f"\nTablée: http://{addrport}/  (Ctrl-C stops the app and its database)\n"
            )
        call_command("runserver", addrport, use_reloader=not noreload)
