"""A Sus au buffet ! game as OpenSpiel names it: the fixed facts (the seats and the first player).

The changing half is `companion.buffet.state.State`, made by `Game.new_initial_state()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.buffet.state import State

MIN_PLAYERS, MAX_PLAYERS = 3, 6


@dataclass(frozen=True, slots=True)
class Game:
    """Players in clockwise seating order and the seat holding the first-player token; never changes."""

    players: tuple[str, ...]
    first: int

    name = "buffet"

    def new_initial_state(self) -> State:
        """The state before the first plate of the game."""
        from companion.buffet.state import State

        return State(self)

    @property
    def buffet_size(self) -> int:
        """Plates laid out each round: players − 1, or 5 with three players."""
        return 5 if len(self.players) == 3 else len(self.players) - 1

    @property
    def two_parts(self) -> bool:
        """Three-player rounds have two parts."""
        return len(self.players) == 3

    def clockwise(self, seats: set[int] | list[int]) -> list[int]:
        """These seats in reveal order: clockwise from the first player."""
        count = len(self.players)
        return sorted(seats, key=lambda seat: (seat - self.first) % count)


def parse_game(players: object, first: object) -> Game | None:
    """The Game a `new_game` event describes, or None if it is invalid (bad_setup)."""
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return None
    if not all(isinstance(name, str) and name.strip() for name in players):
        return None
    if len(set(players)) != len(players) or not isinstance(first, str) or first not in players:
        return None
    return Game(tuple(players), players.index(first))
