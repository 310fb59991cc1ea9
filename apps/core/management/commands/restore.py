from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.core.backups import restore


class Command(BaseCommand):
    help = "Restore a file made by backup into this (empty) database, in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a dump made by backup (or pg_dump --format=custom)")

    def handle(self, *args, file: str, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No file {path}.")
        restore(path)
        self.stdout.write(
            f"Restored {path}. If this version of Tablée is newer than the dump, run migrate."
        )
