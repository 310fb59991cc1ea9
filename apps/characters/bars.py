"""A pool drawn as a bar (components/pool_bars.html): the same value gets the same colour on
the dashboard, the campaign page, the sheet and the encounter console."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    """A pool as a <meter> with its numbers: below a quarter of its maximum it is shown as
    bad, below half as a warning (the browser colours it from ``low`` and ``high``)."""

    key: str
    label: str
    value: int
    max: int

    @property
    def low(self) -> float:
        return self.max / 4

    @property
    def high(self) -> float:
        return self.max / 2

    # As the meter's attributes read them ("6.75", "5"): formatted here, a template filter
    # a bar would cost as much as the rest of its numbers (a big fight's console has hundreds).
    @property
    def low_attribute(self) -> str:
        return f"{self.low:g}"

    @property
    def high_attribute(self) -> str:
        return f"{self.high:g}"

    @property
    def meter_value(self) -> int:
        return max(0, self.value)  # Aethoria PV can fall below 0
