"""The names of Chaud Devant's physical cards as a host enrolling a deck hears them, and its deal.

"Pois, zéro, bouillon — premier exemplaire": suit, value in words, then which copy, so two
copies of one card are never confused while a deck is enrolled or checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.chaud_devant.cards import DECK, MENUS
from companion.chaud_devant.phrases import SAID, menu_name, suit_name
from companion.tag_deal import DealPlan

if TYPE_CHECKING:
    from companion.chaud_devant.state import State

def tag_name(code: str, language: str, edition: str = "2005") -> str | None:
    """A physical card's full name in `language`; None for a code that is not Chaud Devant's."""
    if code.startswith("menu-") and "@" in code:
        menu, _, seat = code[len("menu-"):].partition("@")
        if menu not in MENUS or seat not in {"1", "2", "3", "4", "5"}:
            return None
        return SAID.format("tag.menu", language, menu=menu_name(menu, language, edition), seat=seat)
    card = DECK.get(code)
    if card is None:
        return None
    suit = suit_name(str(card.suit), language, edition)
    if card.is_overflow:
        return f"{suit}, {SAID.template('tag.overflow', language)}"
    if card.value == 10:
        return f"{suit}, {SAID.template('tag.ten', language)}"
    value = SAID.template(f"number.{card.value}", language)
    copy = SAID.template(f"tag.{code[-1]}", language)
    if card.is_bouillon:
        return f"{suit}, {value}, {SAID.template('tag.bouillon', language)} — {copy}"
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
