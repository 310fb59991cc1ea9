"""The rarely used fields of the Aethoria attack form, folded under "Plus d'options" so the
odds and the roll button stay on screen (issue 17); the fold opens by itself when one of them
holds something the GM should see: a value other than its default, or a refusal."""

from __future__ import annotations

FOLDED = (
    "second_weapon",
    "extra_successes",
    "fatigue",
    "defence_fatigue",
    "damage_fatigue",
    "encumbered",
    "defence2",
    "parry_with2",
    "split1",
    "prefer_location",
    "keep",
    "range_band",
    "covered",
    "rank_zero_allowed",
)
# What a field that holds nothing looks like, bound or not ("0" and 0 for a count).
_EMPTY = (None, "", False, 0, "0", "none")


def _plain(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(sorted(str(v) for v in value))
    return "" if value in _EMPTY else str(value)


def folded_open(form) -> bool:
    """Whether the fold shows opened: a folded field refused, or set otherwise than its
    default (a remembered choice, a value typed before the form came back)."""
    for name in FOLDED:
        if name not in form.fields or (form.is_bound and name not in form.data):
            continue  # not posted: a box left unticked, or a form built by hand
        bound = form[name]
        if bound.errors or _plain(bound.value()) != _plain(form.fields[name].initial):
            return True
    return False
