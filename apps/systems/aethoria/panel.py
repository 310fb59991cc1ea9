"""What the Aethoria console shows around its forms: which forms the acting combatant gets,
the default odds, severe effects to decide, prepared actions to fire, and the roll fatigue
dice may still be added to."""

from __future__ import annotations

from functools import cached_property

from django.utils.translation import gettext as _

from apps.encounters.kit import EncounterError, describe
from apps.encounters.models import Combatant, Encounter, Event
from apps.rules import aethoria

from .attack_plan import ATTACK, AttackChoice, plan_attack
from .defaults import last_target, remembered_choice
from .defences import NO_DEFENCE
from .effects import pending_effects
from .events import ATTACK_EVENT, SPELL_EVENT, TEST_EVENT
from .fatigue import (
    attack_fatigue_candidate,
    fatigue_after_candidate,
    offers_attack_fatigue,
)
from .forms import AethoriaAttackForm, AethoriaSpecialForm
from .magic import SpellChoice, plan_spell
from .roll_forms import (
    AethoriaAttackFatigueForm,
    AethoriaFatigueForm,
    AethoriaSpellForm,
    AethoriaTestForm,
)
from .specials import fired_kind, has_fired
from .state import PREPARED_SPELL
from .turns import aethoria_turn_state


def fired_combatant(encounter: Encounter, combatants: list[Combatant]) -> Combatant | None:
    return next((c for c in combatants if has_fired(encounter, c)), None)


def console_forms(encounter, combatants, acting, forms: dict, *, test_panel: bool) -> None:
    """Add the unbound forms the console shows for the acting combatant (kept if bound).
    The test form lists every fighter's skills: it is built only when its panel is open
    (``test_panel``; htmx otherwise loads it when the GM opens the panel)."""
    initial = {"version": encounter.version}
    if test_panel:
        forms.setdefault(
            "aethoria_test",
            AethoriaTestForm(
                initial=initial, encounter=encounter, combatants=combatants, acting=acting
            ),
        )
    fired = fired_combatant(encounter, combatants)
    if fired is not None and fired_kind(fired) == PREPARED_SPELL:
        forms.setdefault(
            "aethoria_fired_spell",
            AethoriaSpellForm(
                initial=initial,
                encounter=encounter,
                caster=fired,
                combatants=combatants,
                fired=True,
            ),
        )
    elif fired is not None and len(combatants) > 1:
        forms.setdefault(
            "aethoria_fired_attack",
            AethoriaAttackForm(
                initial=initial,
                encounter=encounter,
                attacker=fired,
                combatants=combatants,
                fired=True,
            ),
        )
    forms["aethoria_panel"] = AethoriaPanel(encounter, combatants, forms)
    if acting is None or aethoria_turn_state(acting).acted:
        # One action per turn: once it has acted, only the next turn (or a test) remains.
        return
    if len(combatants) > 1 and "aethoria_attack" not in forms:
        forms["aethoria_attack"] = AethoriaAttackForm(
            initial=initial,
            encounter=encounter,
            attacker=acting,
            combatants=combatants,
            last_target=last_target(forms["aethoria_panel"].recent, acting),
            remembered=remembered_choice(forms["aethoria_panel"].recent, acting),
        )
    forms.setdefault(
        "aethoria_special",
        AethoriaSpecialForm(initial=initial, acting=acting, combatants=combatants),
    )
    if acting.character.aethoria.magic_type == aethoria.DOUE:
        forms.setdefault(
            "aethoria_spell",
            AethoriaSpellForm(
                initial=initial, encounter=encounter, caster=acting, combatants=combatants
            ),
        )


def default_attack_plan(form: AethoriaAttackForm):
    """The odds of an unbound attack form as first shown: its target, the fighter's last
    choices where they hold (else its first weapon), the defender's best defence."""
    weapon = next(iter(form.fields["weapon"].choices), None)
    if form.target_id is None or weapon is None:
        return None
    initial = form.initial
    choice = AttackChoice(
        attacker_id=form.acting.pk,
        target_id=form.target_id,
        mode=initial.get("mode", ATTACK),
        weapon_id=initial.get("weapon", weapon[0]),
        second_weapon_id=initial.get("second_weapon", form.fields["second_weapon"].initial),
        range_band=initial.get("range_band", ""),
        defence=initial.get("defence", NO_DEFENCE),
        parry_with=initial.get("parry_with", ""),
        modifier=initial.get("modifier", 0),
        extra_successes=initial.get("extra_successes", ""),
    )
    try:
        return plan_attack(form.encounter, choice, form.combatants)
    except EncounterError:
        return None


def roll_result(event) -> dict:
    """A roll in words for the box under the button that made it: its event, the verdict
    (class, words) and its log line; {} for a step that rolled nothing."""
    if event.kind == ATTACK_EVENT:
        lands = any(b["outcome"]["lands"] for b in event.data.get("blows", []))
        verdict = ("hit", _("Touché")) if lands else ("miss", _("Raté"))
    elif event.kind in (TEST_EVENT, SPELL_EVENT):
        verdict = ("done", _("Résultat"))  # the log line says whether it succeeded
    else:
        return {}
    return {"event": event, "verdict": verdict, "text": describe(event)}


RECENT_STEPS = 40


class AethoriaPanel:
    """What the Aethoria actions show besides the forms: default odds, severe effects to
    decide, prepared actions to fire, the roll fatigue dice may still be added to.

    Carried in ``forms`` (the hook console_context gives this module); its lookups are lazy
    and run at most once, in one query for the recent steps."""

    def __init__(self, encounter: Encounter, combatants: list[Combatant], forms: dict):
        self.encounter = encounter
        self.combatants = combatants
        self.forms = forms

    @cached_property
    def recent(self) -> list:
        return list(
            self.encounter.events.standing()
            .exclude(kind__in=("undo", "redo"))
            # What each step changed is for undo and redo: the panel reads what it did.
            .defer("changes")
            .order_by("-sequence")[:RECENT_STEPS]
        )

    @cached_property
    def last_roll(self) -> dict:
        """The step just made, when it rolled, for the box under the button that made it
        (until the next step): from the recent steps already read, no query of its own."""
        latest = self.recent[0] if self.recent else None
        if latest is None or latest.sequence != self.encounter.last_sequence:
            return {}
        return roll_result(latest)

    @cached_property
    def pending_effects(self) -> list[dict]:
        return pending_effects(self.recent)

    @cached_property
    def fatigue_roll(self):
        return fatigue_after_candidate(self.encounter, self.recent[:1])

    @cached_property
    def fatigue_form(self) -> AethoriaFatigueForm | None:
        """The card adding fatigue dice to the last test or spell (kept if refused)."""
        if self.fatigue_roll is None:
            return None
        initial = {"version": self.encounter.version, "event": self.fatigue_roll.pk}
        return self.forms.get("aethoria_fatigue") or AethoriaFatigueForm(initial=initial)

    @property
    def attack_fatigue(self) -> AethoriaAttackFatigueForm | None:
        """The form adding fatigue dice to a roll of the last attack, as it came back
        refused (shown open); else the offer is folded (``attack_fatigue_offer``)."""
        return self.forms.get("aethoria_attack_fatigue")

    @cached_property
    def attack_fatigue_offer(self) -> Event | None:
        """The attack whose rolls may still take fatigue dice: its card is folded and its
        form, with the odds of every choice, loads when the GM opens it."""
        event = attack_fatigue_candidate(self.recent)
        return event if event is not None and offers_attack_fatigue(event.data) else None

    @cached_property
    def prepared(self) -> list[Combatant]:
        return [c for c in self.combatants if aethoria_turn_state(c).prepared]

    @cached_property
    def aiming(self) -> list[tuple[Combatant, str]]:
        """Who watches whom (Viser), for the "out of reach" button."""
        names = {c.pk: c.character.name for c in self.combatants}
        aims = [(c, aethoria_turn_state(c).aim_target) for c in self.combatants]
        return [(c, names.get(aim, "")) for c, aim in aims if aim is not None]

    def _plan(self, key: str):
        form = self.forms.get(key)
        if form is None:
            return None
        if form.is_bound:
            return form.plan if form.is_valid() else None
        return default_attack_plan(form)

    @cached_property
    def attack_plan(self):
        return self._plan("aethoria_attack")

    @cached_property
    def fired_plan(self):
        return self._plan("aethoria_fired_attack")

    @cached_property
    def fired_spell_plan(self):
        return self._spell_plan("aethoria_fired_spell")

    @cached_property
    def test_plan(self):
        form = self.forms.get("aethoria_test")
        if form is None:
            return None
        if form.is_bound:
            return form.plan if form.is_valid() else None
        return form.initial_plan()

    @cached_property
    def spell_plan(self):
        return self._spell_plan("aethoria_spell")

    def _spell_plan(self, key: str):
        form = self.forms.get(key)
        if form is None:
            return None
        if form.is_bound:
            return form.plan if form.is_valid() else None
        try:
            return plan_spell(
                self.encounter,
                SpellChoice(caster_id=form.caster.pk, invested=form.fields["invested"].initial),
                self.combatants,
            )
        except EncounterError:
            return None
