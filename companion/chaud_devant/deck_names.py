"""The names of Chaud Devant's physical cards as a host enrolling a deck hears them, and its deal.

"Pois, zéro, bouillon — premier exemplaire": suit, value in words, then which copy, so two
copies of one card are never confused while a deck is enrolled or checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.chaud_devant.cards import DECK, MENUS
from companion.chaud_devant.phrases import MENU_NONE, SUIT_NAMES
from companion.phrases import DEFAULT_LANGUAGE
from companion.tag_deal import DealPlan

if TYPE_CHECKING:
    from companion.chaud_devant.state import State

NUMBERS: dict[str, tuple[str, ...]] = {
    "fr": ("zéro", "un", "deux", "trois", "quatre", "cinq"),
    "en": ("zero", "one", "two", "three", "four", "five"),
    "nl": ("nul", "één", "twee", "drie", "vier", "vijf"),
}
WORDS: dict[str, dict[str, str]] = {
    "fr": {"ten": "dix", "bouillon": "bouillon", "overflow": "carte débordement", "a": "premier exemplaire",
           "b": "second exemplaire", "menu": "carte menu {menu}, jeu du siège {seat}"},
    "en": {"ten": "ten", "bouillon": "stock", "overflow": "overflow card", "a": "first copy", "b": "second copy",
           "menu": "menu card {menu}, set of seat {seat}"},
    "nl": {"ten": "tien", "bouillon": "bouillon", "overflow": "overkookkaart", "a": "eerste exemplaar",
           "b": "tweede exemplaar", "menu": "menukaart {menu}, set van plaats {seat}"},
}


def tag_name(code: str, language: str, edition: str = "2005") -> str | None:
    """A physical card's full name in `language`; None for a code that is not Chaud Devant's."""
    words = WORDS.get(language, WORDS[DEFAULT_LANGUAGE])
    suits = SUIT_NAMES[edition].get(language, SUIT_NAMES[edition][DEFAULT_LANGUAGE])
    if code.startswith("menu-") and "@" in code:
        menu, _, seat = code[len("menu-"):].partition("@")
        if menu not in MENUS or seat not in {"1", "2", "3", "4", "5"}:
            return None
        name = MENU_NONE.get(language, MENU_NONE[DEFAULT_LANGUAGE]) if menu == "none" else suits[menu]
        return words["menu"].format(menu=name, seat=seat)
    card = DECK.get(code)
    if card is None:
        return None
    suit = suits[str(card.suit)]
    if card.is_overflow:
        return f"{suit}, {words['overflow']}"
    if card.value == 10:
        return f"{suit}, {words['ten']}"
    value = NUMBERS.get(language, NUMBERS[DEFAULT_LANGUAGE])[card.value]
    copy = words[code[-1]]
    if card.is_bouillon:
        return f"{suit}, {value}, {words['bouillon']} — {copy}"
    return f"{suit}, {value} — {copy}"


def deal_plan(state: State) -> DealPlan | None:
    """Who is dealt how many cards in the round about to be played; None once its play has begun."""
    progress = state.progress
    if progress.phase != "menu":
        return None
    game = state.game
    dealer = game.dealer_of(state.round_number)
    return DealPlan(game.players, game.deal_sizes(dealer), game.next_seat(dealer), frozenset(DECK),
                    state.round_number)
