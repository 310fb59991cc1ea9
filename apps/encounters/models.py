"""Encounters: the fights a GM prepares and runs, with an append-only log of every step.

The current state lives where the rest of the app reads it (pools on the character sheets,
turn and round on the encounter, per-round state on the combatant); every step also writes
an ``Event`` holding its inputs, dice faces, the engine's results and the exact field
changes it made (before/after), so undo and redo restore state exactly and the whole fight
can be rebuilt from the start event.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Status(models.TextChoices):
    PREPARING = "preparing", _("en préparation")
    RUNNING = "running", _("en cours")
    PAUSED = "paused", _("en pause")
    FINISHED = "finished", _("terminée")


class EncounterQuerySet(models.QuerySet):
    def for_campaign(self, campaign) -> EncounterQuerySet:
        return self.filter(campaign=campaign)

    def open(self) -> EncounterQuerySet:
        return self.exclude(status=Status.FINISHED)

    def live(self) -> EncounterQuerySet:
        """Fights the players may follow now: started and not over (paused ones included)."""
        return self.filter(status__in=[Status.RUNNING, Status.PAUSED])


def fight_to_follow(live_fights, is_gm: bool) -> Encounter | None:
    """The newest of a campaign's running or paused fights (``EncounterQuerySet.live``,
    prefetched or not), with ``url`` the page its viewer may open: the GM's console or the
    table view. The sheet and the dashboard link to it."""
    fight = next(iter(live_fights), None)
    if fight is not None:
        fight.url = fight.url_for(is_gm)
    return fight


class Encounter(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="encounters"
    )
    name = models.CharField(_("nom"), max_length=120)
    status = models.CharField(
        _("état"), max_length=16, choices=Status.choices, default=Status.PREPARING
    )
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    # Index, in initiative order, of the combatant whose turn it is.
    turn = models.PositiveSmallIntegerField(_("tour"), default=0)
    # Every step bumps it; an action made on an older version is refused (409), which also
    # stops a double click from applying the same blow twice.
    version = models.PositiveIntegerField(default=1)
    # The sequence of the newest event, kept here so a step numbers its event without
    # asking the event table (it is written in the same UPDATE as the version).
    last_sequence = models.PositiveIntegerField(default=0)
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = EncounterQuerySet.as_manager()

    class Meta:
        verbose_name = _("rencontre")
        verbose_name_plural = _("rencontres")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def url_for(self, is_gm: bool) -> str:
        """The page of this fight its viewer may open: the GM's console or the table view."""
        return reverse("encounters:console" if is_gm else "encounters:table", args=[self.pk])

    @property
    def is_running(self) -> bool:
        return self.status == Status.RUNNING


class Combatant(models.Model):
    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    # RESTRICT: a character that fought is never deleted alone (its fights' history names it),
    # but a campaign deleted whole takes its fights and characters together.
    character = models.ForeignKey(
        "characters.Character", on_delete=models.RESTRICT, related_name="combatants"
    )
    # Hidden from the players' screens until the GM reveals it (an ambush, a lurker).
    hidden = models.BooleanField(_("caché aux joueurs"), default=False)
    # Out of the fight's order: removed mid-fight, or a reinforcement whose arrival was
    # undone. The row stays so that undo and redo can bring it back (steps change fields,
    # never create or delete rows).
    present = models.BooleanField(_("dans le combat"), default=True)
    # Place in the acting order (0 acts first), set when initiative is rolled.
    position = models.PositiveSmallIntegerField(default=0)
    initiative = models.SmallIntegerField(null=True, blank=True)
    initiative_roll = models.PositiveSmallIntegerField(null=True, blank=True)
    # A stored random draw breaks the last ties, so the order never changes on reload.
    tie_draw = models.BigIntegerField(default=0)
    # Per-system state of the fight: EW round actions and stance; Aethoria defences left,
    # aim, prepared action, bleeding and severe effects.
    state = models.JSONField(default=dict, blank=True)
    # The framework's own per-fighter slot, shared by every system: the conditions lying on
    # the fighter ("étourdi", "aveuglé 2 rounds"), written only through ``Step.set`` by
    # ``conditions.py`` (a list of ``Condition.to_json()``).
    conditions = models.JSONField(default=list, blank=True)
    # The framework's slot for the roll the GM asked of this fighter's player (a defence, an
    # initiative, an attack), open until answered, taken over or cancelled: ``{}`` when none.
    # Written only through ``Step.set`` by ``requests.py``, so undo reopens or closes it.
    request = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("combattant")
        verbose_name_plural = _("combattants")
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"], name="one_combatant_each")
        ]

    def __str__(self) -> str:
        return str(self.character)


def asked_a_roll(character_id: int) -> bool:
    """Whether a roll that may spend the character's pools (a defence, an attack, a test) is
    asked of
    its player in a fight under way (``Combatant.request``): its sheet then refuses a spend
    of those pools, which the answer pays itself — nothing is paid twice."""
    return Combatant.objects.filter(
        character_id=character_id,
        encounter__status__in=[Status.RUNNING, Status.PAUSED],
        request__kind__in=["defence", "attack", "test"],
    ).exists()


class DiceSource(models.TextChoices):
    APP = "app", _("dés de l'application")
    PHYSICAL = "physical", _("dés physiques")
    MIXED = "mixed", _("dés mêlés")  # some faces typed, the others rolled by the app
    NONE = "", _("sans dé")


class EventQuerySet(models.QuerySet):
    def standing(self) -> EventQuerySet:
        """The steps that still hold: not reverted by an undo (or brought back by a redo)."""
        return self.filter(undone=False)

    def of_kind(self, *kinds: str) -> EventQuerySet:
        return self.filter(kind__in=kinds)


class Event(models.Model):
    """One step of an encounter, never edited afterwards (undo is an event of its own)."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    round = models.PositiveSmallIntegerField()
    actor = models.ForeignKey(
        Combatant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    target = models.ForeignKey(
        Combatant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    dice = models.CharField(max_length=16, choices=DiceSource.choices, blank=True)
    # Inputs (choices, faces), the engine's outputs and the odds shown before the roll.
    data = models.JSONField(default=dict, blank=True)
    # [{"model": "characters.ewsheet", "pk": 3, "field": "lethal_left", "before": 12,
    #   "after": 9}, ...] — exactly what this step changed.
    changes = models.JSONField(default=list, blank=True)
    # Whether the players' table view may show this line (not for hidden combatants).
    public = models.BooleanField(default=True)
    # Set when a later undo reverted this step (and cleared by a redo).
    undone = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        verbose_name = _("événement")
        verbose_name_plural = _("journal de combat")
        ordering = ["-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "sequence"], name="event_sequence_once"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="event_sequence_positive"),
        ]
        indexes = [models.Index(fields=["encounter", "-sequence"], name="event_latest")]

    def __str__(self) -> str:
        return f"{self.encounter_id}#{self.sequence} {self.kind}"
