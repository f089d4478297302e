"""Placeholder for the robot's brain until the engine lands: the first legal action, deterministically.

Same interface as the engine's (`decide(games, ask, level=, seed=, think_ms=)`), so the table side is
built and tested against it; replaced wholesale by the engine's module.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.referee import Referee
from companion.seam import Games, Part

LEVELS = ("debutant", "cuisinier", "chef")


@dataclass(frozen=True)
class RobotAsk:
    """What a seat may know: the public log, its own hand, and what is asked."""

    log: list[dict[str, Any]]
    seat: str
    hand: tuple[str, ...]
    ask: str | None = None


@dataclass(frozen=True)
class Decision:
    """The event the seat plays and, for the learning aid, why."""

    event: dict[str, Any]
    why: Part | None


class RobotRefusal(ValueError):
    """A request the robot cannot answer; `reason` is a stable key."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason


def decide(games: Games, ask: RobotAsk, *, level: str = "chef", seed: int = 0, think_ms: int = 300) -> Decision:
    """A random legal action of the seat (placeholder)."""
    referee = Referee(games)
    for event in ask.log:
        referee.apply(event)
    state: Any = referee.state
    if state is None:
        raise RobotRefusal("no_game")
    rng = random.Random(seed)
    if ask.ask == "swap":
        return Decision({"type": "swap", "cards": []}, None)
    if getattr(state, "phase", None) == "step" or state.public_state().get("game") == "buffet":
        if not ask.hand:
            raise RobotRefusal("no_hand")
        return Decision({"type": "card", "card": rng.choice(sorted(ask.hand))}, None)
    actions = [event for event in state.legal_actions(hand=list(ask.hand))
               if event["type"] == "card" or event.get("player") == ask.seat]
    if not actions:
        raise RobotRefusal("not_due")
    return Decision(rng.choice(actions), None)
