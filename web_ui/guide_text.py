"""The deck adaptation guide's text (preparing a tactile, tagged deck): English source by key
(contexts `guide.<key>`, list items `guide.<key>.<n>`); the catalogs translate it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from companion.catalogs import LANGUAGES, Phrasebook, said

T = TypeVar("T")

TEXT = Phrasebook(
    "guide.",
    said("guide.title", "Adapting a Chaud Devant ! deck: tactile marks and NFC tags"),
    said("guide.intro",
        "This guide prepares a deck you can tell by touch and that Marmite's pot can read. Allow an evening "
        "for the 77 cards: 52 soup cards and 25 menu cards (5 sets of 5)."),
    said("guide.material_title", "What you need"),
    said("guide.material.1", "a hole punch (one round hole);"),
    said("guide.material.2", "colour stickers: yellow, brown, green, red;"),
    said("guide.material.3", "raised dot stickers for the values, and one cross-shaped sticker;"),
    said("guide.material.4", "77 thin NFC stickers (NTAG213, NTAG215 or MIFARE Classic 1K), round, 25 mm at most;"),
    said("guide.material.5", "a pencil to tick the list at the end of this guide."),
    said("guide.soup_title", "The 52 soup cards"),
    said("guide.soup.1", "A punched hole at the top right: it tells which way up the card is."),
    said("guide.soup.2",
        "A colour sticker at the top left, by the soup's suit: Onion → yellow; Mushroom → brown; Pea → "
        "green; Pepper → red."),
    said("guide.soup.3", "Value stickers at the top left, under the colour sticker, matching the printed value."),
    said("guide.soup.4", "No value sticker on the zero cards (the stock cards)."),
    said("guide.soup.5", "A cross sticker on the zero card “The pot overflows”."),
    said("guide.menu_title", "The 25 menu cards"),
    said("guide.menu.1",
        "A colour sticker in the centre of the card, by the same code: Onion → yellow; Mushroom → brown; Pea "
        "→ green; Pepper → red."),
    said("guide.menu.2",
        "Each player has a set of five menus: write each set's seat number (1 to 5) on its back in pencil; "
        "Marmite enrolls them seat by seat."),
    said("guide.nfc_title", "Where the NFC sticker goes"),
    said("guide.nfc.1",
        "On the back of the card, in the lower half, centred: away from the punched hole (a hole under the "
        "antenna cuts it) and away from the stickers on the front."),
    said("guide.nfc.2",
        "Never under a raised sticker nor right behind one: the tactile marks must not be covered or "
        "flattened, and a tag pressed against a bump ends up cracking."),
    said("guide.nfc.3",
        "At the same place on every card: the deck stays flat and every card passes at the same distance "
        "from the pot's antenna (a few centimetres at most)."),
    said("guide.nfc.4", "On the menu cards, on the back, in the lower half, not behind the central sticker."),
    said("guide.nfc.5", "Once stuck, pass each card over the reader: Marmite says “Noted” or its name."),
    said("guide.enroll_title", "Telling Marmite which tag is which card"),
    said("guide.enroll.1",
        "On the tablet, “Deck” page, with the PIN: “Enroll the cards”. Marmite asks for each card in box "
        "order (suit by suit, value by value, then the menus seat by seat), on screen and aloud."),
    said("guide.enroll.2",
        "Put the card asked for on the reader. A tag already in use is refused, and Marmite says for which "
        "card. You can skip a card, go back, stop and resume."),
    said("guide.enroll.3",
        "Before playing, “Check the deck”: pass the whole deck; Marmite names the cards missing, unknown or "
        "seen twice."),
    said("guide.checklist_title", "Card by card checklist"),
    said("guide.columns.1", "Card"),
    said("guide.columns.2", "Hole"),
    said("guide.columns.3", "Colour"),
    said("guide.columns.4", "Dots / cross"),
    said("guide.columns.5", "NFC sticker"),
    said("guide.columns.6", "Enrolled"),
    said("guide.none", "none"),
    said("guide.colour.onion", "yellow"),
    said("guide.colour.mushroom", "brown"),
    said("guide.colour.pea", "green"),
    said("guide.colour.pepper", "red"),
    said("guide.colour.none", "none"),
    said("guide.cross", "cross"),
)
LISTS = {"material": 5, "soup": 5, "menu": 2, "nfc": 5, "enroll": 3, "columns": 6}
"""The guide's lists and how many items each has (`guide.<list>.1` … `guide.<list>.<n>`)."""
SINGLE = ("title", "intro", "material_title", "soup_title", "menu_title", "nfc_title", "enroll_title",
          "checklist_title", "none")
MARKED = ("onion", "mushroom", "pea", "pepper", "none")


def guide(language: str) -> dict[str, object]:
    """The guide's titles, paragraphs and checklist columns in `language` (French when unknown)."""
    text: dict[str, object] = {key: TEXT.template(key, language) for key in SINGLE}
    for key, count in LISTS.items():
        text[key] = [TEXT.template(f"{key}.{n}", language) for n in range(1, count + 1)]
    return text


class ByLanguage(Mapping[str, T], Generic[T]):
    """A value per language, read from the catalogs when asked (`.get(language, default)` as a dict)."""

    def __init__(self, make: Callable[[str], T]) -> None:
        self.make = make

    def __getitem__(self, language: str) -> T:
        if language not in LANGUAGES:
            raise KeyError(language)
        return self.make(language)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


COLOURS: ByLanguage[dict[str, str]] = ByLanguage(
    lambda language: {mark: TEXT.template(f"colour.{mark}", language) for mark in MARKED})
"""The sticker colour of each suit (and "none" for none), by language."""
CROSS: ByLanguage[str] = ByLanguage(lambda language: TEXT.template("cross", language))
"""The overflow card's mark, by language."""
