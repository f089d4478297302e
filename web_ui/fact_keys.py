"""The one-key facts each page offers: (fact name, key, button label), per game and page kind."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

SUIT_KEYS = ("pea", "onion", "mushroom", "pepper")
"""The suits keys 1 to 4 answer for, in this order."""

FactKey = tuple[str, str, str]


def fact_keys(game: str, page: str, suit_name: Callable[[str], str] = str) -> list[FactKey]:
    """The fact buttons of a `table` or `seat` page of `game` (`chaud_devant` or `buffet`), in order;
    `suit_name` names a suit in the game's edition."""
    seat = page == "seat"
    if game == "buffet":
        if seat:
            return [("hand", "M", _("My plates")), ("left", "N", _("My square")), ("turn", "T", _("Whose turn")),
                    ("scores", "S", _("My score"))]
        return [("turn", "T", _("Whose turn")), ("scores", "S", _("Scores")), ("pot", "P", _("The buffet")),
                ("last-trick", "D", _("This step's cards"))]
    keys = [("pot", "P", _("Pot")), ("led", "C", _("Led suit")), ("turn", "T", _("Whose turn")),
            ("scores", "S", _("Scores")), ("last-trick", "D", _("Last trick")), ("left", "N", _("Cards left"))]
    if seat:
        by_suit = [(f"hand-{index}", str(index), _("My hand: %(suit)s", suit=suit_name(suit)))
                   for index, suit in enumerate(SUIT_KEYS, start=1)]
        keys = [("hand", "M", _("My hand")), *by_suit, *keys, ("menu", "E", _("My menu"))]
    return keys
