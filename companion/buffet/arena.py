"""Whole Sus au buffet ! games played by robots and other players, refereed for real (tests, benchmarks).

Each seat is a `Player`: given a `RobotAsk` (the log as the step began, its seat, its true hand;
or `ask="swap"` for the round's first mouse to leave) it answers its event. The arena shuffles the
stand-in plates and the 110 mouse cards, keeps the hands and piles, and sends every card to a
`Referee` in reveal order; an answer that is not a card of the hand raises `ArenaError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.buffet import KIND
from companion.buffet import effects as fx
from companion.buffet.plates import COPIES, MOUSE_CARDS, STAND_IN_SET
from companion.buffet.simulate import NAMES
from companion.buffet.state import State
from companion.referee import Referee
from companion.robots import RobotAsk
from companion.seam import Games

Player = Callable[[RobotAsk], dict[str, Any]]
HAND = 9


class ArenaError(AssertionError):
    """A player answered an event the rules or its hand do not allow."""


@dataclass
class Result:
    """Each seat's final score, and every request made."""

    scores: list[int] = field(default_factory=list)
    asks: list[RobotAsk] = field(default_factory=list)


class _Table:
    """One game under way: the players, the hands and piles, the referee and the log."""

    def __init__(self, players: Sequence[Player], rng: random.Random) -> None:
        self.players, self.rng = players, rng
        self.names = NAMES[: len(players)]
        self.plates = list(STAND_IN_SET)
        rng.shuffle(self.plates)
        self.draw = [code for code in MOUSE_CARDS for _ in range(COPIES)]
        rng.shuffle(self.draw)
        self.discard: list[str] = []
        self.hands = [self.take(HAND) for _ in players]
        self.referee = Referee(Games.of(KIND))
        self.log: list[dict[str, Any]] = []
        self.result = Result()

    def take(self, number: int) -> list[str]:
        """Cards from the draw pile; the discard pile is shuffled in when it runs out."""
        taken: list[str] = []
        while len(taken) < number:
            if not self.draw:
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
            taken.append(self.draw.pop())
        return taken

    def send(self, event: dict[str, Any]) -> list[Any]:
        outcome = self.referee.apply(event)
        if not outcome.accepted:
            raise ArenaError(f"refused {outcome.reason}: {event}")
        self.log.append(event)
        return outcome.effects

    def ask(self, seat: int, ask: str | None = None) -> dict[str, Any]:
        request = RobotAsk(list(self.log), self.names[seat], tuple(self.hands[seat]), ask)
        self.result.asks.append(request)
        return self.players[seat](request)

    def step(self, state: State) -> None:
        """Every mouse in the round chooses face down (the log as the step began), then the reveals."""
        chosen: dict[int, str] = {}
        for seat in list(state.in_round):
            if not self.hands[seat]:
                self.hands[seat].extend(self.take(HAND))
            event = self.ask(seat)
            if event.get("type") != "card" or event.get("card") not in self.hands[seat]:
                raise ArenaError(f"{self.names[seat]} answered {event} with hand {self.hands[seat]}")
            self.hands[seat].remove(event["card"])
            chosen[seat] = event["card"]
        for seat in list(state.in_round):
            self.discard.append(chosen[seat])
            for effect in self.send({"type": "card", "card": chosen[seat]}):
                if isinstance(effect, fx.Departure) and effect.may_swap:
                    self.swap(effect.seat)
                elif isinstance(effect, fx.RoundEnded):
                    for hand in self.hands:
                        hand.extend(self.take(HAND - len(hand)))

    def swap(self, seat: int) -> None:
        given = list(self.ask(seat, "swap").get("cards", []))
        for code in given:
            if code not in self.hands[seat]:
                raise ArenaError(f"{self.names[seat]} swaps {code} it does not hold")
            self.hands[seat].remove(code)
        self.hands[seat].extend(self.take(len(given)))
        self.discard.extend(given)


def play_game(players: Sequence[Player], rng: random.Random, *, max_rounds: int = 99) -> Result:
    """A whole game (or `max_rounds` rounds) between these players in seat order, shuffled by `rng`."""
    table = _Table(players, rng)
    table.send({"type": "new_game", "game": "buffet", "players": list(table.names), "first": rng.choice(table.names)})
    state = table.referee.state
    assert isinstance(state, State)
    while not state.is_terminal() and state.round_number <= max_rounds:
        if state.phase == "buffet":
            table.send({"type": "plate", "plate": table.plates.pop()})
        else:
            table.step(state)
    table.result.scores = state.scores()
    return table.result
