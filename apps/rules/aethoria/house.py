"""Aethoria house rules: each "(house rule, default)" value of the rules page, as a setting."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from apps.rules.aethoria.constants import (
    DEFAULT_CONDITION_VALUES,
    DEFAULT_DIFFICULTY_LADDER,
    DEFAULT_HIT_LOCATIONS,
    DEFAULT_RANGE_BAND_MALUS,
)
from apps.rules.checks import (
    require_bool,
    require_int,
    require_labelled_values,
    require_text,
    tuples_from_json,
)
from apps.rules.dice import D20
from apps.rules.errors import (
    InvalidHouseRules,
    InvalidValue,
    fr,
)
from apps.rules.requests import REQUEST_RULES

# --- House rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AethoriaHouseRules:
    """Every "(house rule, default)" value of the Aethoria rules page, as one campaign setting."""

    pv_multiplier: int = 2  # PV = 2 x (Force + Vitalité)
    physical_fatigue_multiplier: int = 1  # physical fatigue = Force + Vitalité
    mental_fatigue_multiplier: int = 1  # mental fatigue = Concentration + Esprit
    much_lower_gap: int = 3  # "much lower" when successes <= difficulty - 3
    difficulty_ladder: tuple[tuple[str, int], ...] = DEFAULT_DIFFICULTY_LADDER
    condition_values: tuple[tuple[str, int], ...] = DEFAULT_CONDITION_VALUES
    initiative_ties_by_adresse: bool = True
    initiative_reroll_each_round: bool = False
    parry_force_gap: int = 3  # no parry when attacker Force >= defender Force + 3
    encumbered_dodge_malus: int = -2
    range_band_malus: tuple[tuple[str, int], ...] = DEFAULT_RANGE_BAND_MALUS
    hit_locations: tuple[tuple[int, int, str], ...] = DEFAULT_HIT_LOCATIONS
    armour_layers_stack: bool = False  # several pieces on a location: best RD only
    convert_extra_successes: bool = True
    bleeding_factor: int = 1  # damage after RD >= 1 x Vitalité: bleeding
    fracture_factor: int = 2
    instant_death_factor: int = 3
    instant_death_locations: tuple[str, ...] = ("head", "torso")
    bleeding_pv_per_turn: int = 1
    death_threshold_factor: int = 1  # dead at PV <= -1 x Vitalité
    fatigue_cost_divisor: int = 3  # a spell costs ceil(invested / 3) of each fatigue pool
    unpaid_fatigue_to_pv: bool = True
    burn_pv_per_pouvoir: int = 1  # brûlure d'érys: PV loss = 1 x Pouvoir invested, no armour
    # "Les 1 obtenus comptent pour 2 réussites", without condition: even when the threshold
    # has fallen to 0 or below (second weapon of an attaque double with Force <= 2).
    ones_always_succeed: bool = True
    # A parry is a "jet de parade": the Parade skill. Option: the better of Parade and the
    # parrying weapon's own skill.
    parry_best_of_weapon_skill: bool = False
    # Roll requests (issue #31): which rolls of a PC the console sends to its player by
    # default, and whether a player sees their odds against an NPC.
    requests_initiative: bool = True
    requests_defence: bool = True
    requests_attack: bool = False
    odds_against_npcs: bool = True

    def __post_init__(self) -> None:
        bad = InvalidHouseRules
        small_ints = (
            ("pv_multiplier", fr("Le multiplicateur de PV"), 1, 10),
            ("physical_fatigue_multiplier", fr("Le multiplicateur de fatigue physique"), 1, 10),
            ("mental_fatigue_multiplier", fr("Le multiplicateur de fatigue mentale"), 1, 10),
            ("much_lower_gap", fr("L'écart « très inférieur »"), 1, 20),
            ("parry_force_gap", fr("L'écart de Force empêchant la parade"), 1, 20),
            ("encumbered_dodge_malus", fr("Le malus d'esquive encombrée"), -10, 0),
            ("bleeding_factor", fr("Le seuil de saignement"), 1, 10),
            ("fracture_factor", fr("Le seuil de fracture"), 1, 10),
            ("instant_death_factor", fr("Le seuil de mort instantanée"), 1, 10),
            ("bleeding_pv_per_turn", fr("Les PV perdus par saignement"), 0, 10),
            ("death_threshold_factor", fr("Le seuil de mort"), 0, 10),
            ("fatigue_cost_divisor", fr("Le diviseur du coût en fatigue"), 1, 20),
            ("burn_pv_per_pouvoir", fr("Les PV perdus par point de Pouvoir brûlé"), 0, 10),
        )
        for name, label, low, high in small_ints:
            require_int(getattr(self, name), field=name, label=label, low=low, high=high, error=bad)
        for name, label in (
            ("initiative_ties_by_adresse", fr("Le départage par l'Adresse")),
            ("initiative_reroll_each_round", fr("Relancer l'initiative à chaque round")),
            ("armour_layers_stack", fr("Le cumul des armures")),
            ("convert_extra_successes", fr("La conversion des réussites en dés")),
            ("unpaid_fatigue_to_pv", fr("La fatigue impayée prise sur les PV")),
            ("ones_always_succeed", fr("Un 1 réussit toujours")),
            ("parry_best_of_weapon_skill", fr("La parade au meilleur de Parade et de l'arme")),
            *REQUEST_RULES,
        ):
            require_bool(getattr(self, name), field=name, label=label, error=bad)
        require_labelled_values(
            self.difficulty_ladder,
            field="difficulty_ladder",
            label=fr("L'échelle de difficulté"),
            low=0,
            high=100,
            error=bad,
        )
        require_labelled_values(
            self.condition_values,
            field="condition_values",
            label=fr("Les états de la table"),
            low=-20,
            high=20,
            error=bad,
            allow_empty=True,
        )
        require_labelled_values(
            self.range_band_malus,
            field="range_band_malus",
            label=fr("Les malus de portée"),
            low=-20,
            high=20,
            error=bad,
        )
        _check_hit_locations(self.hit_locations)
        if not isinstance(self.instant_death_locations, tuple):
            raise bad(
                fr("Les localisations mortelles doivent être une liste."),
                field="instant_death_locations",
            )
        known = {location for _, _, location in self.hit_locations}
        for location in self.instant_death_locations:
            if location not in known:
                raise bad(
                    fr(
                        "La localisation mortelle %(location)r n'est pas dans la table de "
                        "localisation."
                    ),
                    field="instant_death_locations",
                    params={"location": location},
                )

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location of the hit-location table, in table order."""
        return tuple(location for _, _, location in self.hit_locations)

    def range_malus(self, band: str) -> int:
        """Dice malus of a range band (short, medium, long, extreme by default)."""
        for name, malus in self.range_band_malus:
            if name == band:
                return malus
        bands = ", ".join(name for name, _ in self.range_band_malus)
        raise InvalidValue(
            fr("Portée inconnue : %(band)r (portées : %(bands)s)."),
            field="range_band",
            params={"band": band, "bands": bands},
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form, for storage in the campaign."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            data[name] = getattr(self, name)
        data["difficulty_ladder"] = [[label, value] for label, value in self.difficulty_ladder]
        data["condition_values"] = [[label, value] for label, value in self.condition_values]
        data["range_band_malus"] = dict(self.range_band_malus)
        data["hit_locations"] = [[low, high, loc] for low, high, loc in self.hit_locations]
        data["instant_death_locations"] = list(self.instant_death_locations)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AethoriaHouseRules:
        """Rebuild from `to_dict` output; unknown keys are ignored, missing ones take defaults."""
        if not isinstance(data, Mapping):
            raise InvalidHouseRules(fr("Les règles maison doivent être un dictionnaire."))
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        if "difficulty_ladder" in known:
            known["difficulty_ladder"] = tuples_from_json(
                known["difficulty_ladder"],
                field="difficulty_ladder",
                size=2,
                error=InvalidHouseRules,
            )
        if "condition_values" in known:
            known["condition_values"] = tuples_from_json(
                known["condition_values"],
                field="condition_values",
                size=2,
                error=InvalidHouseRules,
            )
        if "range_band_malus" in known:
            bands = known["range_band_malus"]
            if isinstance(bands, Mapping):
                # A stored mapping (jsonb) keeps no order: the bands in the rules' order,
                # nearest first, any other after them.
                order = [band for band, _malus in DEFAULT_RANGE_BAND_MALUS]
                bands = sorted(
                    bands.items(),
                    key=lambda item: order.index(item[0]) if item[0] in order else len(order),
                )
            known["range_band_malus"] = tuples_from_json(
                bands, field="range_band_malus", size=2, error=InvalidHouseRules
            )
        if "hit_locations" in known:
            known["hit_locations"] = tuples_from_json(
                known["hit_locations"], field="hit_locations", size=3, error=InvalidHouseRules
            )
        if "instant_death_locations" in known:
            value = known["instant_death_locations"]
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise InvalidHouseRules(
                    fr("Les localisations mortelles doivent être une liste."),
                    field="instant_death_locations",
                )
            known["instant_death_locations"] = tuple(value)
        return cls(**known)


def _check_hit_locations(table: object) -> None:
    # The d20 must land somewhere, exactly once: ranges sorted, contiguous, covering 1..20.
    field_name = "hit_locations"
    if not isinstance(table, tuple) or not table:
        raise InvalidHouseRules(fr("La table de localisation est vide."), field=field_name)
    expected_low = 1
    for entry in table:
        if not isinstance(entry, tuple) or len(entry) != 3:
            raise InvalidHouseRules(
                fr("Chaque ligne de localisation est (de, à, localisation)."), field=field_name
            )
        low, high, location = entry
        require_text(
            location, field=field_name, label=fr("La localisation"), error=InvalidHouseRules
        )
        require_int(
            low,
            field=field_name,
            label=fr("Le début de plage"),
            low=1,
            high=D20,
            error=InvalidHouseRules,
        )
        require_int(
            high,
            field=field_name,
            label=fr("La fin de plage"),
            low=low,
            high=D20,
            error=InvalidHouseRules,
        )
        if low != expected_low:
            raise InvalidHouseRules(
                fr(
                    "La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement "
                    "(la plage de %(location)r commence à %(low)s, attendu %(expected)s)."
                ),
                field=field_name,
                params={"location": location, "low": low, "expected": expected_low},
            )
        expected_low = high + 1
    if expected_low != D20 + 1:
        raise InvalidHouseRules(
            fr("La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement."),
            field=field_name,
        )


DEFAULT_HOUSE_RULES = AethoriaHouseRules()
