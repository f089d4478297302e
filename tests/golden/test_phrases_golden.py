"""Every phrase and page label of every game, in every language, byte for byte as recorded.

`phrases.json` holds representative cases (every part key with each kind of field value: names
that elide or not, counts 0, 1, 2 and negative, every card, plate, suit, food, number and place)
and the text the code said for them when they were recorded. Re-record only a deliberate change
of wording: `python -m tests.golden.test_phrases_golden`, then review the diff of the JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import catalogs
from companion.buffet import KIND as BUFFET
from companion.buffet.announcer import BuffetVoice
from companion.buffet.phrases import SAID as BUFFET_SAID
from companion.chaud_devant import KIND as CHAUD_DEVANT
from companion.chaud_devant import deck_names
from companion.chaud_devant.announcer import EditionVoice
from companion.chaud_devant.phrases import SAID as CHAUD_DEVANT_SAID
from companion.deck_phrases import SAID as DECK_SAID
from companion.deck_phrases import DeckVoice
from companion.phrases import SAID as TABLE_SAID
from companion.phrases import TABLE_VOICE
from companion.seam import Part, Voice
from web_ui.deck_words import WORDS as DECK_WORDS
from web_ui.deck_words import words
from web_ui.games.buffet.pages import DECK_WORDS as BUFFET_DECK_WORDS
from web_ui.games.buffet.pages import LABELS as BUFFET_LABELS
from web_ui.games.buffet.pages import helpers
from web_ui.games.chaud_devant.pages import DECK_WORDS as CHAUD_DEVANT_DECK_WORDS
from web_ui.guide_text import COLOURS, CROSS, guide
from web_ui.guide_text import TEXT as GUIDE_TEXT

GOLDEN = Path(__file__).with_name("phrases.json")
VOICES: dict[str, Voice] = {
    "table": TABLE_VOICE,
    "chaud_devant:2005": EditionVoice("2005"),
    "chaud_devant:2023": EditionVoice("2023"),
    "buffet": BuffetVoice(),
    "deck": DeckVoice(lambda code, language: f"<{code}:{language}>"),
}


def _part(value: Any) -> Any:
    """JSON back to parts: {"$part": key, "fields": {...}} is a Part, anything else as it was."""
    if isinstance(value, dict) and "$part" in value:
        return Part(value["$part"], {name: _part(field) for name, field in value["fields"].items()})
    if isinstance(value, list):
        return [_part(item) for item in value]
    return value


def render(case: dict[str, Any]) -> str:
    """What the code says or shows for one recorded case."""
    kind, language = case["kind"], case["language"]
    if kind == "voice":
        return VOICES[case["voice"]].render([_part(p) for p in case["parts"]], language)
    if kind == "tag_name":
        game = CHAUD_DEVANT if case["game"] == "chaud_devant" else BUFFET
        return str(game.tag_name(case["code"], language))
    if kind == "tag_name_2023":
        return str(deck_names.tag_name(case["code"], language, "2023"))
    if kind == "deck_words":
        return {**words(language), **CHAUD_DEVANT_DECK_WORDS.words(language),
                **BUFFET_DECK_WORDS.words(language)}[case["key"]]
    if kind == "guide":
        value = guide(language)[case["key"]]
        return "\n".join(value) if isinstance(value, list) else str(value)
    if kind == "guide_colour":
        return COLOURS.get(language, COLOURS["fr"])[case["key"]]
    if kind == "guide_cross":
        return CROSS.get(language, "croix")
    page = helpers(language)
    if kind == "buffet_label":
        return str(page["t"](case["key"], **case["fields"]))
    if kind == "buffet_colour":
        return str(page["colour_name"][case["key"]])
    if kind == "buffet_shape":
        return str(page["shape_name"][case["key"]])
    if kind == "buffet_plate":
        return str(page["plate_name"](case["key"]))
    if kind == "buffet_food":
        return str(page["food_name"](case["key"]))
    if kind == "buffet_number":
        return str(page["number_word"](case["key"]))
    if kind == "buffet_place":
        return str(page["place_name"](*case["key"]))
    raise ValueError(f"unknown case kind {kind!r}")


def _cases() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))["cases"]
    return loaded


@pytest.mark.parametrize("language", ["fr", "en", "nl", "de"])
def test_every_phrase_and_label_reads_as_recorded(language: str) -> None:
    wrong = [(case, render(case)) for case in _cases() if case["language"] == language
             and render(case) != case["text"]]
    assert [(case["text"], said) for case, said in wrong] == []


def test_the_cases_cover_every_voice_and_kind() -> None:
    cases = _cases()
    assert {case["voice"] for case in cases if case["kind"] == "voice"} == set(VOICES)
    assert len(cases) > 3000


def test_every_phrasebook_message_has_a_recorded_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phrase added later gets its golden cases too (record them, then review the JSON)."""
    used: set[str] = set()
    real = catalogs.text_of

    def spy(message: catalogs.Message, language: str, count: int | None = None) -> str:
        used.add(message.context)
        return real(message, language, count)

    monkeypatch.setattr(catalogs, "text_of", spy)
    for case in _cases():
        render(case)
    books = (TABLE_SAID, CHAUD_DEVANT_SAID, BUFFET_SAID, DECK_SAID, DECK_WORDS, BUFFET_LABELS, GUIDE_TEXT,
             CHAUD_DEVANT_DECK_WORDS, BUFFET_DECK_WORDS)
    assert {m.context for book in books for m in book.messages.values()} - used == set()


def record() -> None:
    """Rewrite the recorded texts with what the code says now."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for case in data["cases"]:
        case["text"] = render(case)
    lines = ",\n".join(json.dumps(case, ensure_ascii=False) for case in data["cases"])
    GOLDEN.write_text('{"cases": [\n' + lines + "\n]}\n", encoding="utf-8")


if __name__ == "__main__":
    record()
