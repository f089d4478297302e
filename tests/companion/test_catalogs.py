"""The one set of catalogs: complete in fr, en and nl, placeholders kept, compiled, read without Flask."""

from __future__ import annotations

import importlib.util
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from companion.buffet.announcer import BuffetVoice
from companion.catalogs import LANGUAGES, LOCALE_DIR
from companion.deck_phrases import MAX_NAMED, DeckVoice
from companion.seam import Part
from web_ui.games.buffet.pages import LABELS

ROOT = Path(__file__).resolve().parents[2]
PERCENT_FIELD = re.compile(r"%\((\w+)\)[sd]")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs_tool", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _po(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _forms(text: str | tuple[str, ...] | list[str]) -> list[str]:
    return [text] if isinstance(text, str) else list(text)


def _fields(text: str) -> tuple[set[str], set[str]]:
    """The field names of a template ({name} or %(name)s) and the format specs it uses."""
    names, specs = set(PERCENT_FIELD.findall(text)), set()
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(name)
            if spec:
                specs.add(spec)
    return names, specs


def _entries(language: str) -> list[Message]:
    return [message for message in _po(language) if message.id]


def test_catalogs_are_in_step_with_the_code_and_compiled() -> None:
    """Every marked string is in the .po files, nothing else is, and each .mo is its .po compiled."""
    assert [str(path.relative_to(ROOT)) for path in _tool().stale()] == []


def test_catalogs_name_no_babel_version() -> None:
    """A fresh clone installs the newest Babel: no catalog byte may depend on which (CI failed on that)."""
    import babel

    _tool()  # loading the tool is what keeps the version out of what it writes
    for language in LANGUAGES:
        for suffix in (".po", ".mo"):
            data = (LOCALE_DIR / language / "LC_MESSAGES" / f"messages{suffix}").read_bytes()
            assert f"Babel {babel.__version__}".encode() not in data
            assert b"Generated-By: Babel (Marmite catalogs)" in data


def test_the_three_languages_hold_the_same_entries() -> None:
    keys = {language: {(str(m.id), m.context) for m in _entries(language)} for language in LANGUAGES}
    assert keys["fr"] == keys["en"] == keys["nl"]
    assert len(keys["fr"]) > 400


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated(language: str) -> None:
    untranslated = [(m.context, m.id) for m in _entries(language) if m.fuzzy or not all(_forms(m.string))]
    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    """Same field names in the source and every form; only French may add the elision spec `de`."""
    wrong = []
    for message in _entries(language):
        sources = _forms(message.id)
        names, specs = _fields(sources[0])
        allowed = specs | ({"de"} if language == "fr" else set())
        for text in sources[1:]:
            assert _fields(text)[0] == names, message.id
        for text in _forms(message.string):
            got_names, got_specs = _fields(text)
            if got_names != names or not got_specs <= allowed:
                wrong.append((message.context, text))
    assert wrong == []


def test_plural_rules() -> None:
    assert _po("fr").plural_expr.replace(" ", "") == "(n>1)"
    assert _po("en").plural_expr.replace(" ", "") == "(n!=1)"
    assert _po("nl").plural_expr.replace(" ", "") == "(n!=1)"


def test_french_puts_a_space_before_double_punctuation() -> None:
    bad = [text for message in _entries("fr") for text in _forms(message.string)
           if re.search(r"[^\s(][:;!?](\s|$)", re.sub(r"%\(\w+\)s|\{[^}]*\}", "x", text))]
    assert bad == []


def test_the_core_speaks_from_the_catalogs_without_flask_or_babel() -> None:
    code = ("import sys; from companion.phrases import TABLE_VOICE; from companion.seam import Part;"
            "print(TABLE_VOICE.render([Part('nothing_yet')], 'nl'));"
            "print(sorted(m for m in ('flask', 'flask_babel', 'babel', 'web_ui') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.splitlines() == ["Nog niets om te herhalen.", "[]"]


def test_the_deck_desk_lists_cards_with_french_typography_and_plurals() -> None:
    """Found in the move: "A; B" and "et 1 autres" in French."""
    voice = DeckVoice(lambda code, language: code.upper())
    assert voice.names(["a", "b", "c"], "fr") == "A ; B et C"
    assert voice.names([str(n) for n in range(MAX_NAMED + 1)], "fr").endswith("6 ; 7 et 1 autre")
    assert voice.names([str(n) for n in range(MAX_NAMED + 2)], "en").endswith("6; 7 and 2 more")


@pytest.mark.parametrize(("language", "one", "two"), [
    ("fr", "Souris derrière : à 1 case", "Souris derrière : à 2 cases"),
    ("en", "Mouse behind: 1 square back", "Mouse behind: 2 squares back"),
    ("nl", "Muis achter je: 1 vak terug", "Muis achter je: 2 vakken terug"),
])
def test_the_buffet_phone_counts_squares(language: str, one: str, two: str) -> None:
    """Found in the move: "à 1 cases", "1 squares back", "1 vakken terug"."""
    assert LABELS.format("behind", language, n=1) == one
    assert LABELS.format("behind", language, n=2) == two


def test_adopt_takes_only_missing_translations_from_older_catalogs(tmp_path: Path) -> None:
    """What the lead runs after merging a branch that still wrote the old web_ui/translations."""
    tool = _tool()
    shutil.copytree(LOCALE_DIR, tmp_path / "here")
    tool.LOCALE_DIR = tmp_path / "here"
    french = _po("fr")
    french.get("Undo").string = ""
    french.get("Table controls").string = "Autre chose"
    tool.po_path("fr").write_bytes(tool.po_bytes(french))
    older = tmp_path / "older" / "fr" / "LC_MESSAGES"
    older.mkdir(parents=True)
    stale = Catalog(locale="fr")
    stale.add("Undo", "Annuler")
    stale.add("Table controls", "Commandes de la table")
    (older / "messages.po").write_bytes(tool.po_bytes(stale))
    english = _po("en")
    english.get("Undo").string = ""
    tool.po_path("en").write_bytes(tool.po_bytes(english))
    tool.adopt(tmp_path / "older")
    with tool.po_path("fr").open("rb") as handle:
        adopted = read_po(handle, locale="fr")
    assert adopted.get("Undo").string == "Annuler"
    assert adopted.get("Table controls").string == "Autre chose"
    with tool.po_path("en").open("rb") as handle:
        assert read_po(handle, locale="en").get("Undo").string == "Undo"  # an English page string is its msgid


@pytest.mark.parametrize(("language", "said"), [
    ("fr", " Égalité départagée par les plats ; plat décisif : pommes de terre."),
    ("en", " Tie broken by the foods; deciding food: potatoes."),
    ("nl", " Gelijkspel beslist door de gerechten; doorslaggevend gerecht: aardappelen."),
])
def test_the_tie_break_names_a_plural_food_without_a_verb_to_agree(language: str, said: str) -> None:
    """Found in the move: "pommes de terre fait", "potatoes decides", "aardappelen maakt"."""
    assert BuffetVoice().render([Part("tie_break", {"food": "potato"})], language) == said


def test_adopt_gives_each_language_its_own_translation_of_a_new_string(tmp_path: Path) -> None:
    """Found at a merge: a string new to the catalogs took French in English and Dutch too."""
    tool = _tool()
    shutil.copytree(LOCALE_DIR, tmp_path / "here")
    tool.LOCALE_DIR = tmp_path / "here"
    extracted = tool.template

    def with_a_new_string() -> Catalog:
        found: Catalog = extracted()
        found.add("Resume later")
        return found

    tool.template = with_a_new_string
    older = {"fr": "Reprendre plus tard", "en": "", "nl": "Later hervatten"}
    for language, text in older.items():
        folder = tmp_path / "older" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        stale = Catalog(locale=language)
        stale.add("Resume later", text)
        (folder / "messages.po").write_bytes(tool.po_bytes(stale))
    tool.adopt(tmp_path / "older")
    adopted = {}
    for language in LANGUAGES:
        with tool.po_path(language).open("rb") as handle:
            adopted[language] = read_po(handle, locale=language).get("Resume later").string
    assert adopted == {"fr": "Reprendre plus tard", "en": "Resume later", "nl": "Later hervatten"}


DUTCH_AS_FRENCH = {"Champignons"}
"""Words Dutch shares with French on purpose (the 2005 mushroom suit)."""


@pytest.mark.parametrize("language", ["en", "nl"])
def test_english_and_dutch_never_show_the_french_text(language: str) -> None:
    french = {(m.context, str(m.id)): m.string for m in _entries("fr")}
    same = [(m.context, m.id) for m in _entries(language)
            if m.string == french[(m.context, str(m.id))] and m.string != m.id
            and not (language == "nl" and m.string in DUTCH_AS_FRENCH)]
    assert same == []
