"""How a round is scored: the cards a player won, weighed against their menu."""

from __future__ import annotations

from companion.chaud_devant.cards import DECK, Card
from companion.chaud_devant.records import RoundState


def won_cards(current: RoundState, seat: int) -> list[Card]:
    """All cards in the tricks `seat` won this round."""
    return [DECK[code] for trick in current.tricks if trick.winner == seat for code in trick.cards]


def score_round(menu: str, won: list[Card]) -> int:
    """A round's result for one player, before the floor at 0."""
    if menu == "none":
        return 5 - len(won)
    peppers = sum(1 for c in won if c.is_pepper)
    if menu == "pepper":
        return peppers - sum(1 for c in won if c.is_bouillon)
    return sum(1 for c in won if c.suit == menu) - peppers
