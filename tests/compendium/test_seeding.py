from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from apps.compendium.models import EwWeapon, SeededRow

GROUPS = """
model = "auth.Group"
key = ["name"]

[[rows]]
name = "Meneurs"
permissions = [["view_user", "accounts", "user"], ["change_user", "accounts", "user"]]

[[rows]]
name = "Joueurs"
permissions = []
"""


def seed(folder, **options) -> str:
    out = StringIO()
    call_command("seed", folder=folder, stdout=out, **options)
    return out.getvalue()


@pytest.fixture
def seeds(tmp_path):
    (tmp_path / "10_groups.toml").write_text(GROUPS, encoding="utf-8")
    return tmp_path


def snapshot():
    return [
        (g.pk, g.name, sorted(g.permissions.values_list("codename", flat=True)))
        for g in Group.objects.order_by("pk")
    ]


@pytest.mark.django_db
def test_seeding_twice_changes_nothing(seeds):
    assert "2 created, 0 updated, 0 unchanged" in seed(seeds)
    first = snapshot()
    assert "0 created, 0 updated, 2 unchanged" in seed(seeds)
    assert snapshot() == first
    assert first[0][2] == ["change_user", "view_user"]


@pytest.mark.django_db
def test_seeding_updates_rows_whose_values_changed(seeds):
    seed(seeds)
    (seeds / "10_groups.toml").write_text(
        GROUPS.replace('["change_user", "accounts", "user"]', ""), encoding="utf-8"
    )
    assert "0 created, 1 updated, 1 unchanged" in seed(seeds)
    meneurs = Group.objects.get(name="Meneurs")
    assert list(meneurs.permissions.values_list("codename", flat=True)) == ["view_user"]


@pytest.mark.django_db
def test_a_broken_seed_file_names_the_file_and_row_and_loads_nothing(seeds):
    (seeds / "20_bad.toml").write_text(
        'model = "auth.Group"\nkey = ["name"]\n[[rows]]\nname = "X"\n'
        'permissions = [["nope", "accounts", "user"]]\n',
        encoding="utf-8",
    )
    with pytest.raises(CommandError, match=r"20_bad.toml, row 1: no auth.Permission"):
        seed(seeds)
    assert not Group.objects.exists()


@pytest.mark.django_db
def test_the_project_seeds_load_twice_without_change(settings):
    seed(settings.BASE_DIR / "seeds")
    second = seed(settings.BASE_DIR / "seeds")
    assert " 0 created, 0 updated," in second


@pytest.mark.django_db
def test_missing_only_creates_new_rows_and_keeps_edited_ones(seeds):
    seed(seeds)
    meneurs = Group.objects.get(name="Meneurs")
    meneurs.permissions.clear()  # an admin's edit
    (seeds / "20_more.toml").write_text(
        'model = "auth.Group"\nkey = ["name"]\n[[rows]]\nname = "Spectateurs"\n',
        encoding="utf-8",
    )
    assert "1 created, 0 updated, 2 unchanged" in seed(seeds, missing_only=True)
    assert not meneurs.permissions.exists()


@pytest.mark.django_db
def test_reseeding_keeps_an_admins_edit_and_names_it(settings):
    seed(settings.SEEDS_DIR)
    knife = EwWeapon.objects.get(name="Couteau")
    knife.damage_bonus = 3  # as the admin's change form saves it
    knife.save()
    out = seed(settings.SEEDS_DIR)
    assert " 0 updated," in out and "1 edited since seeded" in out
    assert "EwWeapon Couteau (damage_bonus)" in out
    knife.refresh_from_db()
    assert knife.damage_bonus == 3


@pytest.mark.django_db
def test_a_changed_file_still_updates_rows_nobody_edited(seeds):
    seed(seeds)
    (seeds / "10_groups.toml").write_text(
        GROUPS.replace("permissions = []", 'permissions = [["view_user", "accounts", "user"]]'),
        encoding="utf-8",
    )
    assert "0 created, 1 updated, 1 unchanged, 0 edited" in seed(seeds)


@pytest.mark.django_db
def test_reset_lists_what_it_overwrites_then_overwrites_it(seeds):
    seed(seeds)
    Group.objects.get(name="Meneurs").permissions.clear()
    out = seed(seeds, reset=True, interactive=False)
    assert "--reset overwrites these rows" in out and "Group Meneurs (permissions)" in out
    assert "1 updated" in out
    assert Group.objects.get(name="Meneurs").permissions.count() == 2


@pytest.mark.django_db
def test_reset_asks_first_and_a_no_changes_nothing(seeds, monkeypatch):
    seed(seeds)
    Group.objects.get(name="Meneurs").permissions.clear()
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    assert "Nothing changed." in seed(seeds, reset=True)
    assert not Group.objects.get(name="Meneurs").permissions.exists()


@pytest.mark.django_db
def test_a_row_that_differs_and_was_never_recorded_is_kept(seeds):
    seed(seeds)
    SeededRow.objects.all().delete()  # loaded by a version that kept no records
    Group.objects.get(name="Meneurs").permissions.clear()
    out = seed(seeds)
    assert "1 edited since seeded" in out
    assert not Group.objects.get(name="Meneurs").permissions.exists()
