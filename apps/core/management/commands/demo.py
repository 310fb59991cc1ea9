from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.core.demo import DEMO_ACCOUNTS, create_demo_accounts, create_demo_table

FORCE = "--force-demo"
FORCE_HELP = (
    "Create the demo accounts even though DEBUG is off. Their passwords are printed in the "
    "README, and 'mj' is a superuser: anyone who has read it can then log in to this "
    "instance, its admin included. For a throwaway test instance only."
)


def refuse_without_debug(command: str) -> None:
    """Stop ``command`` when DEBUG is off: it would open well-known accounts."""
    if not settings.DEBUG:
        raise CommandError(
            f"DEBUG is off: `{command}` refuses to create the demo accounts (the superuser "
            f"'mj' with the password printed in the README). Use DEBUG=1 for development, "
            f"or {FORCE} on a throwaway instance that nobody else can reach."
        )


class Command(BaseCommand):
    help = "Create the demo accounts (and the demo table) when they do not exist."

    def add_arguments(self, parser):
        parser.add_argument(FORCE, action="store_true", dest="force_demo", help=FORCE_HELP)

    def handle(self, *args, force_demo: bool = False, **options):
        if not force_demo:
            refuse_without_debug("demo")
        created = {account.username for account in create_demo_accounts()}
        self.stdout.write("Demo accounts (username / password):")
        for account in DEMO_ACCOUNTS:
            note = " (new)" if account.username in created else ""
            self.stdout.write(f"  {account.role:8} {account.username} / {account.password}{note}")
        for name in create_demo_table():
            self.stdout.write(f"Demo campaign created: {name}")
