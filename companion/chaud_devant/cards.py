"""The 52 soup cards and 5 menus of Chaud Devant !, named by the contract's card codes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Suit(StrEnum):
    """A soup suit; the string value is the contract's code."""

    PEA = "pea"
    ONION = "onion"
    MUSHROOM = "mushroom"
    PEPPER = "pepper"


SOUP_SUITS: tuple[Suit, ...] = (Suit.PEA, Suit.ONION, Suit.MUSHROOM)
MENUS: tuple[str, ...] = ("pea", "onion", "mushroom", "pepper", "none")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical soup card: its code, suit and face value (overflow and bouillons are 0)."""

    code: str
    suit: Suit
    value: int
    is_bouillon: bool = False
    is_overflow: bool = False

    @property
    def is_pepper(self) -> bool:
        return self.suit is Suit.PEPPER


def _build_deck() -> dict[str, Card]:
    deck: dict[str, Card] = {}
    for suit in SOUP_SUITS:
        for copy in "ab":
            deck[f"{suit}-0{copy}"] = Card(f"{suit}-0{copy}", suit, 0, is_bouillon=True)
        for value in range(1, 6):
            for copy in "ab":
                code = f"{suit}-{value}{copy}"
                deck[code] = Card(code, suit, value)
        deck[f"{suit}-10"] = Card(f"{suit}-10", suit, 10)
        deck[f"{suit}-x"] = Card(f"{suit}-x", suit, 0, is_overflow=True)
    for value in range(1, 6):
        for copy in "ab":
            code = f"pepper-{value}{copy}"
            deck[code] = Card(code, Suit.PEPPER, value)
    return deck


DECK: dict[str, Card] = _build_deck()
"""Every soup card by code, in a fixed order (52 cards)."""

ALL_CODES: tuple[str, ...] = tuple(DECK)


def card(code: object) -> Card | None:
    """The card with this code, or None for anything that is not a card code."""
    return DECK.get(code) if isinstance(code, str) else None


def is_menu(code: object) -> bool:
    """True for the five menu codes."""
    return isinstance(code, str) and code in MENUS
