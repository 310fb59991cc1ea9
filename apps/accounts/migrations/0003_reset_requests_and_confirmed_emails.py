"""A GM's password link exists only for a request the player made, and an email is stored
once its owner confirmed it (issue 28, points 1 and 4)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_account_side"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="password_reset_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="email_pending",
            field=models.EmailField(
                blank=True,
                default="",
                editable=False,
                max_length=254,
                verbose_name="adresse e-mail à confirmer",
            ),
        ),
        migrations.RenameField(model_name="resetlink", old_name="created_at", new_name="made_at"),
        migrations.AlterField(
            model_name="resetlink",
            name="made_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        # The links made before had no request: they keep an empty one, and never work.
        migrations.AddField(
            model_name="resetlink",
            name="requested_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.AlterField(
            model_name="resetlink",
            name="requested_at",
            field=models.DateTimeField(default=django.utils.timezone.now, null=True),
        ),
        migrations.AddField(
            model_name="resetlink",
            name="browser_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        # Empty until a GM hands a link over: unique only when set.
        migrations.AlterField(
            model_name="resetlink",
            name="token_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddConstraint(
            model_name="resetlink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("token_digest", ""), _negated=True),
                fields=("token_digest",),
                name="resetlink_token_unique",
            ),
        ),
        migrations.AlterModelOptions(
            name="resetlink",
            options={
                "ordering": ["-requested_at"],
                "verbose_name": "demande de nouveau mot de passe",
                "verbose_name_plural": "demandes de nouveau mot de passe",
            },
        ),
    ]
