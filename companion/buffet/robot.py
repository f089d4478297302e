"""Sus au buffet !'s robot: the seat's Position for the game-agnostic search of `companion.robots`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.buffet.robot_view import View, robot_view
from companion.buffet.state import State
from companion.robots import RobotAsk, World
from companion.seam import Part


class Position:
    """A seat's decision: its legal answers and worlds consistent with its View."""

    rollouts_per_ms = 1.0

    def __init__(self, view: View) -> None:
        self.view = view

    @property
    def choices(self) -> Sequence[dict[str, Any]]:
        return self.view.choices

    def sample(self, rng: random.Random) -> World:
        raise NotImplementedError

    def heuristic(self, rng: random.Random, *, noise: float = 0.0) -> int:
        return rng.randrange(len(self.view.choices))

    def why(self, choice: int) -> Part | None:
        return None


def robot_position(state: State, actions: list[dict[str, Any]], ask: RobotAsk) -> Position:
    """The robot's Position for `ask` (RobotRefusal when it is not the seat's decision)."""
    return Position(robot_view(state, actions, ask))
