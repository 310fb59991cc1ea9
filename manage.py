#!/usr/bin/env python
"""Django's command-line utility, which also starts the embedded database when needed."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured

    from config.embedded_db import ensure_database_url

    try:
        ensure_database_url()
        from django.core.management import execute_from_command_line

        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A configuration mistake deserves one clear line, not a traceback.
        sys.exit(f"Configuration error: {error}")


if __name__ == "__main__":
    main()
