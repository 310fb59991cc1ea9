"""What the plumbing keeps: the one-time keys of the submissions already made (once.py)."""

from django.db import models


class Submission(models.Model):
    """A form's one-time key, used by the submission that carried it: the same form sent
    again (a double tap, a retry of an answer lost on the way) finds its key here and is
    refused. Kept two days, the life of a key (older ones are refused anyway)."""

    key = models.CharField(primary_key=True, max_length=32)
    used_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.key
