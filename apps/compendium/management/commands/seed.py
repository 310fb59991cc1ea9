from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.compendium.seeding import Mode, SeedError, edited_rows, load_seeds


class Command(BaseCommand):
    help = (
        "Load the reference data of seeds/: creates missing rows, updates rows still as seeded, "
        "keeps what an admin edited (idempotent: re-running changes nothing)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--folder", type=Path, default=settings.SEEDS_DIR)
        modes = parser.add_mutually_exclusive_group()
        modes.add_argument(
            "--missing-only",
            action="store_true",
            help="Only create missing rows; never change existing ones.",
        )
        modes.add_argument(
            "--reset",
            action="store_true",
            help="Also overwrite the rows an admin edited with the files' values (lists them "
            "and asks first).",
        )
        parser.add_argument(
            "--no-input", action="store_false", dest="interactive", help="Do not ask (--reset)."
        )

    def handle(self, *args, folder: Path, missing_only: bool, reset: bool, **options):
        if not folder.is_dir():
            raise CommandError(f"No seed folder at {folder}.")
        try:
            if reset and not self._confirm_reset(folder, options["interactive"]):
                self.stdout.write("Nothing changed.")
                return
            mode = Mode.RESET if reset else Mode.MISSING_ONLY if missing_only else Mode.KEEP_EDITS
            report = load_seeds(folder, mode=mode)
        except SeedError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Seeds loaded: {report}.")
        if report.kept and not reset:
            self.stdout.write("Kept as edited (`seed --reset` would overwrite them):")
            for row in report.kept:
                self.stdout.write(f"  {row}")

    def _confirm_reset(self, folder: Path, interactive: bool) -> bool:
        """Say which edited rows the reset overwrites; True when it may go on."""
        edited = edited_rows(folder)
        if not edited:
            return True
        self.stdout.write("--reset overwrites these rows, edited since they were seeded:")
        for row in edited:
            self.stdout.write(f"  {row}")
        return not interactive or input("Overwrite them? Type 'yes' to go on: ") == "yes"
