from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.core.backups import backup


class Command(BaseCommand):
    help = "Dump the whole database (pg_dump's custom format) to a file; restore it with restore."

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", help="where to write it (default: tablee-<date>-<time>.dump)"
        )

    def handle(self, *args, file: str | None, **options):
        path = Path(file or timezone.localtime().strftime("tablee-%Y%m%d-%H%M%S.dump"))
        backup(path)
        self.stdout.write(f"Backed up to {path} ({path.stat().st_size // 1024} KB).")
