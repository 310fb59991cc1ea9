"""WSGI entry point (gunicorn config.wsgi)."""

import gc
import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

try:
    application = get_wsgi_application()
except ImproperlyConfigured as error:
    sys.exit(f"Configuration error: {error}")

# As in config/asgi.py: what starting made stays out of the collector's full passes.
gc.freeze()
