"""The kinds of the Aethoria events an encounter logs (the log writers and the undo read them)."""

from __future__ import annotations

ATTACK_EVENT = "aethoria_attack"
TEST_EVENT = "aethoria_test"
SPELL_EVENT = "aethoria_spell"
FATIGUE_EVENT = "aethoria_fatigue"
ATTACK_FATIGUE_EVENT = "aethoria_attack_fatigue"
EFFECT_EVENT = "aethoria_effect"
AIM_LOST_EVENT = "aethoria_aim_lost"
ACTION_EVENT = "aethoria_action"
FIRE_EVENT = "aethoria_fire"
TREAT_EVENT = "aethoria_treat_bleeding"
