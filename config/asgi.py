"""ASGI entry point: the pages and the pushed streams (apps/core/push.py) alike.

`manage.py start` serves it with uvicorn's reloader; production runs it under uvicorn (README).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()
