"""The records a Chaud Devant ! State is made of: rounds, pot, stars, referee findings.

Plain mutable records; only `companion.chaud_devant.state` changes them, and only observers read them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from companion.chaud_devant.cards import Suit

Phase = Literal["menu", "play", "game_over"]


@dataclass(slots=True)
class Play:
    """One card in the pot: who played it, the announced sum after it, and the trick it went to."""

    seat: int
    card: str
    sum_after: int
    trick: int
    led: Suit | None
    spoiled: bool


@dataclass(slots=True)
class Trick:
    """A completed trick: its winner's seat and the cards in play order."""

    winner: int
    cards: list[str]


@dataclass(slots=True)
class Revoke:
    """A proven revoke: `seat` showed void in `suit` at `void_trick`, then played it at `proof_trick`."""

    round: int
    seat: int
    suit: Suit
    void_trick: int
    proof_trick: int


@dataclass(slots=True)
class Pot:
    """The unfinished trick."""

    cards: list[str] = field(default_factory=list)
    sum: int = 0
    led: Suit | None = None
    spoiled: bool = False


@dataclass(slots=True)
class RoundState:
    """One round from its opening event to its score."""

    number: int
    dealer: int
    first: int
    deal: tuple[int, ...]
    left: list[int]
    choices: dict[int, str] = field(default_factory=dict)
    revealed: bool = False
    hands: dict[int, set[str]] = field(default_factory=dict)
    played: set[str] = field(default_factory=set)
    plays: list[Play] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    voids: dict[int, dict[Suit, int]] = field(default_factory=dict)
    unclaimed: list[str] = field(default_factory=list)
    points: dict[int, int] | None = None

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1


@dataclass(slots=True)
class Progress:
    """Everything that changes during a game; seats are indexes into Game.players."""

    stars: list[int]
    used_menus: list[set[str]]
    rounds: list[RoundState] = field(default_factory=list)
    phase: Phase = "menu"
    turn: int | None = None
    pot: Pot = field(default_factory=Pot)
    revokes: list[Revoke] = field(default_factory=list)

    @property
    def open_round(self) -> RoundState | None:
        """The round being played or chosen for, None between rounds."""
        if self.rounds and self.rounds[-1].points is None:
            return self.rounds[-1]
        return None
