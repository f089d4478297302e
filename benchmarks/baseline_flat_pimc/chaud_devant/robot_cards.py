"""Chaud Devant !'s cards as the robot counts them: small tables indexed by a card's number."""

from __future__ import annotations

from companion.chaud_devant.cards import ALL_CODES, DECK, MENUS

SUITS: tuple[str, ...] = ("pea", "onion", "mushroom", "pepper")
PEPPER, NONE_MENU = 3, 4
SUIT_OF: tuple[int, ...] = tuple(SUITS.index(str(DECK[code].suit)) for code in ALL_CODES)
VALUE_OF: tuple[int, ...] = tuple(DECK[code].value for code in ALL_CODES)
BOUILLON: tuple[bool, ...] = tuple(DECK[code].is_bouillon for code in ALL_CODES)
OVERFLOW: tuple[bool, ...] = tuple(DECK[code].is_overflow for code in ALL_CODES)
INDEX: dict[str, int] = {code: index for index, code in enumerate(ALL_CODES)}
WORTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (1 if SUIT_OF[c] == menu else -1 if SUIT_OF[c] == PEPPER else 0) if menu < PEPPER
        else (1 if SUIT_OF[c] == PEPPER else -1 if BOUILLON[c] else 0) if menu == PEPPER
        else -1
        for c in range(len(ALL_CODES))
    )
    for menu in range(len(MENUS))
)
"""What each card won is worth to a player of each menu (a "no soup" menu starts at +5)."""
LEAD_COST: tuple[int, ...] = tuple(-(0 if value == 10 else value) for value in VALUE_OF)
"""The rule-based lead's cost of each card: its value, a led 10 counting 0."""
