from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.demo.services import DEMO_ACCOUNTS, create_demo_accounts, create_demo_table

FORCE_FLAG = "--allow-published-passwords"
FORCE_HELP = (
    "Create the demo accounts even though DEBUG is off: a superuser and two players whose "
    "passwords are printed in the README (only for a throwaway demo instance)."
)


def refuse_without_debug(command: str, forced: bool) -> None:
    """The demo accounts' passwords are public: no production instance gets them by accident."""
    if settings.DEBUG or forced:
        return
    raise CommandError(
        f"DEBUG is off: `{command}` would create the superuser mj with the password printed in "
        f"the README. Use it for development (DEBUG=1, as `make run` does), or pass {FORCE_FLAG} "
        "to create these accounts on a throwaway demo instance."
    )


class Command(BaseCommand):
    help = "Create the demo accounts and the demo table, once (development and demos only)."

    def add_arguments(self, parser):
        parser.add_argument(FORCE_FLAG, action="store_true", help=FORCE_HELP)

    def handle(self, *args, allow_published_passwords: bool, **options):
        refuse_without_debug("demo", allow_published_passwords)
        created = {account.username for account in create_demo_accounts()}
        self.stdout.write("Demo accounts (username / password):")
        for account in DEMO_ACCOUNTS:
            note = " (new)" if account.username in created else ""
            self.stdout.write(f"  {account.role:8} {account.username} / {account.password}{note}")
        for name in create_demo_table():
            self.stdout.write(f"Demo campaign created: {name}")
