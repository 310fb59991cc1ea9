import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

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
    from io import StringIO

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
