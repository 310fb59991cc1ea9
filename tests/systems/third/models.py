from django.db import models


class ThirdSheet(models.Model):
    """The third system's sheet: two characteristics and one pool, souffle."""

    character = models.OneToOneField(
        "characters.Character", on_delete=models.CASCADE, primary_key=True, related_name="third"
    )
    vigueur = models.PositiveSmallIntegerField(default=3)
    adresse = models.PositiveSmallIntegerField(default=3)
    souffle = models.PositiveSmallIntegerField(default=6)

    def __str__(self) -> str:
        return f"{self.character_id}"

    @property
    def souffle_max(self) -> int:
        return self.vigueur * 2
