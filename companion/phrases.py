"""What the table itself says, whatever the game: its languages, reader health, nothing to repeat.

Its words are in the catalogs (`companion/catalogs.py`), under the context `table.<key>`.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from companion.catalogs import DEFAULT_LANGUAGE, LANGUAGES, Phrasebook, said
from companion.seam import Part

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "TABLE_VOICE", "TableVoice", "phrase_format"]

SAID = Phrasebook(
    "table.",
    said("table.where_no_game", "No game in progress."),
    said("table.nothing_yet", "Nothing to repeat yet."),
    said("table.reader_ok", "Reader {reader} ready."),
    said("table.reader_down", "Reader {reader} down: {detail}."),
    said("table.storage_full", "The disk is full: nothing is being recorded."),
    said("table.storage_read_only", "The disk is read-only: nothing is being recorded."),
    said("table.storage_io", "The disk cannot write: nothing is being recorded."),
    said("table.storage_ok", "The disk writes again: plays are being recorded."),
    said("table.pin_guessing", "Warning: someone is trying to guess the table PIN."),
)


# Until Chaud Devant's phrases move to the catalogs: its own plural mini-language.
ELIDING = frozenset("aeiouyhàâäéèêëîïôöùûüAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜ")
"""First letters before which French "de" becomes "d'" (names and suit names; h counted as mute)."""


def is_singular(count: int, language: str) -> bool:
    """The plural rule: French uses the singular for 0 and 1, English and Dutch for 1 only."""
    return abs(count) <= 1 if language == "fr" else abs(count) == 1


class PhraseFormatter(string.Formatter):
    """`str.format` with two language-aware specs used by every phrasebook.

    `{n:#étoile|étoiles}` prints the count and the word in the right number ("1 étoile", "0 étoile",
    "2 étoiles"); `{n:?gagne|gagnent}` prints only the word; `{name:de}` prints "de Bruno" or
    "d'Anne" (French elision; in other languages the spec is just "de " + the value).
    """

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith(("#", "?")) and isinstance(value, int):
            one, _, other = format_spec[1:].partition("|")
            word = one if is_singular(value, self.language) else other
            return f"{value} {word}" if format_spec[0] == "#" else word
        if format_spec == "de":
            text = str(value)
            return f"d'{text}" if self.language == "fr" and text[:1] in ELIDING else f"de {text}"
        return str(super().format_field(value, format_spec))


FORMATTERS = {language: PhraseFormatter(language) for language in LANGUAGES}


def phrase_format(template: str, language: str, fields: dict[str, Any]) -> str:
    """Fill a phrasebook template for a language (plurals and elision included)."""
    formatter = FORMATTERS.get(language, FORMATTERS[DEFAULT_LANGUAGE])
    return formatter.vformat(template, (), fields)


class TableVoice:
    """Renders the table's own parts (reader health, nothing yet, no game) in any language."""

    def render(self, parts: Iterable[Part], language: str) -> str:
        return " ".join(SAID.format(part.key, language, **part.fields) for part in parts)


TABLE_VOICE = TableVoice()
