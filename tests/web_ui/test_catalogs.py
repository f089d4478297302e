"""The page catalogs: every string of the templates translated, compiled, with French typography."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

WEB_UI = Path(__file__).resolve().parents[2] / "web_ui"
CATALOGS = WEB_UI / "translations"


def _template_ids() -> set[str | tuple[str, ...]]:
    method_map = [("templates/**.html", "jinja2"), ("**.py", "python")]
    found: set[str | tuple[str, ...]] = set()
    for _, _, message, _, _ in extract_from_dir(str(WEB_UI), method_map):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def _po(language: str):  # type: ignore[no-untyped-def]
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_every_page_string_is_translated(language: str) -> None:
    catalog = _po(language)
    missing = []
    for message_id in _template_ids():
        key = message_id[0] if isinstance(message_id, tuple) else message_id
        entry = catalog.get(key)
        strings = entry.string if entry is not None else ""
        if not all(strings if isinstance(strings, tuple) else (strings,)):
            missing.append(key)
    assert missing == []


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_compiled_catalog_matches_its_source(language: str) -> None:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        compiled = read_mo(handle)
    source = _po(language)
    def key(message_id: object) -> object:
        return tuple(message_id) if isinstance(message_id, list | tuple) else message_id

    wanted = {key(m.id): key(m.string) for m in source if m.id and any(key(m.string) or ()) and not m.fuzzy}
    got = {key(m.id): key(m.string) for m in compiled if m.id}
    assert got == wanted
    assert compiled.plural_expr == source.plural_expr


def test_french_counts_zero_and_one_in_the_singular() -> None:
    catalog = _po("fr")
    assert catalog.plural_expr.replace(" ", "") == "(n>1)"


def test_french_puts_a_space_before_double_punctuation() -> None:
    bad = [m.string for m in _po("fr") if m.id for text in ([m.string] if isinstance(m.string, str) else m.string)
           if re.search(r"[^\s(][:;!?](\s|$)", re.sub(r"%\(\w+\)s", "x", text))]
    assert bad == []
