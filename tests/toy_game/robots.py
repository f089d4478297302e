"""Relay's robot seats: every seat holds the three hop cards, plays one on its turn; no hands to deal."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.robot_seats import PlainSeats, RobotLedger
from companion.seam import Due, Part, State
from tests.toy_game.rules import GOAL, HOPS

CARDS = tuple(sorted(HOPS))


@dataclass
class RelayWorld:
    """A race played out: the robot wins (1.0) or not; the rollout policy hops at random."""

    squares: list[int]
    turn: int
    seat: int
    noise: float = 1.0
    own_noise: float | None = None

    def clone(self) -> RelayWorld:
        return RelayWorld(list(self.squares), self.turn, self.seat)

    def apply_root(self, choice: int) -> None:
        self._hop(HOPS[CARDS[choice]])

    def is_terminal(self) -> bool:
        return max(self.squares) >= GOAL

    def rollout_step(self, rng: random.Random) -> None:
        self._hop(rng.choice((1, 2, 3)))

    def returns(self) -> float:
        return 1.0 if self.squares[self.seat] >= GOAL else 0.0

    def _hop(self, hops: int) -> None:
        self.squares[self.turn] += hops
        if not self.is_terminal():
            self.turn = (self.turn + 1) % len(self.squares)


@dataclass
class RelayPosition:
    """A seat's turn: the three hops (public information only: nothing to sample)."""

    world: RelayWorld
    choices: list[dict[str, Any]] = field(default_factory=lambda: [{"type": "card", "card": c} for c in CARDS])
    rollouts_per_ms: float = 50.0

    def sample(self, rng: random.Random) -> RelayWorld:
        return self.world.clone()

    def search_world(self, rng: random.Random) -> RelayWorld:
        return self.world.clone()

    def heuristic(self, rng: random.Random, *, noise: float = 0.0) -> int:
        return rng.randrange(len(CARDS)) if rng.random() < noise else len(CARDS) - 1  # the longest hop

    def why(self, choice: int) -> Part | None:
        return None


def robot_position(state: Any, actions: list[dict[str, Any]], ask: Any) -> RelayPosition:
    """The robot's view of its turn (companion.robots.PlaysRobots)."""
    return RelayPosition(RelayWorld(list(state.squares), state.turn, state.players.index(ask.seat)))


class RelaySeats(PlainSeats):
    """Relay's robot seats at a table (companion.seam.TableSeats): a card on its turn, nothing else."""

    def hand_of(self, state: State, ledger: RobotLedger, player: str) -> tuple[str, ...] | None:
        return CARDS

    def due(self, state: State, ledger: RobotLedger, player: str, actions: int) -> Due | None:
        mine = state.public_state().get("turn") == player and ledger.pending(player, actions) is None
        return Due(player, "card", actions) if mine else None

    def missing_hands(self, state: State, ledger: RobotLedger, virtual: bool) -> list[str]:
        return []

    def deal_virtually(self, state: State, ledger: RobotLedger, players: list[str], seed: int) -> list[Any]:
        return []

    def public_why(self, state: State, player: str, card: str) -> Part | None:
        return None

    def reveal_why(self, state: State, player: str, card: str) -> Part | None:
        return None


SEATS = RelaySeats()
