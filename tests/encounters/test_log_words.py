"""The combat log in words (issue 17): an undo or a redo says what it reverted, older lines
that carry no copy of their step still read as a sentence, and no internal number shows."""

from apps.encounters.log import describe
from apps.encounters.models import Event


def test_an_undo_says_what_it_undid_in_words():
    step = {"name": "Ysolde", "reveal": True}
    line = describe(Event(kind="undo", data={"of": 13, "kind": "reveal", "step": step}))
    assert line == "Annulé : Ysolde entre en scène."
    line = describe(Event(kind="redo", data={"of": 13, "kind": "reveal", "step": step}))
    assert line == "Rétabli : Ysolde entre en scène."


def test_an_older_undo_line_without_its_step_names_no_number():
    line = describe(Event(kind="undo", data={"of": 13, "kind": "reveal"}))
    assert line == "Annulé : une étape." and "13" not in line
