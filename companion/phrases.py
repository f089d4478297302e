"""What the table itself says, whatever the game: its languages, reader health, nothing to repeat."""

from __future__ import annotations

from collections.abc import Iterable

from companion.seam import Part

LANGUAGES: tuple[str, ...] = ("fr", "en", "nl")
DEFAULT_LANGUAGE = "fr"

TABLE_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "where_no_game": "Aucune partie en cours.",
        "nothing_yet": "Rien à répéter pour l'instant.",
        "reader_ok": "Lecteur {reader} prêt.",
        "reader_down": "Lecteur {reader} en panne : {detail}.",
        "pin_guessing": "Attention : quelqu'un essaie de deviner le code PIN de la table.",
    },
    "en": {
        "where_no_game": "No game in progress.",
        "nothing_yet": "Nothing to repeat yet.",
        "reader_ok": "Reader {reader} ready.",
        "reader_down": "Reader {reader} down: {detail}.",
        "pin_guessing": "Warning: someone is trying to guess the table PIN.",
    },
    "nl": {
        "where_no_game": "Geen spel bezig.",
        "nothing_yet": "Nog niets om te herhalen.",
        "reader_ok": "Lezer {reader} klaar.",
        "reader_down": "Lezer {reader} werkt niet: {detail}.",
        "pin_guessing": "Let op: iemand probeert de pincode van de tafel te raden.",
    },
}


class TableVoice:
    """Renders the table's own parts (reader health, nothing yet, no game) in any language."""

    def render(self, parts: Iterable[Part], language: str) -> str:
        phrases = TABLE_PHRASES.get(language, TABLE_PHRASES[DEFAULT_LANGUAGE])
        return " ".join(phrases[part.key].format(**part.fields) for part in parts)


TABLE_VOICE = TableVoice()
