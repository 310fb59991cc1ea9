from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.compendium.seeding import SeedError, load_seeds


class Command(BaseCommand):
    help = "Load the reference data of seeds/ (idempotent: re-running changes nothing)."

    def add_arguments(self, parser):
        parser.add_argument("--folder", type=Path, default=settings.BASE_DIR / "seeds")
        parser.add_argument(
            "--missing-only",
            action="store_true",
            help="Only create missing rows; never change existing ones (keeps admin edits).",
        )

    def handle(self, *args, folder: Path, missing_only: bool, **options):
        if not folder.is_dir():
            raise CommandError(f"No seed folder at {folder}.")
        try:
            report = load_seeds(folder, missing_only=missing_only)
        except SeedError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Seeds loaded: {report}.")
