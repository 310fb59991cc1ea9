"""The English translation is complete, compiled, and what an English user actually sees.

French is the source language (the msgids); ``config/locale/en`` is the only catalog. After
marking new strings, run ``make messages``, translate, and commit both the .po and the .mo.
"""

import ast
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

PO_FILE = Path(settings.LOCALE_PATHS[0]) / "en" / "LC_MESSAGES" / "django.po"


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def label(self) -> str:
        return f"django.po:{self.line} {self.msgid!r}"


def parse_po(text: str) -> list[Entry]:
    """The entries of a .po file (obsolete ``#~`` ones left out), header included."""
    entries: list[Entry] = []
    entry, target = Entry(), None

    def finish():
        nonlocal entry, target
        if target is not None:
            entries.append(entry)
        entry, target = Entry(), None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line:
                finish()
            continue
        if line.startswith("#,"):
            if target is not None and target[0] == "msgstr":
                finish()
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            value = ast.literal_eval(line)
            kind, index = target
            if kind == "msgstr":
                entry.msgstr[index] += value
            else:
                setattr(entry, kind, (getattr(entry, kind) or "") + value)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and target is not None and target[0] == "msgstr":
            finish()
        value = ast.literal_eval(rest)
        match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if match:
            target = ("msgstr", int(match[1]))
            entry.msgstr[target[1]] = value
        elif keyword == "msgstr":
            target = ("msgstr", 0)
            entry.msgstr[0] = value
        elif keyword in ("msgid", "msgid_plural", "msgctxt"):
            if keyword == "msgid":
                entry.line = number
            target = (keyword, None)
            setattr(entry, keyword, value)
        else:
            raise ValueError(f"django.po:{number}: cannot read {raw!r}")
    finish()
    return entries


def catalog() -> list[Entry]:
    """The translatable entries of the committed English catalog (header left out)."""
    return [e for e in parse_po(PO_FILE.read_text(encoding="utf-8")) if e.msgid]


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]")


# --- The catalog ---------------------------------------------------------------------------


def test_the_parser_reads_plurals_contexts_and_multiline_strings():
    entries = parse_po(
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
        '#, fuzzy, python-format\nmsgctxt "dé"\nmsgid ""\n"%(n)s réussite "\n"au \\"jet\\""\n'
        'msgid_plural "%(n)s réussites"\nmsgstr[0] "%(n)s success"\nmsgstr[1] ""\n\n'
        '#~ msgid "vieux"\n#~ msgstr "old"\n'
    )
    header, entry = entries
    assert header.msgstr == {0: "Language: en\n"}
    assert entry.msgctxt == "dé"
    assert entry.msgid == '%(n)s réussite au "jet"'
    assert entry.msgid_plural == "%(n)s réussites"
    assert entry.msgstr == {0: "%(n)s success", 1: ""}
    assert entry.flags == {"fuzzy", "python-format"}


def test_the_catalog_has_all_its_entries():
    # A broken parse (or an emptied file) must not make the checks below pass vacuously.
    assert len(catalog()) > 500


def test_every_entry_is_translated_and_none_is_fuzzy():
    header = parse_po(PO_FILE.read_text(encoding="utf-8"))[0]
    assert not header.msgid and "fuzzy" not in header.flags, "the header is marked fuzzy"
    problems = []
    for entry in catalog():
        forms = 2 if entry.msgid_plural else 1
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.label}")
        if sorted(entry.msgstr) != list(range(forms)) or not all(entry.msgstr.values()):
            problems.append(f"untranslated: {entry.label}")
    assert not problems, (
        "English catalog incomplete; run `make messages`, translate, drop the fuzzy flags:\n"
        + "\n".join(problems)
    )


def test_translations_keep_every_placeholder():
    problems = []
    for entry in catalog():
        expected = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            expected |= set(PLACEHOLDER.findall(entry.msgid_plural))
        for index, text in entry.msgstr.items():
            found = set(PLACEHOLDER.findall(text))
            # Only a plural's singular form may leave the count out ("one round").
            may_drop = entry.msgid_plural and index == 0
            if not found <= expected or (found != expected and not may_drop):
                problems.append(f"{entry.label}[{index}]: {sorted(found)} for {sorted(expected)}")
    assert not problems, "\n".join(problems)


def test_the_compiled_catalog_matches_the_po_file():
    """Every entry of the .po answers in English at run time: the committed .mo is current."""
    stale = []
    with translation.override("en"):
        for entry in catalog():
            if entry.msgid_plural:
                for n, index in ((1, 0), (2, 1)):
                    got = (
                        translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                        if entry.msgctxt
                        else translation.ngettext(entry.msgid, entry.msgid_plural, n)
                    )
                    if got != entry.msgstr[index]:
                        stale.append(f"{entry.label}[{index}] -> {got!r}")
            else:
                got = (
                    translation.pgettext(entry.msgctxt, entry.msgid)
                    if entry.msgctxt
                    else translation.gettext(entry.msgid)
                )
                if got != entry.msgstr[0]:
                    stale.append(f"{entry.label} -> {got!r}")
    assert not stale, (
        "django.mo is older than django.po; run `make messages` (compilemessages):\n"
        + "\n".join(stale)
    )


def test_french_stays_the_default():
    with translation.override("fr"):
        assert translation.gettext("Se déconnecter") == "Se déconnecter"
    with translation.override("en"):
        assert translation.gettext("Se déconnecter") == "Log out"


# --- Pages an English user sees ------------------------------------------------------------

# Interface words of the French UI that must never reach an English page (game terms such as
# "points d'éclat", "PV" or "esquive" stay French on purpose and are not listed).
FRENCH_UI = [
    "Se déconnecter",
    "Se connecter",
    "Connexion",
    "Mot de passe",
    "Accueil",
    "Aller au contenu",
    "Enregistrer",
    "Retour",
    "Nouvelle rencontre",
    "Journal",
    "Réserves",
    "Équipement",
    "Expérience",
    "Dépenser",
    "Tour suivant",
    "Annuler",
    "Terminer",
    "Chance de toucher",
    "Lancer",
    "Aucun",
    "Aucune",
    "Pas encore",
    "Rien",
    "Préférences",
    "joué par",
    "Au tour de",
    "Début du combat",
]


class _VisibleText(HTMLParser):
    """The text a user reads: text nodes, plus titles, labels and placeholders."""

    ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "hx-confirm", "data-confirm"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts += [value for name, value in attrs if name in self.ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def french_left(response) -> list[str]:
    assert response.status_code == 200
    parser = _VisibleText()
    parser.feed(response.content.decode())
    text = " ".join(" ".join(parser.parts).split())
    return [word for word in FRENCH_UI if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]


def test_the_login_page_speaks_english_once_chosen(client, db):
    login = reverse("accounts:login")
    assert "Se connecter" in client.get(login).content.decode()
    client.post(reverse("accounts:language_set"), {"language": "en", "next": login})
    response = client.get(login)
    assert response["Content-Language"] == "en"
    assert "Log in" in response.content.decode()
    assert french_left(response) == []


@pytest.mark.parametrize("page", ["home", "campaign", "sheet", "console", "table"])
def test_main_pages_have_no_french_ui_for_an_english_user(client, english_table, page):
    encounter = english_table["encounter"]
    url = {
        "home": reverse("home"),
        "campaign": reverse("campaigns:detail", args=[english_table["campaign"].pk]),
        "sheet": reverse("characters:detail", args=[english_table["brandon"].pk]),
        "console": reverse("encounters:console", args=[encounter.pk]),
        "table": reverse("encounters:table", args=[encounter.pk]),
    }[page]
    response = client.get(url)
    assert response["Content-Language"] == "en"
    assert french_left(response) == []


def test_the_combat_log_is_written_in_english(client, english_table):
    response = client.get(reverse("encounters:console", args=[english_table["encounter"].pk]))
    text = response.content.decode()
    assert "The fight begins. Initiative:" in text
    assert "Début du combat" not in text


def test_the_check_sees_french_when_french_is_chosen(client, english_table):
    """The word list does catch the French UI, so an empty result above means something."""
    english_table["campaign"].memberships.get(role="gm").user.set_language("fr")
    response = client.get(reverse("encounters:console", args=[english_table["encounter"].pk]))
    assert {"Se déconnecter", "Tour suivant", "Début du combat"} <= set(french_left(response))
