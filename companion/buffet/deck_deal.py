"""Sus au buffet ! dealt by tag: nine mouse cards each, passed over the reader one at a time clockwise
from the first player. The table says whose hands are dealt and how many cards each still needs; the
buffet log has no `hand` event, so a hand dealt by tag is journaled as a known hand (a `robot` hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.buffet.plates import PHYSICAL_MOUSE_CARDS
from companion.buffet.robot_view import HAND_SIZE
from companion.tag_deal import DealPlan

if TYPE_CHECKING:
    from companion.buffet.state import State


def deal_plan(state: State) -> DealPlan | None:
    """Every seat's full hand of the round under way or about to be played; None once the game is over."""
    if state.is_terminal():
        return None
    game = state.game
    return DealPlan(game.players, (HAND_SIZE,) * len(game.players), game.first,
                    frozenset(PHYSICAL_MOUSE_CARDS), state.round_number, known_as="robot")
