"""What the table itself says, whatever the game: its languages, reader health, nothing to repeat."""

from __future__ import annotations

import string
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from companion.seam import Part

LANGUAGES: tuple[str, ...] = ("fr", "en", "nl")
DEFAULT_LANGUAGE = "fr"

TABLE_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "where_no_game": "Aucune partie en cours.",
        "nothing_yet": "Rien à répéter pour l'instant.",
        "reader_ok": "Lecteur {reader} prêt.",
        "reader_down": "Lecteur {reader} en panne : {detail}.",
        "storage_full": "Le disque est plein : rien n'est enregistré.",
        "storage_read_only": "Le disque est en lecture seule : rien n'est enregistré.",
        "storage_io": "Le disque n'arrive plus à écrire : rien n'est enregistré.",
        "storage_ok": "Le disque écrit de nouveau : les coups sont enregistrés.",
        "pin_guessing": "Attention : quelqu'un essaie de deviner le code PIN de la table.",
        "game_resumed_turn": "Partie du {date:day} reprise : à {turn} de jouer.",
        "game_resumed": "Partie du {date:day} reprise : manche {round}.",
        "game_abandoned": "Partie du {date:day} abandonnée à la manche {round}.",
    },
    "en": {
        "where_no_game": "No game in progress.",
        "nothing_yet": "Nothing to repeat yet.",
        "reader_ok": "Reader {reader} ready.",
        "reader_down": "Reader {reader} down: {detail}.",
        "storage_full": "The disk is full: nothing is being recorded.",
        "storage_read_only": "The disk is read-only: nothing is being recorded.",
        "storage_io": "The disk cannot write: nothing is being recorded.",
        "storage_ok": "The disk writes again: plays are being recorded.",
        "pin_guessing": "Warning: someone is trying to guess the table PIN.",
        "game_resumed_turn": "Game of {date:day} resumed: {turn} to play.",
        "game_resumed": "Game of {date:day} resumed: round {round}.",
        "game_abandoned": "Game of {date:day} abandoned in round {round}.",
    },
    "nl": {
        "where_no_game": "Geen spel bezig.",
        "nothing_yet": "Nog niets om te herhalen.",
        "reader_ok": "Lezer {reader} klaar.",
        "reader_down": "Lezer {reader} werkt niet: {detail}.",
        "storage_full": "De schijf is vol: er wordt niets opgeslagen.",
        "storage_read_only": "De schijf is alleen-lezen: er wordt niets opgeslagen.",
        "storage_io": "De schijf kan niet schrijven: er wordt niets opgeslagen.",
        "storage_ok": "De schijf schrijft weer: de zetten worden opgeslagen.",
        "pin_guessing": "Let op: iemand probeert de pincode van de tafel te raden.",
        "game_resumed_turn": "Spel van {date:day} hervat: {turn} is aan de beurt.",
        "game_resumed": "Spel van {date:day} hervat: ronde {round}.",
        "game_abandoned": "Spel van {date:day} afgebroken in ronde {round}.",
    },
}


ELIDING = frozenset("aeiouyhàâäéèêëîïôöùûüAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜ")
"""First letters before which French "de" becomes "d'" (names and suit names; h counted as mute)."""


def is_singular(count: int, language: str) -> bool:
    """The plural rule: French uses the singular for 0 and 1, English and Dutch for 1 only."""
    return abs(count) <= 1 if language == "fr" else abs(count) == 1


MONTHS: dict[str, tuple[str, ...]] = {
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
}


def day_name(moment: str, language: str) -> str:
    """An ISO 8601 UTC time as the local day said aloud: "21 novembre", "1er mai", "21 November"."""
    try:
        when = datetime.fromisoformat(moment).astimezone()
    except ValueError:
        return moment
    months = MONTHS.get(language, MONTHS[DEFAULT_LANGUAGE])
    day = "1er" if language == "fr" and when.day == 1 else str(when.day)
    return f"{day} {months[when.month - 1]}"


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
        if format_spec == "day":
            return day_name(str(value), self.language)
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
        phrases = TABLE_PHRASES.get(language, TABLE_PHRASES[DEFAULT_LANGUAGE])
        return " ".join(phrase_format(phrases[part.key], language, part.fields) for part in parts)


TABLE_VOICE = TableVoice()
