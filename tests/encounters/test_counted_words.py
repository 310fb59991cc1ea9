"""Words that agree with their number (issue 29): one arrival "rejoint" the fight, a loss of
one point is "point", not "points"."""

import html

import pytest
from django.template import Context, Template
from django.utils import translation

from apps.encounters.log import describe
from apps.encounters.models import Event


def arrivals(*rows) -> Event:
    return Event(kind="reinforce", data={"arrivals": list(rows)})


def test_one_reinforcement_joins_in_the_singular():
    line = describe(arrivals({"name": "Commissaire Garnier", "total": 9}))
    assert line == "Renfort : Commissaire Garnier (9) rejoint le combat."


def test_several_reinforcements_join_in_the_plural():
    line = describe(arrivals({"name": "Garde", "total": 9}, {"name": "Chien", "total": 4}))
    assert line == "Renforts : Garde (9), Chien (4) rejoignent le combat."


def test_in_english_too():
    with translation.override("en"):
        assert describe(arrivals({"name": "Garde"})) == "Reinforcement: Garde joins the fight."


@pytest.mark.parametrize(
    ("amount", "pool", "words"),
    [
        (1, "eclat", "−1 point d'éclat"),
        (2, "eclat", "−2 points d'éclat"),
        (1, "superficial_left", "−1 point superficiel"),
        (9, "superficial_left", "−9 points superficiels"),
        (1, "lethal_left", "−1 point létal"),
        (3, "lethal_left", "−3 points létaux"),
        (4, "pv", "−4 PV"),
    ],
)
def test_a_summarys_loss_agrees_with_its_number(amount, pool, words):
    template = Template("{% load odds %}{{ amount|pool_loss:pool }}")
    assert html.unescape(template.render(Context({"amount": amount, "pool": pool}))) == words
