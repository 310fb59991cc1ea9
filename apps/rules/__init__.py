"""The rules engine: pure Python, no Django, no clock, no randomness of its own.

Modules: `errors` (refusals with French messages and stable codes), `dice` (face checks and the
injected rollers), `odds` (exact distributions on `Fraction`), `initiative` (shared ordering),
`ew` (EW-System) and `aethoria` (Aethoria), two packages split by topic whose `__init__` is the
system's public face. House rules are frozen dataclasses passed in.
"""
