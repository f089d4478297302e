"""A Chaud Devant ! game as OpenSpiel names it: the fixed facts (seats, first dealer, edition, reveal mode).

The changing half is `companion.chaud_devant.state.State`, made by `Game.new_initial_state()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from companion.chaud_devant.state import State

Edition = Literal["2005", "2023"]
MenuReveal = Literal["simultaneous", "sequential"]

EDITIONS: tuple[str, ...] = ("2005", "2023")
MENU_REVEALS: tuple[str, ...] = ("simultaneous", "sequential")
ROUNDS = 5
STARTING_STARS = 5
MIN_PLAYERS, MAX_PLAYERS = 3, 5


@dataclass(frozen=True, slots=True)
class Rules:
    """The table's rule settings."""

    edition: Edition = "2005"
    menu_reveal: MenuReveal = "simultaneous"

    def as_json(self) -> dict[str, str]:
        return {"edition": self.edition, "menu_reveal": self.menu_reveal}


@dataclass(frozen=True, slots=True)
class Game:
    """Players in clockwise seating order, the dealer of round 1, and the rules; never changes."""

    players: tuple[str, ...]
    first_dealer: int
    rules: Rules

    name = "chaud_devant"

    def new_initial_state(self) -> State:
        """The state before the first event of the game."""
        from companion.chaud_devant.state import State

        return State(self)

    def dealer_of(self, round_number: int) -> int:
        """Seat index of the dealer of a round (1-based); it moves one seat clockwise a round."""
        return (self.first_dealer + round_number - 1) % len(self.players)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def deal_sizes(self, dealer: int) -> tuple[int, ...]:
        """Cards dealt to each seat (by seat index) when `dealer` deals."""
        count = len(self.players)
        if count < 5:
            return (13,) * count
        if self.rules.edition == "2023":
            return (10,) * count
        first_two = {(dealer + 1) % count, (dealer + 2) % count}
        return tuple(11 if seat in first_two else 10 for seat in range(count))


def parse_game(players: object, dealer: object, rules: object) -> Game | None:
    """The Game a `new_game` event describes, or None if it is invalid (bad_setup)."""
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return None
    if not all(isinstance(name, str) and name.strip() for name in players):
        return None
    if len(set(players)) != len(players) or dealer not in players:
        return None
    if rules is None:
        rules = {}
    if not isinstance(rules, dict) or not set(rules) <= {"edition", "menu_reveal"}:
        return None
    edition = rules.get("edition", "2005")
    reveal = rules.get("menu_reveal", "simultaneous")
    if edition not in EDITIONS or reveal not in MENU_REVEALS:
        return None
    return Game(tuple(players), players.index(dealer), Rules(edition, reveal))
