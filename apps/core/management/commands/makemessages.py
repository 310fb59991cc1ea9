"""`makemessages` that also extracts the rules engine's French texts.

`apps.rules` cannot import Django's gettext, so it marks its translatable texts with its own
no-op `fr()` (apps/rules/errors.py); xgettext is told to collect those calls too.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=fr"]
