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


def play_game(players: Sequence[Player], rng: random.Random, *, max_rounds: int = 99) -> Result:
    """A whole game (or `max_rounds` rounds) between these players in seat order, shuffled by `rng`."""
    count = len(players)
    names = NAMES[:count]
    plates = list(STAND_IN_SET)
    rng.shuffle(plates)
    draw = [code for code in MOUSE_CARDS for _ in range(COPIES)]
    rng.shuffle(draw)
    discard: list[str] = []

    def take(number: int) -> list[str]:
        nonlocal draw, discard
        taken: list[str] = []
        while len(taken) < number:
            if not draw:
                draw, discard = discard, []
                rng.shuffle(draw)
            taken.append(draw.pop())
        return taken

    hands = [take(HAND) for _ in range(count)]
    referee = Referee(Games.of(KIND))
    log: list[dict[str, Any]] = []
    result = Result()

    def send(event: dict[str, Any]) -> list[Any]:
        outcome = referee.apply(event)
        if not outcome.accepted:
            raise ArenaError(f"refused {outcome.reason}: {event}")
        log.append(event)
        return outcome.effects

    send({"type": "new_game", "game": "buffet", "players": list(names), "first": rng.choice(names)})
    state = referee.state
    assert isinstance(state, State)
    while not state.is_terminal() and state.round_number <= max_rounds:
        if state.phase == "buffet":
            send({"type": "plate", "plate": plates.pop()})
            continue
        chosen: dict[int, str] = {}
        for seat in list(state.in_round):
            if not hands[seat]:
                hands[seat].extend(take(HAND))
            ask = RobotAsk(list(log), names[seat], tuple(hands[seat]))
            result.asks.append(ask)
            event = players[seat](ask)
            if event.get("type") != "card" or event.get("card") not in hands[seat]:
                raise ArenaError(f"{names[seat]} answered {event} with hand {hands[seat]}")
            hands[seat].remove(event["card"])
            chosen[seat] = event["card"]
        for seat in list(state.in_round):
            discard.append(chosen[seat])
            for effect in send({"type": "card", "card": chosen[seat]}):
                if isinstance(effect, fx.Departure) and effect.may_swap:
                    ask = RobotAsk(list(log), names[effect.seat], tuple(hands[effect.seat]), "swap")
                    result.asks.append(ask)
                    answer = players[effect.seat](ask)
                    given = list(answer.get("cards", []))
                    for code in given:
                        if code not in hands[effect.seat]:
                            raise ArenaError(f"{names[effect.seat]} swaps {code} it does not hold")
                        hands[effect.seat].remove(code)
                    hands[effect.seat].extend(take(len(given)))
                    discard.extend(given)
                elif isinstance(effect, fx.RoundEnded):
                    for hand in hands:
                        hand.extend(take(HAND - len(hand)))
    result.scores = state.scores()
    return result
