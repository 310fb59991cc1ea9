"""Django's command line (manage.py, or `tablee` once installed), which also starts the
embedded database in development when no DATABASE_URL is given."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from config.embedded_db import ensure_database_url


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        ensure_database_url()
        from django.core.management import execute_from_command_line

        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A configuration mistake deserves one clear line, not a traceback.
        sys.exit(f"Configuration error: {error}")
