"""Logging plumbing (``LOGGING`` in config/settings.py names it by its dotted path)."""

import logging


class RefusalsInOneLine(logging.Filter):
    """A 4xx answer is a refusal the app meant (a 403 to a player opening the GM's console, a
    404 to an outsider): Django logs it with the exception that made it, a traceback of a
    dozen lines for an expected event. Keep its one line ("Forbidden (Permission denied):
    /rencontres/1/"); a 5xx keeps its traceback, which is what one reads it for."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
