from django.core.management.base import BaseCommand

from apps.core.demo import DEMO_ACCOUNTS, create_demo_accounts, create_demo_table


class Command(BaseCommand):
    help = "Create the demo accounts (and the demo table) when they do not exist."

    def handle(self, *args, **options):
        created = {account.username for account in create_demo_accounts()}
        self.stdout.write("Demo accounts (username / password):")
        for account in DEMO_ACCOUNTS:
            note = " (new)" if account.username in created else ""
            self.stdout.write(f"  {account.role:8} {account.username} / {account.password}{note}")
        for name in create_demo_table():
            self.stdout.write(f"Demo campaign created: {name}")
