"""The frozen baseline: the flat PIMC and its rule-based playout policy as they were at commit 23919bc.

`robots.py`, `chaud_devant/robot*.py` and `buffet/robot*.py` are copies of `companion/robots.py` and the
games' robot modules at that commit, their own imports pointed here (and sorted); nothing else changed, and
nothing here may change: the chef's gains are measured against it. The rules (states, cards, plates) stay the
project's. `position_of` builds a frozen Position from a request; `flat_pimc` searches it.
"""

from __future__ import annotations

from typing import Any

from benchmarks.baseline_flat_pimc.buffet.robot import robot_position as buffet_position
from benchmarks.baseline_flat_pimc.chaud_devant.robot import robot_position as chaud_position
from benchmarks.baseline_flat_pimc.robots import Position, RobotAsk, RobotRefusal, flat_pimc
from companion.referee import Referee
from companion.seam import Games

__all__ = ["RobotAsk", "flat_pimc", "position_of"]


def position_of(games: Games, ask: Any) -> Position:
    """The frozen robot's Position for a request (any object with log, seat, hand and ask)."""
    referee = Referee(games)
    for event in ask.log:
        referee.apply(event)
    if referee.state is None or referee.kind is None:
        raise RobotRefusal("no_game", "the log holds no valid new_game")
    frozen = RobotAsk(ask.log, ask.seat, tuple(ask.hand), ask.ask)
    builder: Any = chaud_position if referee.kind.name == "chaud_devant" else buffet_position
    position: Position = builder(referee.state, list(referee.actions), frozen)
    return position
