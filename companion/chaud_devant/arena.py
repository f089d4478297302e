"""Whole Chaud Devant ! games played by robots and other players, refereed for real (tests, benchmarks).

Each seat is a `Player`: given a `RobotAsk` (the true log so far, its seat, its true hand) it
answers the event it plays. The arena deals real hands, asks whoever is due, and sends every
answer to a `Referee`; an answer the referee refuses raises `ArenaError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.chaud_devant import KIND
from companion.chaud_devant.cards import ALL_CODES
from companion.chaud_devant.game import ROUNDS, Game, MenuReveal, Rules
from companion.chaud_devant.simulate import NAMES
from companion.chaud_devant.state import State
from companion.referee import Referee
from companion.robots import RobotAsk
from companion.seam import Games

Player = Callable[[RobotAsk], dict[str, Any]]


class ArenaError(AssertionError):
    """A player answered an event the referee refused."""


@dataclass
class Result:
    """Each seat's points per round (before the floor at 0), and every request made."""

    points: list[list[int]] = field(default_factory=list)
    asks: list[RobotAsk] = field(default_factory=list)


def play_game(players: Sequence[Player], rng: random.Random, *, menu_reveal: MenuReveal = "simultaneous",
              edition: str = "2005", rounds: int = ROUNDS) -> Result:
    """A game of `rounds` rounds between these players (seat order), dealt by `rng`."""
    count = len(players)
    names = NAMES[:count]
    setup = Game(names, rng.randrange(count), Rules("2023" if edition == "2023" else "2005", menu_reveal))
    referee = Referee(Games.of(KIND))
    log: list[dict[str, Any]] = []
    result = Result()

    def send(event: dict[str, Any]) -> None:
        outcome = referee.apply(event)
        if not outcome.accepted:
            raise ArenaError(f"refused {outcome.reason}: {event}")
        log.append(event)

    send({"type": "new_game", "players": list(names), "dealer": names[setup.first_dealer],
          "rules": setup.rules.as_json()})
    for number in range(1, rounds + 1):
        deck = list(ALL_CODES)
        rng.shuffle(deck)
        hands: list[list[str]] = []
        for size in setup.deal_sizes(setup.dealer_of(number)):
            hands.append(deck[:size])
            deck = deck[size:]
        state = referee.state
        assert isinstance(state, State)
        for index in range(count):
            seat = state.next_to_reveal() if menu_reveal == "sequential" else index
            assert seat is not None
            ask = RobotAsk(list(log), names[seat], tuple(hands[seat]))
            result.asks.append(ask)
            send(players[seat](ask))
        while state.progress.phase == "play":
            seat = state.progress.turn
            assert seat is not None
            ask = RobotAsk(list(log), names[seat], tuple(hands[seat]))
            result.asks.append(ask)
            event = players[seat](ask)
            send(event)
            hands[seat].remove(event["card"])
        points = state.progress.rounds[-1].points
        assert points is not None
        result.points.append([points[seat] for seat in range(count)])
    return result
