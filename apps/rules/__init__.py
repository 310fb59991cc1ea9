"""The rules engine: pure Python, no Django, no clock, no randomness of its own.

Modules: `errors` (refusals with French messages and stable codes), `dice` (face checks and the
injected rollers), `odds` (exact distributions on `Fraction`), `initiative` (shared ordering),
`ew` (EW-System) and `aethoria` (Aethoria). House rules are frozen dataclasses passed in.
"""
